import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CardPayments } from '../payments/card-payments.js';
import type { PrinterStates } from '../receipts/printer-states.js';
import type { Caller } from '../services/caller.js';
import type { AlertKind } from '../storage/alerts.js';
import type { PaymentStore } from '../storage/payments.js';
import type { PrinterStore } from '../storage/printers.js';
import type { SyncConfigStore } from '../sync/config-store.js';

/** Free space under which the data disk is an alert: 1 GiB. */
export const DISK_LOW_BYTES = 1024 ** 3;

/** A condition seen now. `store` undefined: it concerns every store this PC serves (the disk, the link to head office). */
export interface Observation {
  kind: AlertKind;
  store?: string | undefined;
  /** When it started, when the source knows (a payment's time); else the first time the watch saw it. */
  since?: string | undefined;
  detail: string;
  /** True when the store PC that saw it mails it itself: this server lists it but mails nothing of it. */
  mailedElsewhere?: boolean | undefined;
}

export interface ConditionSources {
  printers: PrinterStore;
  printerStates: PrinterStates;
  payments: PaymentStore;
  cardPayments: CardPayments;
  syncConfigs: Pick<SyncConfigStore, 'get'>;
  /** Bytes free on the data disk. */
  diskFree: () => Promise<number>;
}

/** Bytes free for this user on the disk holding `file`. */
export const diskFreeOf = (file: string) => async (): Promise<number> => {
  const disk = await statfs(dirname(file));
  return disk.bavail * disk.bsize;
};

const PRINTER_TROUBLE = new Set(['offline', 'paperOut', 'error']);

/** What the server already knows: printers' last states, payments no order names, the sync state, the disk. */
export async function observeKnown(sources: ConditionSources, orgId: string): Promise<Observation[]> {
  const seen: Observation[] = [];
  for (const printer of sources.printers.list(orgId)) {
    const reach = sources.printerStates.of(printer.id);
    if (PRINTER_TROUBLE.has(reach.state)) seen.push({ kind: 'printer-error', store: printer.store, detail: `${printer.name}: ${reach.state}${reach.message ? ` (${reach.message})` : ''}` });
  }
  const unrecorded = new Map<string, { since: string; count: number; amount: number }>();
  for (const payment of sources.payments.unrecorded(orgId)) {
    const entry = unrecorded.get(payment.store) ?? { since: payment.createdAt, count: 0, amount: 0 };
    entry.count += 1;
    entry.amount += payment.amount;
    if (payment.createdAt < entry.since) entry.since = payment.createdAt;
    unrecorded.set(payment.store, entry);
  }
  for (const [store, entry] of unrecorded) {
    seen.push({ kind: 'payment-without-order', store, since: entry.since, detail: `${entry.count} × CHF ${(entry.amount / 100).toFixed(2)}` });
  }
  const sync = sources.syncConfigs.get(orgId);
  if (sync?.state === 'offline') seen.push({ kind: 'upstream-unreachable', detail: sync.lastError ?? sync.upstreamUrl });
  const free = await sources.diskFree();
  if (free < DISK_LOW_BYTES) seen.push({ kind: 'disk-low', detail: `${(free / 1024 ** 2).toFixed(0)} MiB free` });
  return seen;
}

/** Asks each registered terminal for its status: the project keeps no state of them between payments. */
export async function observeTerminals(sources: ConditionSources, orgId: string): Promise<Observation[]> {
  const caller: Caller = { orgId, keyKind: 'write', features: [] };
  const seen: Observation[] = [];
  for (const terminal of sources.cardPayments.terminals.list(caller)) {
    const check = await sources.cardPayments.service.checkTerminal(caller, terminal.id);
    if (!check.reachable) seen.push({ kind: 'terminal-unreachable', store: terminal.store, detail: `${terminal.name}: ${check.message ?? 'no answer'}` });
  }
  return seen;
}
