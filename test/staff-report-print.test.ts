import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import type { Api } from './support/api.js';
import { startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { seriousViolations } from './support/axe.js';
import { screenshot } from './support/kiosk.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';

const h = useBrowserHarness({ catalog: false, server: { printerNetwork: TEST_PRINTER_NETWORK } });
let write: Api;
let printer: FakePrinter;

beforeAll(async () => {
  printer = await startFakePrinter();
  write = h.client;
  const store = (await write.post('/stores', { name: 'Hofladen Sonnenberg' })).body.id;
  const milk = (await write.post('/products', { name: 'Vollmilch 1l', price: 195, taxCategory: '2.6', depositProduct: 30 })).body.id;
  const now = new Date().toISOString();
  await write.post('/orders', { store, orderDate: now, paymentMethod: 'card', paymentBrand: 'TWINT', products: [{ productId: milk, quantity: 3 }] });
  await write.post('/orders', { store, orderDate: now, paymentMethod: 'cash', products: [{ productId: 'wine', quantity: 1, title: 'Merlot', price: 1890, taxRate: 0.081 }] });
});
afterAll(async () => {
  await printer?.close();
});

async function openSignedIn(locale: string): Promise<Page> {
  const page = await h.open('/status', { locale });
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

  it('registers the store\'s receipt printer, which the list then shows with its id', async () => {
    const page = await openSignedIn('en-US');
    await page.locator('#printer-store').selectOption({ label: 'Hofladen Sonnenberg' });
    await page.getByLabel('Name, e.g. Till 1').fill('Kasse 1');
    await page.getByLabel('IP address or host name').fill('127.0.0.2');
    await page.getByLabel('Port', { exact: true }).fill('22');
    await page.getByRole('button', { name: 'Register printer' }).click();
    // The server's rules come back in words: port 22 is no printer's.
    await expect.poll(() => page.locator('#printer-register [role="alert"]').textContent()).toContain('Port 22 is not a printer port');
    await page.getByLabel('IP address or host name').fill('127.0.0.1');
    await page.getByLabel('Port', { exact: true }).fill(String(printer.port));
    await page.getByRole('button', { name: 'Register printer' }).click();
    await expect.poll(async () => (await write.get('/printers')).body.data.length).toBe(1);
    const [registered] = (await write.get('/printers')).body.data as { id: string; name: string; host: string; port: number }[];
    expect(registered).toMatchObject({ name: 'Kasse 1', host: '127.0.0.1', port: printer.port });
    const item = page.locator(`#printers [data-printer="${registered!.id}"]`);
    await expect.poll(() => item.textContent()).toBe(`Kasse 1 (Hofladen Sonnenberg, 127.0.0.1:${printer.port}): not tried since the server started (no receipt printed yet) ${registered!.id}Remove`);
    expect(await page.locator('#printer-register [role="alert"]').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '27-staff-printer-registered');
  });

  it('prints the report on the store\'s registered printer, and says so', async () => {
    const page = await openSignedIn('en-US');
    const button = page.locator('[data-action="print-receipt-printer"]');
    await expect.poll(() => button.textContent()).toBe('Print on the receipt printer (Kasse 1)');
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
    await expect.poll(() => page.locator('.print-status').textContent()).toBe('The report went to the receipt printer Kasse 1.');
    await screenshot(page, '26-staff-report-receipt-printer');
  });

  it('tells staff in their language that the printer is out of paper, and prints nothing', async () => {
    const before = printer.jobs.length;
    printer.setPaperOut(true);
    try {
      const page = await openSignedIn('de-CH');
      const button = page.locator('[data-action="print-receipt-printer"]');
      await expect.poll(() => button.textContent()).toBe('Auf dem Quittungsdrucker drucken (Kasse 1)');
      await button.click();
      await expect
        .poll(() => page.locator('.print-status').textContent())
        .toBe('Der Quittungsdrucker Kasse 1 hat kein Papier mehr: Neue Rolle einlegen und nochmals drucken.');
      expect(await page.locator('.print-status').getAttribute('data-printed')).toBe('false');
    } finally {
      printer.setPaperOut(false);
    }
    expect(printer.jobs.length).toBe(before);
  });
});
