import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { seriousViolations } from './support/axe.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { screenshot } from './support/kiosk.js';

const h = useBrowserHarness({ catalog: false });
let store: string;
let lateOrder: string;

beforeAll(async () => {
  store = (await h.client.post('/stores', { name: 'Hofladen Sonnenberg', languageMain: 'de', paymentCash: true })).body.id;
  const milk = (await h.client.post('/products', { name: 'Vollmilch 1l', price: 195, taxCategory: '2.6' })).body.id;
  const till = (await h.client.post('/keys', { kind: 'kiosk', store, name: 'Till' })).body.key;
  // A kiosk recorded the milk at a price of its own: the day's report flags the line.
  const sale = await api(h.server.url, till).post('/orders', {
    store,
    paymentMethod: 'cash',
    products: [{ productId: milk, quantity: 2, title: 'Vollmilch 1l', price: 300, taxRate: 0.026 }],
  });
  expect(sale.status).toBe(200);
  // A sale sent 40 minutes after it was made, of a product the catalog does not know, for nothing.
  const late = await api(h.server.url, till).post('/orders', {
    store,
    paymentMethod: 'cash',
    orderDate: new Date(Date.now() - 40 * 60_000).toISOString(),
    products: [{ productId: 'no-such-product', quantity: 1, title: 'Geschenk', price: 0, taxRate: 0.081 }],
  });
  expect(late.status).toBe(200);
  lateOrder = late.body.id;
});

const signedIn = (locale = 'en-US'): Promise<Page> => h.staff('#keys table[data-table="keys"]', { locale });

const expectAccessible = async (page: Page, screen: string) =>
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });

describe("the staff page's device keys", () => {
  it("makes a kiosk key for a store, shows it once as text and QR code, and the kiosk's set-up takes it by a scan", async () => {
    const page = await signedIn();
    await page.locator('#keys').getByLabel('Kind').selectOption('kiosk');
    await page.locator('#key-store').selectOption(store);
    await page.locator('#keys').getByLabel('Name').fill('Kiosk by the door');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('[data-new-key="kiosk"] [data-secret]').textContent()) ?? '';
    expect(await page.getByRole('img', { name: 'The new key as a QR code' }).isVisible()).toBe(true);
    await screenshot(page, '27-staff-device-key');
    await expectAccessible(page, 'new key');

    const current = await api(h.server.url, secret).get('/keys/current');
    expect(current.body.data).toMatchObject({ kind: 'kiosk', store, name: 'Kiosk by the door' });
    const row = page.locator('#keys tr', { hasText: 'Kiosk by the door' });
    expect(await row.locator('td').allTextContents()).toEqual(['Kiosk', 'Hofladen Sonnenberg', 'Kiosk by the door', 'never', 'Revoke']);

    // Shown once: after a reload the list has the key, the page no longer has its secret.
    await page.reload();
    await page.locator('#keys table[data-table="keys"]').waitFor();
    expect(await page.locator('[data-secret]').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // A keyboard-wedge scanner types the QR code's text into the focused key field and presses Enter.
    const kiosk = await h.open('/', { viewport: { width: 1920, height: 1080 } });
    await kiosk.locator('#setup-key').focus();
    await kiosk.keyboard.type(secret);
    await kiosk.keyboard.press('Enter');
    await kiosk.locator('[data-screen="shop"]').waitFor();
    await page.reload();
    await expect.poll(async () => (await page.locator('#keys tr', { hasText: 'Kiosk by the door' }).locator('td').nth(3).textContent()) !== 'never').toBe(true);
  });

  it('makes a scale key without a store', async () => {
    const page = await signedIn('de-CH');
    await page.locator('#keys').getByLabel('Art').selectOption('scale');
    await page.locator('#keys').getByLabel('Name').fill('Waage Käse');
    await page.getByRole('button', { name: 'Schlüssel erstellen' }).click();
    const secret = (await page.locator('[data-new-key="scale"] [data-secret]').textContent()) ?? '';
    expect((await api(h.server.url, secret).get('/keys/current')).body.data).toMatchObject({ kind: 'scale', name: 'Waage Käse' });
    await page.getByRole('button', { name: 'Fertig, Schlüssel ausblenden' }).click();
    expect(await page.locator('[data-secret]').count()).toBe(0);
  });

  it('revokes a key only after a confirmation, and the device is refused at once', async () => {
    const made = await h.client.post('/keys', { kind: 'kiosk', store, name: 'Old kiosk' });
    const page = await signedIn();
    const row = page.locator('#keys tr', { hasText: 'Old kiosk' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('#revoke-dialog[open]').waitFor();
    await expectAccessible(page, 'revoke confirmation');
    await page.locator('#revoke-dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await api(h.server.url, made.body.key).get('/keys/current')).status).toBe(200);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('[data-action="confirm-revoke"]').click();
    await expect.poll(() => page.locator('#keys [role="status"]').textContent()).toBe('The key Old kiosk is revoked.');
    expect(await row.count()).toBe(0);
    expect((await api(h.server.url, made.body.key).get('/keys/current')).status).toBe(403);
  });
});

describe('revoking the key in use', () => {
  it('warns that the page signs itself out when the key to revoke is the one it is signed in with', async () => {
    const own = await h.client.post('/keys', { kind: 'write', name: 'Büro-PC' });
    const page = await h.open('/status', { locale: 'en-US' });
    await page.locator('#staff-key').fill(own.body.key);
    await page.locator('#sign-in button[type="submit"]').click();
    const row = page.locator('#keys tr', { hasText: 'Büro-PC' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => page.locator('#revoke-text').textContent()).toMatch(/^This is the key this page is signed in with/);
    await page.locator('#revoke-dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.locator('#keys tbody tr').filter({ hasNotText: 'Büro-PC' }).first().getByRole('button', { name: 'Revoke' }).click();
    expect(await page.locator('#revoke-text').textContent()).toBe('The device that holds it stops working at once, and the key cannot be used again.');
  });
});

describe("the staff page's day's report", () => {
  it('flags the lines a kiosk sold otherwise than the catalog says, with the reason, and the sales it recorded late', async () => {
    const page = await signedIn();
    const table = page.locator('table[data-table="price-deviations"]');
    await table.waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => ((td as { textContent: string | null }).textContent ?? '').replace(/\u00a0/g, ' ')).slice(1)),
    );
    expect(rows).toEqual([
      ['Geschenk', 'unknown product', '1', 'CHF 0.00', '–'],
      ['Vollmilch 1l', 'price', '2', 'CHF 3.00', 'CHF 3.90'],
    ]);
    expect(await page.getByText('Sales differing from the catalog').isVisible()).toBe(true);
    const late = page.locator('table[data-table="late-sales"] tbody tr');
    expect(await late.count()).toBe(1);
    expect(await late.getAttribute('data-order')).toBe(lateOrder);
    expect(await page.getByText('Sales recorded late').isVisible()).toBe(true);
    await expectAccessible(page, 'report with flagged sales');
  });
});
