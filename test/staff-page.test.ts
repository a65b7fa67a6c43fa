import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { seriousViolations } from './support/axe.js';
import { runCli } from './support/cli.js';
import { screenshot } from './support/kiosk.js';
import { waitForSync } from './support/sync.js';
import type { SyncPair } from './support/sync-pair.js';

const h = useBrowserHarness({ upstream: true, features: ['barcode-aliases'], catalog: false });
let pair: SyncPair;
let store: string;

// The page's globals, as the functions handed to page.evaluate see them (the tests compile without DOM types).
declare const window: { print(): void; printed?: number };
declare const sessionStorage: { getItem(key: string): string | null; length: number };
declare const localStorage: { length: number };

beforeAll(async () => {
  pair = h.pair;
  // The upstream organization lacks barcode aliases: it refuses products that carry them, and they are parked.
  await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);
  const created = await pair.write.post('/stores', { name: 'Hofladen Sonnenberg' });
  store = created.body.id;
  const milk = (await pair.write.post('/products', { name: 'Vollmilch 1l', price: 195, taxCategory: '2.6', depositProduct: 30 })).body.id;
  const now = new Date().toISOString();
  await pair.write.post('/orders', { store, orderDate: now, paymentMethod: 'card', paymentBrand: 'TWINT', products: [{ productId: milk, quantity: 3 }] });
  await pair.write.post('/orders', { store, orderDate: now, paymentMethod: 'cash', products: [{ productId: 'wine', quantity: 1, title: 'Merlot', price: 1890, taxRate: 0.081 }] });
});

async function openStaffPage(language = 'en-US'): Promise<Page> {
  const page = await h.open('/status', {
    locale: language,
    timeout: 10_000,
    initScript: () => {
      window.print = () => {
        window.printed = (window.printed ?? 0) + 1;
      };
    },
  });
  await page.locator('#status', { hasText: 'running' }).or(page.locator('#status', { hasText: 'läuft' })).waitFor();
  return page;
}

async function signIn(page: Page, key = pair.org.writeKey): Promise<void> {
  await page.locator('#staff-key').fill(key);
  await page.locator('#sign-in button[type="submit"]').click();
}

async function parkProduct(code: string): Promise<string> {
  const res = await pair.write.post('/products', { name: `Wasser ${code}`, price: 600, taxCategory: '2.6', barcode: code, barcodeAliases: [{ code: `${code}-6`, quantity: 6 }] });
  await waitForSync(pair.write, (s) => s.state === 'idle' && s.pending === 0 && s.parked > 0);
  return res.body.id as string;
}

/** Intl writes a no-break space between currency and amount; the assertions write a plain one. */
const plain = (texts: (string | null)[]) => texts.map((t) => (t ?? '').replace(/\u00a0/g, ' '));

const expectAccessible = async (page: Page, screen: string) =>
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });

describe('the staff page at /status', () => {
  it('shows the server before sign-in, and refuses a key the server does not know', async () => {
    const page = await openStaffPage();
    await expect.poll(() => page.locator('#version').textContent()).toMatch(/^\d+\.\d+\.\d+/);
    await signIn(page, 'wk_not-a-key');
    await expect.poll(() => page.locator('#message').textContent()).toBe('This key is not accepted. Check it and try again.');
    expect(await page.locator('#staff').isHidden()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await expectAccessible(page, 'signed out');
  });

  it("shows today's report in the store's time zone after sign-in, keeping no key in the page", async () => {
    const page = await openStaffPage();
    await signIn(page);
    await page.locator('[data-figure="total"]').waitFor();
    expect(await page.locator('#report-store option:checked').textContent()).toBe('Hofladen Sonnenberg');
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Zurich' }).format(new Date());
    expect(await page.locator('#report-date').inputValue()).toBe(today);
    expect(await page.locator('[data-figure="sales"]').textContent()).toBe('2');
    // 3 x 1.95 + 3 x 0.30 deposit by card, 18.90 in cash.
    expect(plain([await page.locator('[data-figure="total"]').textContent()])).toEqual(['CHF 25.65']);
    expect(plain(await page.locator('[data-table="payments"] tbody tr').allTextContents())).toEqual(['CardTWINT1CHF 6.75', 'Cash–1CHF 18.90']);
    expect(plain(await page.locator('[data-table="vat"] tbody tr').allTextContents())).toEqual(['2.6 %CHF 5.85CHF 5.70CHF 0.15', '8.1 %CHF 18.90CHF 17.48CHF 1.42']);
    expect(await page.evaluate(() => [sessionStorage.getItem('staff-write-key'), localStorage.length])).toEqual([null, 0]);
    await expect.poll(() => page.locator('[data-system="disk"]').textContent()).toMatch(/ of /);
    expect(await page.locator('[data-system="database"]').textContent()).toMatch(/(kB|MB|GB)$/);
    await screenshot(page, '22-staff-report');
    await expectAccessible(page, 'report');

    await page.locator('#report-date').fill('2020-01-01');
    await expect.poll(() => page.locator('[data-figure="sales"]').textContent()).toBe('0');
    expect(await page.getByText('No sales on this day.').count()).toBe(1);

    await page.locator('[data-action="sign-out"]').click();
    await page.locator('#sign-in').waitFor();
    expect(await page.locator('#staff').isHidden()).toBe(true);
  });

  it("prints with the browser's print, showing the report alone", async () => {
    const page = await openStaffPage();
    await signIn(page);
    await page.locator('[data-figure="total"]').waitFor();
    await page.locator('[data-action="print"]').click();
    expect(await page.evaluate(() => window.printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('[data-figure="total"]').isVisible()).toBe(true);
    for (const hidden of ['#sync', '#system', '#languages', '.controls', '[data-action="sign-out"]']) {
      expect(await page.locator(hidden).isVisible(), hidden).toBe(false);
    }
  });

  // Two products parked and a retry pushed, each waiting on the sync worker's rounds: longer than the default timeout.
  it('retries a parked entry, and discards one only after a confirmation that says what discarding means', async () => {
    const retried = await parkProduct('staff-retry');
    const page = await openStaffPage();
    await signIn(page);
    const entry = page.locator('.parked li', { hasText: retried });
    await entry.waitFor();
    await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--enable', 'barcode-aliases', '--json']);
    await entry.locator('[data-action="retry"]').click();
    await page.getByText('Back in the queue: it is sent in the next round.').waitFor();
    await entry.waitFor({ state: 'detached' });
    await waitForSync(pair.write, (s) => s.state === 'idle' && s.pending === 0 && s.parked === 0);
    expect((await pair.up.get('/products?barcode=staff-retry')).body.data).toHaveLength(1);
    await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);

    const discarded = await parkProduct('staff-discard');
    await page.reload();
    const parked = page.locator('.parked li', { hasText: discarded });
    await parked.waitFor({ timeout: 15_000 });
    await parked.locator('[data-action="discard"]').click();
    const dialog = page.locator('#discard-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Discarding means this change is never sent to head office');
    // The list behind the dialog refreshes; the confirmation stays open and modal.
    await page.waitForResponse((res) => res.url().endsWith('/sync/parked'), { timeout: 15_000 });
    expect(await page.locator('#discard-dialog:modal').count()).toBe(1);
    await screenshot(page, '23-staff-sync');
    await expectAccessible(page, 'discard confirmation');
    await dialog.locator('button', { hasText: 'Cancel' }).click();
    expect(await parked.isVisible()).toBe(true);

    await parked.locator('[data-action="discard"]').click();
    await dialog.locator('[data-action="confirm-discard"]').click();
    await parked.waitFor({ state: 'detached' });
    await page.getByText('Discarded.').waitFor();
    const seq = pair.local.sqlite().prepare("SELECT state FROM outbox WHERE resource_id = ? AND resource = 'product'").get(discarded);
    expect(seq).toEqual({ state: 'discarded' });
  });

  it('tells staff signed in with a read key that acting needs the write key', async () => {
    const code = 'staff-read';
    const id = await parkProduct(code);
    const page = await openStaffPage();
    await signIn(page, pair.org.readKey);
    const entry = page.locator('.parked li', { hasText: id });
    await entry.locator('[data-action="retry"]').click();
    await expect
      .poll(() => page.locator('#message').textContent())
      .toBe('This is a read key: it may only read. Sign in with the write key to retry or discard.');
    expect(await entry.isVisible()).toBe(true);
  });

  it.each([
    ['de', 'Tagesabschluss', 'Abgleich mit der Zentrale', 'Erneut senden'],
    ['fr', 'Clôture du jour', 'Synchronisation avec la centrale', 'Renvoyer'],
    ['it', 'Chiusura giornaliera', 'Sincronizzazione con la centrale', 'Reinvia'],
    ['en', "Day's report", 'Sync with head office', 'Retry'],
  ])('speaks %s and passes axe-core in it', async (language, report, sync, retry) => {
    const page = await openStaffPage();
    await signIn(page);
    await page.locator('[data-figure="total"]').waitFor();
    await page.locator(`button[data-language="${language}"]`).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(language);
    expect(await page.locator('#report-title').textContent()).toBe(report);
    expect(await page.locator('#sync-title').textContent()).toBe(sync);
    expect(await page.locator('.parked [data-action="retry"]').first().textContent()).toBe(retry);
    await expectAccessible(page, language);
    if (language === 'de') await screenshot(page, '24-staff-report-de');
  });

  it("opens in the browser's language when the page offers it", async () => {
    const page = await openStaffPage('de-CH');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('#sign-in h2').textContent()).toBe('Anmelden');
  });
});
