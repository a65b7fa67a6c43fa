import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KIOSK_CONFIG_CHANNEL, KIOSK_JOURNAL_CHANNELS } from '../main/electron/kiosk-bridge.js';
import { SALES_JOURNAL_DIR } from '../main/electron/sales-journal.js';
import { TEMP_SUFFIX } from '../main/storage/durable-file.js';
import { PROJECT_ROOT } from '../main/version.js';
import type { SaleJournalEntry } from '../shared/sales-journal.js';
import { api } from './support/api.js';
import { standInApps } from './support/electron-stand-in.js';
import { launchChromium, ordersSince, scan } from './support/kiosk.js';

// The desktop app keeps the page's journal of paid sales in its main process:
// a file per sale in the data folder, which a reload or crash of the page and
// a restart of the app leave in place.

const { start: startApp, tempDir, forget } = standInApps();
type App = Awaited<ReturnType<typeof startApp>>;

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser?.close();
});

/** The entries the journal holds: its files without a write still under way (a temporary file, renamed once whole). */
const journalFiles = (dataDir: string) => readdirSync(join(dataDir, SALES_JOURNAL_DIR)).filter((name) => !name.endsWith(TEMP_SUFFIX));

function paidSale(orderId: string, store = 'store-1'): SaleJournalEntry {
  const paidAt = new Date().toISOString();
  return {
    orderId,
    paidAt,
    sale: { orderId, store, orderDate: paidAt, paymentMethod: 'cash', products: [{ productId: 'milk', quantity: 2, title: 'Bio Vollmilch 1l', price: 390, taxRate: 0.026, deposit: 0 }] },
  };
}

/** Quits the app as a restart would: the server closes, the data folder stays. */
async function quit(app: App): Promise<void> {
  await app.main.server.close();
  forget(app.main);
}

describe('the sales journal of the main process (through the preload\'s IPC)', () => {
  it('keeps a paid sale as a file in the data folder that survives a restart of the app, until the page drops it', async () => {
    const dataDir = tempDir();
    const first = await startApp({ DATA_DIR: dataDir });
    const page = { url: `${first.origin}/` };
    const entry = paidSale('0f6c2a52-6b1e-4c55-9d0e-2a8d4f1b7c11');
    await first.ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.put, page, entry);
    expect(journalFiles(dataDir)).toEqual([`${entry.orderId}.json`]);
    expect(JSON.parse(readFileSync(join(dataDir, SALES_JOURNAL_DIR, `${entry.orderId}.json`), 'utf8'))).toEqual(entry);
    // Readable by the app's account only: a paid sale is the shop's business, not another user's of the PC.
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect({ folder: mode(join(dataDir, SALES_JOURNAL_DIR)), entry: mode(join(dataDir, SALES_JOURNAL_DIR, `${entry.orderId}.json`)) }).toEqual({ folder: 0o700, entry: 0o600 });
    await quit(first);

    const second = await startApp({ DATA_DIR: dataDir });
    const again = { url: `${second.origin}/` };
    expect(await second.ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.list, again)).toEqual([entry]);
    const stored = { ...entry, storedId: 'order-stored-1' };
    await second.ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.put, again, stored);
    expect(await second.ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.list, again)).toEqual([stored]);
    await second.ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.remove, again, entry.orderId);
    expect(journalFiles(dataDir)).toEqual([]);
  });

  it('answers only the top frame of the local server, and takes nothing but a sale', async () => {
    const dataDir = tempDir();
    const { ipcMain, origin } = await startApp({ DATA_DIR: dataDir });
    const entry = paidSale('a1b2c3');
    const top = { url: `${origin}/` };
    await expect(ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.put, { url: 'https://elsewhere.example/' }, entry)).rejects.toThrow('only the kiosk page');
    await expect(ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.list, { url: `${origin}/`, parent: {} })).rejects.toThrow('only the kiosk page');
    await expect(ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.put, top, { ...paidSale('../../kiosk'), orderId: '../../kiosk' })).rejects.toThrow('orderId');
    await expect(ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.put, top, { ...entry, sale: { ...entry.sale, orderId: 'other' } })).rejects.toThrow('sale.orderId must equal orderId');
    await expect(ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.put, top, { ...entry, sale: { ...entry.sale, products: [] } })).rejects.toThrow('sale.products');
    await expect(ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.remove, top, '../credentials')).rejects.toThrow('not an order number');
    expect(journalFiles(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'credentials.json'))).toBe(true);
  });
});

/**
 * Opens the kiosk page of a stand-in app in Chromium with the real preload:
 * preload.cts runs in the page as Electron runs it, its IPC goes to the
 * stand-in's ipcMain as the top frame of the page (or a sub-frame) sends it.
 */
async function openDesktopKiosk(app: App): Promise<Page> {
  const askConfig = { senderFrame: { url: `${app.origin}/`, parent: null }, returnValue: undefined as unknown };
  app.ipcMain.emit(KIOSK_CONFIG_CHANNEL, askConfig);
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  context.setDefaultTimeout(5000);
  contexts.push(context);
  const frameOf = (frame: { url(): string; parentFrame(): unknown }) => ({ url: frame.url(), parent: frame.parentFrame() === null ? null : {} });
  await context.exposeBinding('__ipcInvoke', ({ frame }, channel: string, args: unknown[]) => app.ipcMain.invoke(channel, frameOf(frame), ...args));
  await context.exposeBinding('__ipcSend', ({ frame }, channel: string, message: unknown) => {
    app.ipcMain.emit(channel, { senderFrame: frameOf(frame) }, message);
  });
  const preload = ts.transpileModule(readFileSync(join(PROJECT_ROOT, 'main/electron/preload.cts'), 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const electron = `{
    contextBridge: { exposeInMainWorld: (name, value) => { globalThis[name] = value; } },
    ipcRenderer: {
      sendSync: () => (${JSON.stringify(askConfig.returnValue)}),
      send: (channel, message) => void globalThis.__ipcSend(channel, message),
      invoke: (channel, ...args) => globalThis.__ipcInvoke(channel, args),
    },
  }`;
  await context.addInitScript({ content: `(function (require, exports, module) {${preload}\n})(() => (${electron}), {}, { exports: {} });` });
  // The key never reaches the page: as Electron does, the app's main process adds it to each request for its server.
  await context.route(`${app.origin}/**`, async (route) => {
    const listener = app.window.session.requestListener;
    if (!listener) return route.continue();
    let headers = route.request().headers();
    listener({ url: route.request().url(), requestHeaders: headers }, (answer: { requestHeaders: Record<string, string> }) => (headers = answer.requestHeaders));
    await route.continue({ headers });
  });
  const page = await context.newPage();
  await page.goto(`${app.origin}/`);
  return page;
}

describe('a paid sale across a restart of the desktop app', () => {
  it('is kept in the data folder while the server cannot be reached, and recorded by the page when the app starts again', async () => {
    const dataDir = tempDir();
    const setup = await startApp({ DATA_DIR: dataDir });
    const { writeKey } = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as { writeKey: string };
    const client = api(setup.main.server.url, writeKey);
    const store = (await client.post('/stores', { name: 'Hofladen', paymentCash: true, languageMain: 'de' })).body.id as string;
    await client.post('/products', { name: 'Bio Vollmilch 1l', price: 195, taxCategory: '2.6', barcode: '7610000000017' });
    writeFileSync(join(dataDir, 'kiosk.json'), JSON.stringify({ key: writeKey, storeId: store }));
    await quit(setup);

    const since = new Date();
    const first = await startApp({ DATA_DIR: dataDir });
    const page = await openDesktopKiosk(first);
    await page.locator('[data-screen="shop"]').waitFor();
    // The server never sees the sale: its order post gets no answer before the app is gone.
    await page.route('**/api/v1/orders', () => {});
    await scan(page, '7610000000017');
    await expect.poll(() => page.locator('.cart li.line').count(), { timeout: 5000 }).toBe(1);
    await page.getByRole('button', { name: 'Bezahlen' }).click();
    await page.getByRole('button', { name: 'Bar' }).click();
    await page.getByRole('button', { name: 'Bezahlt' }).click();
    await page.locator('[data-screen="recording"]').waitFor();
    await expect.poll(() => journalFiles(dataDir), { timeout: 15_000 }).toHaveLength(1);
    const kept = JSON.parse(readFileSync(join(dataDir, SALES_JOURNAL_DIR, journalFiles(dataDir)[0]!), 'utf8')) as SaleJournalEntry;
    expect(kept).toMatchObject({ sale: { store, paymentMethod: 'cash', products: [{ title: 'Bio Vollmilch 1l', quantity: 1, price: 195, taxRate: 0.026, deposit: 0 }] } });
    expect(kept.storedId).toBeUndefined();
    await page.context().close();
    await quit(first);

    const second = await startApp({ DATA_DIR: dataDir });
    const after = await openDesktopKiosk(second);
    const receipt = after.locator('[data-screen="receipt"]');
    await receipt.waitFor({ timeout: 10_000 });
    const orders = await ordersSince(api(second.main.server.url, writeKey), since);
    expect(orders.map((o) => o.orderId)).toEqual([kept.orderId]);
    expect(await receipt.getAttribute('data-order')).toBe(orders[0]!.id);
    await after.getByRole('button', { name: 'Fertig' }).click();
    await after.locator('[data-screen="shop"]').waitFor();
    await expect.poll(() => journalFiles(dataDir), { timeout: 5000 }).toEqual([]);
  });
});
