import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TerminalNetworkPolicy } from '../../main/payments/terminal-network.js';
import type { PrinterNetworkPolicy } from '../../main/receipts/printer-network.js';
import type { TlsSetting } from '../../main/security/tls.js';
import { startServer, type RunningServer, type StartOptions } from '../../main/server.js';
import { DATABASE_FILE } from '../../main/storage/database.js';
import { DEFAULT_GROUP_COMMIT } from '../../main/storage/group-commit.js';
import { createCategoryStore } from '../../main/storage/categories.js';
import { createStoreStore } from '../../main/storage/stores.js';
import { createSupplierStore } from '../../main/storage/suppliers.js';
import { immediateTransaction } from '../../main/storage/transactions.js';

export interface TestOrg {
  id: string;
  readKey: string;
  writeKey: string;
}

export interface TestServer {
  url: string;
  dataDir: string;
  running: RunningServer;
  /** Creates an organization the way the CLI does, through the server's own connection. */
  createOrg(features?: string[]): TestOrg;
  /**
   * Stores with the given ids, for tests whose bodies name stores (category
   * lists, identity logs) and read better with short ids than random ones.
   */
  createStores(orgId: string, ids: string[]): void;
  /** Categories and suppliers with the given ids, for tests whose product bodies name them by short ids. */
  createCatalogReferences(orgId: string, ids: { categories?: string[]; suppliers?: string[] }): void;
  /** A separate read connection to the server's SQLite file, to prove side effects. */
  sqlite(): Database.Database;
  /** Stops the server; the data folder stays until `destroy`. */
  stop(): Promise<void>;
  /** Starts a new server on the same data folder. */
  restart(options?: TestServerOptions): Promise<TestServer>;
  destroy(): Promise<void>;
}

export function makeDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'retail-test-'));
}

export interface TestServerOptions extends StartOptions {
  dataDir?: string;
  /** Further names the server answers to (`ALLOWED_HOSTS`). */
  allowedHosts?: string[];
  /** Web apps' origins allowed to call the server from a browser (`ALLOWED_ORIGINS`). */
  allowedOrigins?: string[];
  /** Where printers may be (`PRINTER_ALLOW_ADDRESSES`, `PRINTER_PORTS`); the fake printer on loopback needs it widened. */
  printerNetwork?: PrinterNetworkPolicy;
  /** Where card terminals may be (`TERMINAL_ALLOW_ADDRESSES`); the simulator on loopback needs it widened. */
  terminalNetwork?: TerminalNetworkPolicy;
  /** `PAYMENT_MAX_CENTS`: the largest card payment; default CHF 5,000. */
  paymentMaxCents?: number;
  /** Interface to listen on (`HOST`); default 127.0.0.1. */
  host?: string;
  /** HTTPS (`TLS`, `TLS_CERT`, `TLS_KEY`). */
  tls?: TlsSetting;
  /** `GROUP_COMMIT_MS`: how long a group of writes stays open; 0 commits each write on its own. */
  groupCommitMs?: number;
  /**
   * `SYNC_GROUP_COMMIT_MS`: the same for a store PC's pushed entries and
   * heartbeats. Default here: as `groupCommitMs`, so a test's store PC
   * commits at the pace of its other writes.
   */
  syncGroupCommitMs?: number;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? makeDataDir();
  const config = {
    host: options.host ?? '127.0.0.1',
    port: 0,
    dataDir,
    logLevel: 'silent',
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    printerNetwork: options.printerNetwork,
    terminalNetwork: options.terminalNetwork,
    paymentMaxCents: options.paymentMaxCents,
    tls: options.tls,
    groupCommitMs: options.groupCommitMs,
    syncGroupCommitMs: options.syncGroupCommitMs ?? options.groupCommitMs ?? DEFAULT_GROUP_COMMIT.windowMs,
  };
  const running = await startServer(config, options);
  const connections: Database.Database[] = [];
  let stopped = false;

  const server: TestServer = {
    url: running.url,
    dataDir,
    running,
    // Through the server's own connection: a second one in this process would wait on the server's
    // write lock while blocking the event loop that releases it (see `RunningServer.inProcess`).
    createOrg(features = []) {
      const org = running.inProcess.services.organizations.create({ name: 'Test org', features });
      return { id: org.id, readKey: org.readKey, writeKey: org.writeKey };
    },
    createStores(orgId, ids) {
      const { db } = running.inProcess;
      const stores = createStoreStore(db);
      const now = new Date().toISOString();
      immediateTransaction(db, () => {
        for (const id of ids) stores.insert({ id, instance: orgId, name: `Store ${id}`, deleted: false, createdate: now, lastupdate: now });
      });
    },
    createCatalogReferences(orgId, ids) {
      const { db } = running.inProcess;
      const now = new Date().toISOString();
      const categories = createCategoryStore(db);
      const suppliers = createSupplierStore(db);
      immediateTransaction(db, () => {
        for (const id of ids.categories ?? []) categories.insert(orgId, { id, name: `Category ${id}`, deleted: false, createdate: now }, now);
        for (const id of ids.suppliers ?? []) suppliers.insert({ id, organizationId: orgId, name: `Supplier ${id}`, deleted: false, createdate: now }, now);
      });
    },
    sqlite() {
      const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
      connections.push(db);
      return db;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const db of connections.splice(0)) db.close();
      await running.close();
    },
    async restart(restartOptions = {}) {
      await server.stop();
      return startTestServer({ ...options, ...restartOptions, dataDir });
    },
    async destroy() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
