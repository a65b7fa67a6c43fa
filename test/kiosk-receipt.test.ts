import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { seriousViolations } from './support/axe.js';
import { closedPort, startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { CODES } from './support/kiosk-catalog.js';
import { ordersSince, scan, screenshot, type KioskSetup } from './support/kiosk.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';

const h = useBrowserHarness({ server: { printerNetwork: TEST_PRINTER_NETWORK } });
let printer: FakePrinter;
let store: string;
/** The same store, but an unfinished purchase is cancelled after 15 seconds without a touch. */
let idleStore: string;
/** The fake printer, registered for both stores. */
let printerId: string;
let idlePrinterId: string;

beforeAll(async () => {
  printer = await startFakePrinter();
  const storeBody = {
    name: 'Hofladen Sonnenberg',
    address: 'Sonnenbergstrasse 12',
    zipCode: '3013',
    city: 'Bern',
    vatNumber: 'CHE-109.322.551 MWST',
    paymentCash: true,
    languageMain: 'de',
    languageMulti: true,
    languageSelector: ['de', 'fr'],
    deleteCountdown: 0,
  };
  store = (await h.client.post('/stores', { ...storeBody, receiptUrl: 'https://shop.example/r/{orderId}' })).body.id;
  idleStore = (await h.client.post('/stores', { ...storeBody, deleteCountdown: 15 })).body.id;
  printerId = await registered(store, printer.port);
  idlePrinterId = await registered(idleStore, printer.port);
});

/** Registers a printer on loopback for a store, as staff do on the status page; its id. */
const registered = async (storeId: string, port: number): Promise<string> =>
  (await h.client.post('/printers', { store: storeId, name: `Drucker ${port}`, host: '127.0.0.1', port })).body.id;

afterAll(async () => {
  await printer?.close();
});

const kiosk = (setup: Omit<KioskSetup, 'key' | 'storeId'> & { storeId?: string }, beforeLoad?: (page: Page) => Promise<void>) =>
  h.kiosk({ ...setup, storeId: setup.storeId ?? store, ...(beforeLoad ? { beforeLoad } : {}) });

/** Two milks, water with its deposit and chocolate on sale, paid in cash. */
async function buyAndPay(page: Page, pay = 'Bar', paid = 'Bezahlt', checkout = 'Bezahlen'): Promise<void> {
  for (const code of [CODES.milk, CODES.milk, CODES.water, CODES.chocolate]) await scan(page, code);
  await expect.poll(() => page.locator('.cart li.line').count()).toBe(3);
  await page.getByRole('button', { name: checkout }).click();
  await page.getByRole('button', { name: pay }).click();
  await page.getByRole('button', { name: paid }).click();
  await page.locator('[data-screen="receipt"]').waitFor();
}

describe('set-up in a plain browser', () => {
  it('keeps the network printer and the e-receipt address with the key and the store, and the receipt prints there', async () => {
    const context = await h.browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'de-CH' });
    h.track(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => h.pageErrors.push(err));
    await page.goto(new URL('/', h.server.url).href);
    await page.locator('[data-screen="setup"]').waitFor();
    await page.getByLabel('Kiosk-Schlüssel').fill(await h.kioskKey(store));
    await page.getByLabel('Quittungsdrucker (freiwillig)').fill(idlePrinterId);
    await page.getByRole('button', { name: 'Kiosk starten' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Für diesen Laden ist kein Drucker mit dieser Nummer erfasst/);
    await page.getByLabel('Quittungsdrucker (freiwillig)').fill(printerId);
    await page.getByLabel('Adresse der Online-Quittung (freiwillig)').fill('https://shop.example/r/{orderId}');
    await page.getByRole('button', { name: 'Kiosk starten' }).click();
    await page.locator('[data-screen="shop"]').waitFor();
    const jobs = printer.jobs.length;
    await buyAndPay(page);
    await page.locator('[data-print="printed"]').waitFor();
    expect(printer.jobs.length).toBe(jobs + 1);
    expect(printer.jobs.at(-1)!.lines).toContain('Quittung online');
  });
});

describe('the receipt', () => {
  it('shows the legal receipt with its e-receipt QR code and prints the same on the network printer', async () => {
    const since = new Date();
    const page = await kiosk({ printer: { type: 'network', id: printerId }, receiptUrl: 'https://shop.example/r/{orderId}' });
    const jobs = printer.jobs.length;
    await buyAndPay(page);
    await page.locator('[data-print="printed"]').waitFor();
    const [order] = await ordersSince(h.client, since);
    const paper = page.locator('.receipt-paper');

    expect(await page.getByRole('status').textContent()).toBe('Bitte nehmen Sie Ihre Quittung mit.');
    expect((await paper.locator('header').innerText()).replace(/\n+/g, '\n')).toMatch(
      /^Hofladen Sonnenberg\nSonnenbergstrasse 12\n3013 Bern\nMWST-Nr\. CHE-109\.322\.551 MWST\nQuittung Nr\. \d{3} \d{3}\n\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/,
    );
    expect(await paper.locator('time').getAttribute('datetime')).toBe((order as { orderDate?: string }).orderDate);
    expect(await paper.locator('tbody tr.line').evaluateAll((rows) => rows.map((r) => (r as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ').trim()))).toEqual([
      'Bio Vollmilch 1l 2 × 1.95 3.90',
      'Mineralwasser 1.5l 1 × 1.20 Pfand 0.50 1.20',
      'Milchschokolade 100g 1 × 2.50 Aktion, statt 3.00 2.50',
    ]);
    expect(await paper.locator('[data-total]').textContent()).toBe('CHF\u00a08.10');
    expect(await paper.locator('.receipt-vat tbody tr').allTextContents()).toEqual(['2.6%7.410.197.60']);
    expect(await paper.locator('[data-payment]').textContent()).toBe('Bezahlt mit Bar');
    const url = `https://shop.example/r/${order!.orderId}`;
    expect(await paper.locator('[data-e-receipt]').getAttribute('data-e-receipt')).toBe(url);
    expect(await paper.getByRole('img', { name: 'Quittung online' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '21-e-receipt-qr');

    expect(printer.jobs.length).toBe(jobs + 1);
    const printed = printer.jobs.at(-1)!.lines;
    const number = (await paper.locator('[data-number]').textContent())!;
    expect(printed).toEqual(expect.arrayContaining(['Hofladen Sonnenberg', 'Sonnenbergstrasse 12', '3013 Bern', 'MWST-Nr. CHE-109.322.551 MWST']));
    expect(printed.join('\n')).toContain(`${number} ${await paper.locator('time').textContent()}`);
    expect(printed).toEqual(
      expect.arrayContaining(['Bio Vollmilch 1l 3.90', '2 × 1.95', 'Mineralwasser 1.5l 1.20', 'Pfand 0.50', 'Milchschokolade 100g 2.50', '1 × 2.50 Aktion, statt 3.00']),
    );
    expect(printed).toEqual(expect.arrayContaining(['2.6% 7.41 0.19 7.60', 'Total CHF 8.10', 'Bezahlt mit Bar', 'Quittung online']));
  });

  it('speaks the customer\'s language on screen and on paper', async () => {
    const page = await kiosk({ printer: { type: 'network', id: printerId } });
    await page.getByRole('button', { name: 'Français' }).click();
    await buyAndPay(page, 'Espèces', 'Paiement effectué', 'Payer');
    await page.locator('[data-print="printed"]').waitFor();
    expect(await page.locator('[data-vat-number]').textContent()).toBe('No TVA CHE-109.322.551 MWST');
    expect(await page.locator('[data-payment]').textContent()).toBe('Payé par Espèces');
    expect(printer.jobs.at(-1)!.lines).toEqual(expect.arrayContaining(['No TVA CHE-109.322.551 MWST', 'Total CHF 8,10', '2,6% 7,41 0,19 7,60', 'Payé par Espèces']));
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('prints on the PC\'s printer through the desktop app: one page as long as the receipt, and says whether it printed', async () => {
    for (const printed of [true, false]) {
      const page = await kiosk({ printer: { type: 'system' } }, async (p) => {
        await p.addInitScript((answer) => {
          const bridge = (globalThis as unknown as { kioskBridge: Record<string, unknown> }).kioskBridge;
          (globalThis as unknown as { kioskBridge: unknown }).kioskBridge = {
            ...bridge,
            printReceipt: (heightMm: number) => {
              (globalThis as unknown as { asked: number[] }).asked = [...((globalThis as unknown as { asked?: number[] }).asked ?? []), heightMm];
              return Promise.resolve({ printed: answer, message: answer ? null : 'out of paper' });
            },
          };
        }, printed);
      });
      await buyAndPay(page);
      await page.locator(`[data-print="${printed ? 'printed' : 'failed'}"]`).waitFor();
      const asked = (await page.evaluate(() => (globalThis as unknown as { asked: number[] }).asked)) as number[];
      // Three lines, VAT and payment on 72 mm: about 15 cm of paper, far from a screen's length.
      expect(asked).toHaveLength(1);
      expect(asked[0]).toBeGreaterThan(100);
      expect(asked[0]).toBeLessThan(300);
      expect(await page.locator('.paper-print').count()).toBe(0);
    }
  });

  it('shows a printed receipt again after a reload, without printing it a second time', async () => {
    const since = new Date();
    const page = await kiosk({ printer: { type: 'network', id: printerId } });
    const jobs = printer.jobs.length;
    await buyAndPay(page);
    await page.locator('[data-print="printed"]').waitFor();
    const shown = await page.locator('[data-screen="receipt"]').getAttribute('data-order');
    const number = await page.locator('[data-number]').textContent();
    await page.reload();
    await page.locator(`[data-screen="receipt"][data-order="${shown}"] [data-print="printed"]`).waitFor();
    expect(await page.locator('[data-number]').textContent()).toBe(number);
    expect(await page.locator('[data-total]').textContent()).toBe('CHF\u00a08.10');
    expect(printer.jobs.length).toBe(jobs + 1);
    expect(await ordersSince(h.client, since)).toHaveLength(1);
  });

  it('completes the sale with the printer switched off: the receipt stays and says so, and the status page shows the fault', async () => {
    const since = new Date();
    const port = await closedPort();
    const off = await registered(store, port);
    const page = await kiosk({ printer: { type: 'network', id: off } });
    await buyAndPay(page);
    await page.locator('[data-print="failed"]').waitFor();
    expect(await page.getByRole('status').textContent()).toBe(
      'Die Quittung konnte nicht gedruckt werden. Sie bleibt noch eine Weile hier stehen: fotografieren Sie sie, wenn Sie sie brauchen.',
    );
    const orders = await ordersSince(h.client, since);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.price).toBe(810);

    // The staff page shows it to staff signed in, in the language staff pick.
    const status = await page.context().newPage();
    await status.goto(new URL('/status', h.server.url).href);
    await status.locator('#staff-key').fill(h.org.writeKey);
    await status.locator('#sign-in button[type="submit"]').click();
    await status.getByRole('button', { name: 'Deutsch' }).click();
    const printers = status.getByRole('region', { name: 'Quittungsdrucker' });
    const fault = printers.locator(`[data-printer="${off}"]`);
    await fault.waitFor();
    expect(await fault.getAttribute('data-state')).toBe('offline');
    expect(await fault.textContent()).toMatch(new RegExp(`^Drucker ${port} \\(Hofladen Sonnenberg, 127\\.0\\.0\\.1:${port}\\): nicht erreichbar – .*refused the connection.*\\(noch keine Quittung gedruckt\\) ${off}Entfernen$`));
    expect(await seriousViolations(status)).toEqual([]);
  });

  it('names its printer to the server at start, so the staff page shows a printer that is off before the first sale', async () => {
    const off = await registered(store, await closedPort());
    await kiosk({ printer: { type: 'network', id: off } });
    const listed = async () => ((await h.client.get('/printers')).body.data as { id: string; state: string }[]).find((p) => p.id === off && p.state !== 'unknown');
    const ends = Date.now() + 10_000;
    while (!(await listed()) && Date.now() < ends) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await listed()).toMatchObject({ state: 'offline', lastPrintedAt: null, orderId: null });
  });

  it('stays on screen two minutes longer when it did not print; a printed one goes with the idle timer', async () => {
    const shop = (page: Page) => page.locator('[data-screen="shop"][data-cart="empty"]');
    const printing = await kiosk({ storeId: idleStore, printer: { type: 'network', id: idlePrinterId } }, (p) => p.clock.install());
    await buyAndPay(printing);
    await printing.locator('[data-print="printed"]').waitFor();
    await printing.clock.fastForward(20_000);
    await shop(printing).waitFor();

    const failing = await kiosk({ storeId: idleStore, printer: { type: 'network', id: await registered(idleStore, await closedPort()) } }, (p) => p.clock.install());
    await buyAndPay(failing);
    await failing.locator('[data-print="failed"]').waitFor();
    // Past the store's 15 s, well inside the two minutes: the receipt is there, with no countdown.
    await failing.clock.fastForward(100_000);
    expect(await failing.locator('[data-screen="receipt"]').count()).toBe(1);
    expect(await failing.locator('[data-dialog="idle"]').count()).toBe(0);
    // Two minutes and the store's 15 s later it goes.
    await failing.clock.fastForward(40_000);
    await shop(failing).waitFor();
  });
});
