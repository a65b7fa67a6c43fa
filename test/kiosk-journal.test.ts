import type { Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { seriousViolations } from './support/axe.js';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.js';
import { CODES } from './support/kiosk-catalog.js';
import { ordersSince, scan, screenshot } from './support/kiosk.js';

// A paid sale must reach the server whatever happens between the payment and
// the receipt: a reload of the page, a 503 of a full disk, a request that
// never gets an answer, an idle customer. The kiosk talks to the real server
// through a real HTTP proxy that injects the server's faults.

const h = useBrowserHarness();
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy(h.server.url, { keepHost: true });
});
afterEach(() => proxy.setMode('pass'));
afterAll(async () => {
  await proxy?.close();
});
const kiosk = (storeId?: string) => h.kiosk({ storeId, apiUrl: proxy.url });

const ORDER_POST = '**/api/v1/orders';
const isOrderPost = (method: string, path: string) => method === 'POST' && path === '/orders';
const receipt = (page: Page) => page.locator('[data-screen="receipt"]');

/** A customer buys milk and water (with its deposit) and pays cash: CHF 3.65. */
async function buyAndPay(page: Page): Promise<void> {
  await scan(page, CODES.milk);
  await scan(page, CODES.water);
  await expect.poll(() => page.locator('.cart li.line').count(), { timeout: 5000 }).toBe(2);
  await page.getByRole('button', { name: 'Bezahlen' }).click();
  await page.getByRole('button', { name: 'Bar' }).click();
  await page.getByRole('button', { name: 'Bezahlt' }).click();
}

/** The next POST /orders the page sends is held in the browser: it reaches the server (`forward`) or not, and never gets its answer. */
async function holdNextOrder(page: Page, forward: boolean): Promise<{ orderId: Promise<string> }> {
  let sent!: (orderId: string) => void;
  const orderId = new Promise<string>((resolve) => (sent = resolve));
  await page.route(ORDER_POST, async (route: Route) => {
    if (forward) await route.fetch();
    sent(JSON.parse(route.request().postData() ?? '{}').orderId);
  });
  return { orderId };
}

/** Exactly one order stored for the sale, the receipt on screen shows it, and it leaves for an empty shop. */
async function expectOneOrderAndReceipt(page: Page, since: Date, orderId?: string, waitMs?: number): Promise<void> {
  await receipt(page).waitFor(waitMs === undefined ? {} : { timeout: waitMs });
  const orders = await ordersSince(h.client, since);
  expect(orders).toHaveLength(1);
  const order = orders[0]!;
  if (orderId !== undefined) expect(order.orderId).toBe(orderId);
  expect(order).toMatchObject({ price: 365, paymentMethod: 'cash', store: h.seed.store });
  expect(await receipt(page).getAttribute('data-order')).toBe(order.id);
  expect(await receipt(page).locator('[data-total]').textContent()).toBe('CHF\u00a03.65');
  await page.getByRole('button', { name: 'Fertig' }).click();
  await expect.poll(() => page.locator('[data-screen="shop"]').getAttribute('data-cart'), { timeout: 5000 }).toBe('empty');
}

describe('a reload at every step of checkout', () => {
  it('after the payment, before the sale reached the server: the page records it before it shows the shop', async () => {
    const since = new Date();
    const page = await kiosk();
    const held = await holdNextOrder(page, false);
    await buyAndPay(page);
    const orderId = await held.orderId;
    expect(await ordersSince(h.client, since)).toEqual([]);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    await expectOneOrderAndReceipt(page, since, orderId);
  });

  it('while recording, with the order stored and its answer lost: one order, not two', async () => {
    const since = new Date();
    const page = await kiosk();
    const held = await holdNextOrder(page, true);
    await buyAndPay(page);
    const orderId = await held.orderId;
    expect((await ordersSince(h.client, since)).map((o) => o.orderId)).toEqual([orderId]);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    await expectOneOrderAndReceipt(page, since, orderId);
  });

  it('on the receipt: the receipt shows again, and once closed the journal is empty', async () => {
    const since = new Date();
    const page = await kiosk();
    await buyAndPay(page);
    await receipt(page).waitFor();
    const shown = await receipt(page).getAttribute('data-order');
    await page.reload();
    await receipt(page).waitFor();
    expect(await receipt(page).getAttribute('data-order')).toBe(shown);
    await expectOneOrderAndReceipt(page, since);
    await page.reload();
    await page.locator('[data-screen="shop"]').waitFor();
    expect(await ordersSince(h.client, since)).toHaveLength(1);
  });

  it('while the server answers 503: the reloaded page says the last sale is being recorded and records it once the server heals', async () => {
    const since = new Date();
    const page = await kiosk();
    proxy.setMode('error', { only: isOrderPost });
    await buyAndPay(page);
    await page.locator('[data-screen="recording"] [data-retrying="failed"]').waitFor();
    await page.reload();
    await page.locator('[data-screen="recording"][data-resumed] [data-retrying]').waitFor();
    await screenshot(page, '26-recording-resumed');
    expect(await page.locator('[data-screen="recording"] h1').textContent()).toBe('Der letzte Einkauf wird gespeichert…');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await ordersSince(h.client, since)).toEqual([]);
    proxy.setMode('pass');
    await expectOneOrderAndReceipt(page, since);
  });
});

describe('a server that cannot store the sale yet', () => {
  it('answers 503 to the first order posts (a full disk): the sale is sent again until stored, and the screen never says it is lost', async () => {
    const since = new Date();
    const page = await kiosk();
    proxy.setMode('error', { only: isOrderPost });
    await buyAndPay(page);
    const status = page.locator('[data-screen="recording"] [data-retrying="failed"]');
    await status.waitFor();
    await screenshot(page, '25-recording-retry');
    expect(await status.textContent()).toContain('bezahlt und im Kiosk gesichert');
    expect(await seriousViolations(page)).toEqual([]);
    // The cart stays until the server has the order.
    expect(await page.locator('[data-screen="shop"]').count()).toBe(0);
    proxy.setMode('pass');
    await expectOneOrderAndReceipt(page, since);
  });

  it('gives up on an order post that never gets an answer after its timeout, and sends it again', async () => {
    const since = new Date();
    const page = await kiosk();
    let posts = 0;
    await page.route(ORDER_POST, async (route) => {
      posts += 1;
      // The first post hangs: no answer, no error, until the kiosk gives up on it.
      if (posts > 1) await route.continue();
    });
    await buyAndPay(page);
    // The kiosk waits 10 s for an answer.
    await expectOneOrderAndReceipt(page, since, undefined, 20_000);
    expect(posts).toBe(2);
  });

  it('never lets the idle timer cancel a paid sale, also not from the help screen', async () => {
    // 11 s without a touch cancel a purchase; the countdown shows for the last 10 s.
    const res = await h.client.post('/stores', { name: 'Hofladen Weiler', paymentCash: true, languageMain: 'de', deleteCountdown: 11 });
    const since = new Date();
    const page = await kiosk(res.body.id as string);
    proxy.setMode('error', { only: isOrderPost });
    await buyAndPay(page);
    await page.locator('[data-screen="recording"] [data-retrying]').waitFor();
    await page.locator('[data-screen="recording"] .actions button').click();
    await page.locator('[data-screen="staff"]').waitFor();
    // Three more failed sends (two attempts each) take over 3 s: the countdown would long be showing.
    const before = proxy.stats().faulted;
    await expect.poll(() => proxy.stats().faulted - before, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
    expect(await page.locator('[data-dialog="idle"]').count()).toBe(0);
    expect(await page.locator('[data-screen="staff"]').count()).toBe(1);
    proxy.setMode('pass');
    await receipt(page).waitFor({ timeout: 15_000 });
    const orders = await ordersSince(h.client, since);
    expect(orders).toHaveLength(1);
    expect(await receipt(page).getAttribute('data-order')).toBe(orders[0]!.id);
  });
});

describe('a stored order that cannot be read back', () => {
  it('still ends on the receipt, built from what the till sent; the cart is cleared', async () => {
    const since = new Date();
    const page = await kiosk();
    await page.route('**/api/v1/orders/*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"statusCode":503,"message":"Service Unavailable"}' }));
    await buyAndPay(page);
    await receipt(page).waitFor();
    const [order] = await ordersSince(h.client, since);
    expect(await receipt(page).getAttribute('data-order')).toBe(order!.id);
    const rows = (selector: string) => receipt(page).locator(selector).evaluateAll((els) => els.map((el) => (el as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ').trim()));
    expect(await rows('tr.line')).toEqual(['Bio Vollmilch 1l 1 × 1.95 1.95', 'Mineralwasser 1.5l 1 × 1.20 Pfand 0.50 1.20']);
    expect(await rows('tr.deposits')).toEqual(['Pfand total 0.50']);
    expect(await rows('.receipt-vat tbody tr')).toEqual(['2.6% 3.07 0.08 3.15']);
    await expectOneOrderAndReceipt(page, since);
  });
});
