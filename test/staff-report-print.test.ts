import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import type { Api } from './support/api.js';
import { startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { screenshot } from './support/kiosk.js';

const h = useBrowserHarness({ catalog: false });
let write: Api;
let printer: FakePrinter;
let orderId: string;

beforeAll(async () => {
  printer = await startFakePrinter();
  write = h.client;
  const store = (await write.post('/stores', { name: 'Hofladen Sonnenberg' })).body.id;
  const milk = (await write.post('/products', { name: 'Vollmilch 1l', price: 195, taxCategory: '2.6', depositProduct: 30 })).body.id;
  const now = new Date().toISOString();
  orderId = (await write.post('/orders', { store, orderDate: now, paymentMethod: 'card', paymentBrand: 'TWINT', products: [{ productId: milk, quantity: 3 }] })).body.id;
  await write.post('/orders', { store, orderDate: now, paymentMethod: 'cash', products: [{ productId: 'wine', quantity: 1, title: 'Merlot', price: 1890, taxRate: 0.081 }] });
});
afterAll(async () => {
  await printer?.close();
});

async function openSignedIn(locale: string): Promise<Page> {
  const page = await h.open('/status', { locale, timeout: 10_000 });
  await page.locator('#staff-key').fill(h.org.writeKey);
  await page.locator('#sign-in button[type="submit"]').click();
  await page.locator('[data-figure="total"]').waitFor();
  return page;
}

describe("the staff page's report on the receipt printer", () => {
  it('offers only the browser print while the server knows no receipt printer', async () => {
    const page = await openSignedIn('en-US');
    await page.locator('#printers [data-printers="none"]').waitFor();
    expect(await page.locator('[data-action="print"]').isVisible()).toBe(true);
    expect(await page.locator('[data-action="print-receipt-printer"]').count()).toBe(0);
  });

  it('prints the report on the printer the kiosk printed its receipts on, and says so', async () => {
    // The kiosk printed a receipt: from then on GET /printers lists its printer.
    expect((await write.post(`/receipts/${orderId}/print`, { printer: { host: printer.host, port: printer.port } })).body.data.printed).toBe(true);
    const page = await openSignedIn('en-US');
    const button = page.locator('[data-action="print-receipt-printer"]');
    await expect.poll(() => button.textContent()).toBe('Print on the receipt printer (127.0.0.1)');
    expect(await page.locator('[data-action="print"]').isVisible()).toBe(true);
    const job = printer.nextJob();
    await button.click();
    const lines = (await job).lines;
    expect(lines).toContain("Day's closing");
    expect(lines).toContain('Hofladen Sonnenberg');
    expect(lines).toContain('Sales 2');
    // 3 × (1.95 + 0.30 deposit) + 18.90.
    expect(lines).toContain('Total CHF 25.65');
    expect(lines).toContain('Card (TWINT) 1 6.75');
    expect(lines).toContain('Cash 1 18.90');
    await expect.poll(() => page.locator('.print-status').textContent()).toBe(`The report went to the receipt printer 127.0.0.1:${printer.port}.`);
    await screenshot(page, '26-staff-report-receipt-printer');
  });

  it('tells staff in their language that the printer is out of paper, and prints nothing', async () => {
    const before = printer.jobs.length;
    printer.setPaperOut(true);
    try {
      const page = await openSignedIn('de-CH');
      const button = page.locator('[data-action="print-receipt-printer"]');
      await expect.poll(() => button.textContent()).toBe('Auf dem Quittungsdrucker drucken (127.0.0.1)');
      await button.click();
      await expect
        .poll(() => page.locator('.print-status').textContent())
        .toBe(`Der Quittungsdrucker 127.0.0.1:${printer.port} hat kein Papier mehr: Neue Rolle einlegen und nochmals drucken.`);
      expect(await page.locator('.print-status').getAttribute('data-printed')).toBe('false');
    } finally {
      printer.setPaperOut(false);
    }
    expect(printer.jobs.length).toBe(before);
  });
});
