import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../scripts/build-renderer.js';
import { api, type Api } from './support/api.js';
import { CODES, seedKioskCatalog } from './support/kiosk-catalog.js';
import { launchChromium, openKiosk, ordersSince, scan, screenshot, td1 } from './support/kiosk.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let browser: Browser;
let org: TestOrg;
let client: Api;
let seed: Awaited<ReturnType<typeof seedKioskCatalog>>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([buildRenderer().then(() => startTestServer()), launchChromium()]);
  org = server.createOrg(['identity-logs']);
  client = api(server.url, org.writeKey);
  seed = await seedKioskCatalog(client);
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.destroy();
});

async function kiosk(storeId = seed.store, viewport?: { width: number; height: number }): Promise<Page> {
  const { context, page } = await openKiosk(browser, server.url, { key: org.writeKey, storeId }, viewport);
  contexts.push(context);
  return page;
}

const lines = (page: Page) => page.locator('.cart li.line');
const total = (page: Page) => page.locator('.cart [data-total]');

describe('set-up in a plain browser', () => {
  it('asks once for key and store, keeps them in localStorage and never puts the key in the URL', async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(new URL('/', server.url).href);
    await page.locator('[data-screen="setup"]').waitFor();
    await page.getByLabel('Write key').fill(org.writeKey);
    await page.getByRole('button', { name: 'Load stores' }).click();
    await page.getByLabel('Store').selectOption(seed.store);
    await screenshot(page, '01-setup');
    await page.getByRole('button', { name: 'Start the kiosk' }).click();
    await page.locator('[data-screen="shop"]').waitFor();
    expect(page.url()).not.toContain(org.writeKey);
    await page.reload();
    await expect(page.locator('.welcome h1').textContent()).resolves.toBe('Grüezi im Hofladen!');
  });
});

describe('scanning', () => {
  it('adds a scanned product to the cart with its price, and a second scan raises the quantity', async () => {
    const page = await kiosk();
    await screenshot(page, '02-start');
    await scan(page, CODES.milk);
    await expect.poll(() => lines(page).count()).toBe(1);
    await scan(page, CODES.milk);
    await expect.poll(() => lines(page).locator('[data-quantity]').textContent()).toBe('2');
    expect(await total(page).textContent()).toBe('3.90');
    expect(await lines(page).locator('.supplier').textContent()).toBe('Lieferant: Molkerei Alpenblick');
  });

  it('lets the customer choose when several products share the code', async () => {
    const page = await kiosk();
    await scan(page, CODES.apples);
    const dialog = page.locator('[data-dialog="choose"]');
    await expect.poll(() => dialog.locator('button.choice').count()).toBe(2);
    await screenshot(page, '04-several-matches');
    await dialog.getByRole('button', { name: /Apfel Braeburn/ }).click();
    await expect.poll(() => lines(page).locator('.name').allTextContents()).toEqual(['Apfel Braeburn']);
  });

  it('refuses products under sale stop or deactivated, and tells unknown codes', async () => {
    const page = await kiosk();
    await scan(page, CODES.saleStop);
    await expect.poll(() => page.locator('.message').textContent()).toBe('Rückruf-Joghurt kann zurzeit nicht verkauft werden.');
    await scan(page, CODES.deactivated);
    await expect.poll(() => page.locator('.message').textContent()).toBe('Wintertee ist nicht erhältlich.');
    await scan(page, '4000000000000');
    await expect.poll(() => page.locator('.message').textContent()).toBe('Kein Produkt hat den Code 4000000000000.');
    expect(await lines(page).count()).toBe(0);
  });

  it('takes a code typed by staff into the code field', async () => {
    const page = await kiosk();
    await page.getByLabel('Strichcode').fill(CODES.water);
    await page.getByLabel('Strichcode').press('Enter');
    await expect.poll(() => lines(page).count()).toBe(1);
  });
});
