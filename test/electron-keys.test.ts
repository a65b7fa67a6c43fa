import Database from 'better-sqlite3';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIOSK_CONFIG_CHANNEL } from '../main/electron/kiosk-bridge.js';
import { setupApp } from '../main/electron/main-process.js';
import { runCli } from './support/cli.js';
import { standInApps, standInContext, standInElectron, type StandInKeyStore } from './support/electron-stand-in.js';

/**
 * The kiosk's key on the store PC: encrypted with the system's key store
 * where there is one, and a write key exchanged for a kiosk key of its store,
 * all at the app's start, against a real data folder.
 */

const { start: startApp, tempDir, forget } = standInApps();

type KeyList = { data: { kind: string; store: string | null; name: string | null }[] };

const kioskFile = (dataDir: string) => join(dataDir, 'kiosk.json');
const readKiosk = (dataDir: string) => JSON.parse(readFileSync(kioskFile(dataDir), 'utf8'));

/** A data folder as a first release left it: the organization, its write key in credentials.json, one store. */
async function installedDataFolder() {
  const dataDir = tempDir();
  const first = await startApp({ DATA_DIR: dataDir });
  const { writeKey, organizationId } = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
  const created = await fetch(`${first.main.server.url}/stores`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${writeKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Hofladen Sonnenberg' }),
  });
  expect(created.status).toBe(200);
  const storeId = ((await created.json()) as { id: string }).id;
  await first.main.server.close();
  forget(first.main);
  return { dataDir, writeKey: writeKey as string, organizationId: organizationId as string, storeId };
}

async function startKiosk(dataDir: string, keyStore: Partial<StandInKeyStore> = {}) {
  const app = await startApp({ DATA_DIR: dataDir }, { argv: ['store-server', '--kiosk'], keyStore });
  /** The Authorization header the main process adds to a request of the page to the local server, if any. */
  const sentKey = (): string | undefined => {
    const listener = app.window.session.requestListener;
    if (!listener) return undefined;
    let headers: Record<string, string> = {};
    listener({ url: `${app.origin}/api/v1/products`, requestHeaders: {} }, (answer: { requestHeaders: Record<string, string> }) => (headers = answer.requestHeaders));
    return headers.Authorization?.replace(/^Bearer /, '');
  };
  const pageConfig = () => {
    const event = { senderFrame: { url: `${app.origin}/`, parent: null }, returnValue: undefined as unknown };
    app.ipcMain.emit(KIOSK_CONFIG_CHANNEL, event);
    return event.returnValue;
  };
  const stop = async () => {
    await app.main.server.close();
    forget(app.main);
  };
  return { ...app, sentKey, pageConfig, stop };
}

describe('an update reaching a kiosk whose kiosk.json holds a write key', () => {
  it('makes a kiosk key for its store, keeps it encrypted instead of the write key, and the kiosk goes on selling', async () => {
    const { dataDir, writeKey, storeId } = await installedDataFolder();
    writeFileSync(kioskFile(dataDir), JSON.stringify({ key: writeKey, storeId }, null, 2));

    const kiosk = await startKiosk(dataDir);
    const text = readFileSync(kioskFile(dataDir), 'utf8');
    expect(text).not.toContain(writeKey);
    const stored = JSON.parse(text);
    expect(stored).toEqual({ storeId, kiosk: true, keyEncrypted: expect.any(String) });
    const kioskKey = kiosk.safeStorage.decryptString(Buffer.from(stored.keyEncrypted, 'base64'));
    expect(kioskKey).toMatch(/^kk_/);
    expect(kiosk.sentKey()).toBe(kioskKey);
    expect(kiosk.pageConfig()).toEqual({ storeId, apiBaseUrl: `${kiosk.origin}/api/v1` });
    expect(kiosk.logLines).toContainEqual(expect.objectContaining({ level: 30, store: storeId, msg: expect.stringContaining('kiosk.json held a write key') }));
    expect(JSON.stringify(kiosk.logLines)).not.toContain(kioskKey);

    // What the page's requests then get: its store, and no change to the catalog.
    const auth = { Authorization: `Bearer ${kiosk.sentKey()}` };
    expect((await fetch(`${kiosk.main.server.url}/stores/${storeId}`, { headers: auth })).status).toBe(200);
    const write = await fetch(`${kiosk.main.server.url}/products`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Brot', price: 350, taxCategory: '2.6' }) });
    expect(write.status).toBe(403);
    // The write key still works where it belongs (the back office).
    expect((await fetch(`${kiosk.main.server.url}/stores/${storeId}`, { headers: { Authorization: `Bearer ${writeKey}` } })).status).toBe(200);
    const keys: KeyList = await (await fetch(`${kiosk.main.server.url}/keys`, { headers: { Authorization: `Bearer ${writeKey}` } })).json() as KeyList;
    expect(keys.data.filter((k) => k.kind === 'kiosk')).toEqual([expect.objectContaining({ store: storeId, name: expect.stringMatching(/^Desktop kiosk on /) })]);
    await kiosk.stop();

    // The next start (the next update) keeps the same kiosk key and makes no other.
    const again = await startKiosk(dataDir);
    expect(again.sentKey()).toBe(kioskKey);
    expect(readKiosk(dataDir).keyEncrypted).toBe(stored.keyEncrypted);
    const after: KeyList = await (await fetch(`${again.main.server.url}/keys`, { headers: { Authorization: `Bearer ${writeKey}` } })).json() as KeyList;
    expect(after.data.filter((k) => k.kind === 'kiosk')).toHaveLength(1);
  });

  it('treats a write key an operator writes into kiosk.json later the same way', async () => {
    const { dataDir, writeKey, storeId } = await installedDataFolder();
    const before = await startKiosk(dataDir);
    expect(before.sentKey()).toBeUndefined();
    await before.stop();
    writeFileSync(kioskFile(dataDir), JSON.stringify({ ...readKiosk(dataDir), key: writeKey, storeId }));
    const kiosk = await startKiosk(dataDir);
    expect(kiosk.sentKey()).toMatch(/^kk_/);
    expect(readFileSync(kioskFile(dataDir), 'utf8')).not.toContain(writeKey);
  });

  it('keeps a write key whose store is not one of its organization, so the kiosk still sells, and says so', async () => {
    const { dataDir, writeKey } = await installedDataFolder();
    writeFileSync(kioskFile(dataDir), JSON.stringify({ key: writeKey, storeId: 'no-such-store' }));
    const kiosk = await startKiosk(dataDir);
    expect(kiosk.sentKey()).toBe(writeKey);
    expect(kiosk.logLines).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('could not be exchanged for a kiosk key') }));
    expect(kiosk.safeStorage.decryptString(Buffer.from(readKiosk(dataDir).keyEncrypted, 'base64'))).toBe(writeKey);
  });
});

describe('the key in kiosk.json', () => {
  it('stays in plain text, readable by its owner only, with a warning, on a Linux desktop without a keyring (basic_text)', async () => {
    const { dataDir, storeId } = await installedDataFolder();
    writeFileSync(kioskFile(dataDir), JSON.stringify({ key: 'kk_operator', storeId }), { mode: 0o644 });
    const kiosk = await startKiosk(dataDir, { backend: 'basic_text' });
    expect(readKiosk(dataDir)).toEqual({ key: 'kk_operator', storeId, kiosk: true });
    if (process.platform !== 'win32') expect(statSync(kioskFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(kiosk.sentKey()).toBe('kk_operator');
    expect(kiosk.logLines).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('backend "basic_text"') }));
  });

  it('stays in plain text where the system offers no encryption at all', async () => {
    const { dataDir, storeId } = await installedDataFolder();
    writeFileSync(kioskFile(dataDir), JSON.stringify({ key: 'kk_operator', storeId }));
    const kiosk = await startKiosk(dataDir, { available: false });
    expect(readKiosk(dataDir).key).toBe('kk_operator');
    expect(kiosk.logLines).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('the system offers no encryption') }));
  });

  it('copied to another user or PC cannot be decrypted: the page gets its set-up screen, the log says what to do', async () => {
    const { dataDir, storeId } = await installedDataFolder();
    writeFileSync(kioskFile(dataDir), JSON.stringify({ key: 'kk_operator', storeId }));
    await (await startKiosk(dataDir)).stop();
    const elsewhere = await startKiosk(dataDir, { secret: 'other-user@other-pc' });
    expect(elsewhere.sentKey()).toBeUndefined();
    expect(elsewhere.pageConfig()).toBeNull();
    expect(elsewhere.logLines).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('keyEncrypted cannot be decrypted') }));
    expect(elsewhere.window.options).toMatchObject({ kiosk: true });
  });
});

describe('the upstream key in the desktop app', () => {
  /** The administration CLI as the installed app runs it (`store-server --cli …`), with the system's key store of `keyStore`. */
  async function appCli(dataDir: string, args: string[], keyStore: Partial<StandInKeyStore> = {}) {
    const electron = standInElectron(tempDir(), keyStore);
    const run = standInContext({ DATA_DIR: dataDir }, ['store-server', '--cli', ...args]);
    await setupApp(electron.module, run.context);
    return { code: electron.app.exitCodes, stdout: run.stdout(), stderr: run.stderr() };
  }

  it('is sealed with a key the system key store protects, which a plain file copy cannot open', async () => {
    const { dataDir, organizationId } = await installedDataFolder();
    const upstreamKey = 'wk_head-office-write-key-0123456789abcdef';
    const configured = await appCli(dataDir, ['sync', 'configure', organizationId, '--url', 'https://hq.example/api/v1', '--key', upstreamKey, '--json']);
    expect(configured.code).toEqual([0]);
    const keyFile = JSON.parse(readFileSync(join(dataDir, 'secret.key'), 'utf8'));
    const db = new Database(join(dataDir, 'retail.sqlite'), { readonly: true });
    const stored = (db.prepare('SELECT upstream_key FROM sync_config').get() as { upstream_key: string }).upstream_key;
    db.close();
    expect({ protection: keyFile.protection, mode: statSync(join(dataDir, 'secret.key')).mode & 0o777, sealed: stored.startsWith('sealed:v1:'), clear: stored.includes(upstreamKey) }).toEqual({
      protection: 'system',
      mode: 0o600,
      sealed: true,
      clear: false,
    });
    // Headless, without the app's key store, the stored key cannot be opened: the round says why.
    const headless = await runCli(dataDir, ['sync', 'run', organizationId, '--json']);
    expect(headless.status).toBe(1);
    const status = await runCli(dataDir, ['sync', 'status', organizationId, '--json']);
    expect(status.json.lastError).toContain("is protected by the desktop app's system key store");
  });
});
