import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { withCheckDigit } from './support/ean13.js';
import { CODES, seedKioskCatalog } from './support/kiosk-catalog.js';
import { openKiosk, scan, screenshot } from './support/kiosk.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { waitForSync } from './support/sync.js';

// The page's own globals, as page.evaluate sees them (the tests compile without DOM types).
declare const document: { elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null };
declare const getComputedStyle: (el: unknown) => { color: string; backgroundColor: string };
declare const window: { innerHeight: number };

const h = useBrowserHarness({ features: ['identity-logs'] });
const kiosk = (storeId?: string, viewport?: { width: number; height: number }) => h.kiosk({ storeId, viewport });

const chf = (amount: string) => `CHF\u00a0${amount}`;
const lines = (page: Page) => page.locator('.cart li.line');
const total = (page: Page) => page.locator('.cart [data-total]');
/** Taps keys of the on-screen keypad or keyboard, one after the other: no physical key is pressed. */
async function tapKeys(page: Page, scope: string, keys: string[]): Promise<void> {
  for (const key of keys) await page.locator(`${scope} [data-key="${key}"]`).click();
}

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await h.client.post(path, body);
  expect(res.status).toBe(200);
  return res.body.id as string;
}

describe('entering by touch alone', () => {
  it('takes an open amount on the keypad', async () => {
    const page = await kiosk();
    await scan(page, CODES.flowers);
    await page.locator('dialog[data-dialog="amount"]').waitFor();
    await tapKeys(page, '[data-dialog="amount"]', ['1', '2', '.', '5', '5', 'delete', '0']);
    expect(await page.locator('#amount').inputValue()).toBe('12.50');
    await screenshot(page, '17-keypad');
    await page.locator('[data-dialog="amount"] button[type="submit"]').click();
    await expect.poll(() => total(page).textContent()).toBe(chf('12.50'));
    expect(await lines(page).locator('[data-amount]').textContent()).toBe(chf('12.50'));
  });

  it('refuses an amount that is not one, in the customer\'s language', async () => {
    const page = await kiosk();
    await scan(page, CODES.flowers);
    await tapKeys(page, '[data-dialog="amount"]', ['.', '.']);
    await page.locator('[data-dialog="amount"] button[type="submit"]').click();
    await expect.poll(() => page.locator('[data-dialog="amount"] .error').textContent()).toBe('Bitte geben Sie einen Betrag ein, zum Beispiel 4.50.');
    expect(await lines(page).count()).toBe(0);
  });

  it('takes a birth date on the keypad, moving from day to month to year by itself', async () => {
    const page = await kiosk();
    await scan(page, CODES.beer);
    await expect.poll(() => lines(page).count()).toBe(1);
    await page.locator('[data-action="pay"]').click();
    await page.locator('[data-screen="age-check"]').waitFor();
    const born = new Date();
    const digits = `${String(born.getDate()).padStart(2, '0')}${String(born.getMonth() + 1).padStart(2, '0')}${born.getFullYear() - 30}`;
    await tapKeys(page, '[data-keypad]', [...digits]);
    expect([await page.locator('#birth-day').inputValue(), await page.locator('#birth-month').inputValue(), await page.locator('#birth-year').inputValue()]).toEqual([
      digits.slice(0, 2),
      digits.slice(2, 4),
      digits.slice(4),
    ]);
    await page.locator('.birth-date button[type="submit"]').click();
    await page.locator('[data-screen="payment"]').waitFor();
    const logs = (await h.client.get('/identity-logs?limit=100')).body.data as { birthDate: string; source: string }[];
    expect(logs.map((l) => l.birthDate)).toContain(`${digits.slice(4)}-${digits.slice(2, 4)}-${digits.slice(0, 2)}`);
  });

  it('searches with the on-screen keyboard, which a tap on the search box opens', async () => {
    const page = await kiosk();
    expect(await page.locator('[data-keyboard]').isVisible()).toBe(false);
    await page.locator('.search').click();
    await tapKeys(page, '[data-keyboard]', [...'volmilch']);
    expect(await page.locator('.search').inputValue()).toBe('volmilch');
    await page.locator('.results .tile', { hasText: 'Bio Vollmilch 1l' }).waitFor();
    await screenshot(page, '18-keyboard');
    await page.locator('.results .tile', { hasText: 'Bio Vollmilch 1l' }).click();
    await expect.poll(() => lines(page).count()).toBe(1);
  });
});

describe('the cart a customer sees', () => {
  it('shows unit prices, and confirms each scan with a flash of its line and a spoken status', async () => {
    const page = await kiosk();
    await scan(page, CODES.milk);
    await scan(page, CODES.milk);
    await expect.poll(() => lines(page).locator('[data-quantity]').textContent()).toBe('2');
    expect(await lines(page).locator('[data-unit-price]').textContent()).toBe(`je ${chf('1.95')}`);
    expect(await lines(page).locator('[data-amount]').textContent()).toBe(chf('3.90'));
    expect(await lines(page).getAttribute('class')).toContain('flash');
    expect(await page.locator('[data-confirmation]').textContent()).toBe('Bio Vollmilch 1l hinzugefügt');
    await scan(page, CODES.cheeseLabel);
    await expect.poll(() => lines(page).count()).toBe(2);
    expect(await lines(page).nth(1).locator('[data-unit-price]').textContent()).toBe(`${chf('24.00')} pro kg`);
  });

  it('plays the store\'s sound for every product that lands in the cart, and none when the store turned it off', async () => {
    // Every tone the page starts is noted; the sound itself still plays.
    const listen = async (page: Page) => {
      await page.addInitScript(`{
        const tones = (globalThis.playedTones = []);
        const start = OscillatorNode.prototype.start;
        OscillatorNode.prototype.start = function (...args) { tones.push(this.frequency.value); return start.apply(this, args); };
      }`);
    };
    const played = (page: Page) => page.evaluate('globalThis.playedTones') as Promise<number[]>;
    const page = await h.kiosk({ beforeLoad: listen });
    await scan(page, CODES.milk);
    await expect.poll(() => played(page)).toEqual([1319, 1760]);
    await scan(page, CODES.water);
    await expect.poll(() => played(page)).toEqual([1319, 1760, 1319, 1760]);

    const quiet = await created('/stores', { name: 'Hofladen Stille', languageMain: 'de', paymentCash: true, playSound: false, standardSound: 'chime' });
    const silent = await h.kiosk({ storeId: quiet, beforeLoad: listen });
    await scan(silent, CODES.milk);
    await expect.poll(() => lines(silent).count()).toBe(1);
    expect(await played(silent)).toEqual([]);
  });

  it('keeps the price of a long name in view and remove away from +', async () => {
    const code = withCheckDigit('761000000901');
    await created('/products', { taxCategory: '2.6', name: `Bio Bergkäse aus dem Simmental, würzig gereift, ${'sehr '.repeat(20)}lange Bezeichnung`, price: 1290, barcode: code });
    const page = await kiosk();
    await scan(page, code);
    await expect.poll(() => lines(page).count()).toBe(1);
    const cart = (await page.locator('.cart').boundingBox())!;
    const amount = (await lines(page).locator('[data-amount]').boundingBox())!;
    expect(amount.x + amount.width).toBeLessThanOrEqual(cart.x + cart.width);
    expect(await lines(page).locator('[data-amount]').isVisible()).toBe(true);
    const name = (await lines(page).locator('.name').boundingBox())!;
    const lineHeight = await lines(page).locator('.name').evaluate((el) => parseFloat((getComputedStyle(el) as unknown as { lineHeight: string }).lineHeight));
    expect(name.height).toBeLessThanOrEqual(2 * lineHeight + 1);
    const remove = (await lines(page).locator('.remove').boundingBox())!;
    const plus = (await lines(page).locator('.qty button').last().boundingBox())!;
    expect(plus.x - (remove.x + remove.width)).toBeGreaterThan(200);
    for (const box of [remove, plus]) expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(64);
  });

  it.each([
    { name: 'landscape', viewport: { width: 1920, height: 1080 } },
    { name: 'portrait', viewport: { width: 1080, height: 1920 } },
  ])('keeps Total and Pay in view with 50 lines ($name)', async ({ name, viewport }) => {
    const codes: string[] = [];
    for (let i = 0; i < 50; i++) {
      const code = withCheckDigit(`7620${name === 'portrait' ? 1 : 0}${String(i).padStart(7, '0')}`);
      await created('/products', { taxCategory: '2.6', name: `Konfitüre Sorte ${i + 1}`, price: 350 + i, barcode: code });
      codes.push(code);
    }
    const page = await kiosk(h.seed.store, viewport);
    for (const code of codes) await scan(page, code);
    await expect.poll(() => lines(page).count()).toBe(50);
    const pay = page.locator('[data-action="pay"]');
    const box = (await pay.boundingBox())!;
    const height = await page.evaluate(() => window.innerHeight);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x as number, y as number)?.closest('[data-action="pay"]') !== null, [box.x + box.width / 2, box.y + box.height / 2]);
    expect(onTop).toBe(true);
    expect(await total(page).isVisible()).toBe(true);
    expect(await lines(page).last().locator('[data-amount]').isVisible()).toBe(true);
    if (name === 'landscape') await screenshot(page, '19-long-cart');
    await pay.click();
    await page.locator('[data-screen="payment"]').waitFor();
  });
});

describe('the product info', () => {
  it('shows the price and adds the product', async () => {
    const page = await kiosk();
    await page.locator('.search').fill('Vollmilch');
    await page.getByRole('button', { name: 'Info: Bio Vollmilch 1l' }).click();
    expect(await page.locator('[data-dialog="info"] [data-price]').textContent()).toBe(` ${chf('1.95')}`);
    await page.locator('[data-dialog="info"] [data-action="add"]').click();
    await expect.poll(() => lines(page).locator('.name').allTextContents()).toEqual(['Bio Vollmilch 1l']);
    expect(await page.locator('dialog[open]').count()).toBe(0);
  });
});

describe('a store without staff', () => {
  it('shows its help text and phone number instead of promising staff', async () => {
    const store = await created('/stores', {
      name: 'Hofladen Waldrand',
      languageMain: 'de',
      paymentCash: true,
      translations: { helpPhone: '079 123 45 67', de: { helpText: 'Rufen Sie uns an, wir sind in fünf Minuten da.' } },
    });
    const page = await kiosk(store);
    await scan(page, CODES.beer);
    await expect.poll(() => lines(page).count()).toBe(1);
    await page.locator('[data-action="pay"]').click();
    await tapKeys(page, '[data-keypad]', [...'01012020']);
    await page.locator('.birth-date button[type="submit"]').click();
    await page.getByRole('button', { name: 'Hilfe holen' }).click();
    await page.locator('[data-screen="staff"]').waitFor();
    expect(await page.locator('[data-help="text"]').textContent()).toBe('Rufen Sie uns an, wir sind in fünf Minuten da.');
    expect(await page.locator('[data-help="phone"]').textContent()).toBe('Telefon: 079 123 45 67');
    expect(await page.getByText('Personal').count()).toBe(0);
  });
});

describe('colours a store picks', () => {
  it('replaces a text colour that does not read on the store background by one that does', async () => {
    const store = await created('/stores', { name: 'Hofladen Nacht', backgroundColor: '#1d2b3a', backgroundFontColor: '#2a3b4c' });
    const page = await kiosk(store);
    const colour = await page.locator('.welcome h1').evaluate((el) => getComputedStyle(el).color);
    expect(colour).toBe('rgb(255, 255, 255)');
  });
});

describe('errors in the customer\'s language', () => {
  it('tells a refused key on the set-up screen in the chosen language, not the server\'s words', async () => {
    const context = await h.browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'it-CH' });
    h.track(context);
    const page = await context.newPage();
    await page.goto(new URL('/', h.server.url).href);
    await page.locator('[data-screen="setup"]').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('it');
    await page.locator('button[data-language="fr"]').click();
    await page.locator('#setup-key').fill('wrong-key');
    await page.locator('[data-screen="setup"] button[type="submit"]').click();
    await expect.poll(() => page.locator('[data-screen="setup"] .error').textContent()).toBe(
      "Le serveur n'accepte pas la clé de ce kiosque. Le kiosque doit être configuré à nouveau.",
    );
  });
});

/**
 * Moves the page's clock past the kiosk's next `GET /sync` poll and reads the
 * badge. The worker retries while the upstream is down, so a poll may catch it
 * pushing rather than offline: callers poll this until the badge settles.
 */
async function nextSyncPoll(page: Page): Promise<string | null> {
  await page.clock.fastForward(16_000);
  return page.locator('[data-badge="offline"]').textContent();
}

describe('a sync state change', () => {
  let pair: SyncPair;
  afterAll(async () => pair?.destroy());

  it('shows the offline badge with its plural and leaves the search and its text as they are', async () => {
    pair = await startSyncPair();
    const pairSeed = await seedKioskCatalog(pair.write);
    await waitForSync(pair.write, (s) => s.pending === 0 && s.state === 'idle');
    // The badge reads GET /sync, which a kiosk key may not: only a kiosk holding a staff key shows it.
    const { context, page } = await openKiosk(h.browser, pair.local.url, { key: pair.org.writeKey, storeId: pairSeed.store }, undefined, (p) => p.clock.install());
    h.track(context);
    await page.locator('.search').click();
    await page.locator('.search').fill('vollmilch');
    await page.locator('.results .tile', { hasText: 'Bio Vollmilch 1l' }).waitFor();
    await page.locator('.search').evaluate((el) => (el as unknown as { dataset: Record<string, string> }).dataset.typedInto = 'yes');
    expect(await page.locator('[data-badge="offline"]').isVisible()).toBe(false);

    pair.proxy.setMode('down');
    expect((await pair.write.post('/suppliers', { name: 'Imkerei Waldrand' })).status).toBe(200);
    await waitForSync(pair.write, (s) => s.state === 'offline' && s.pending === 1);
    // Each poll lets the page's clock run to its next sync poll; its request and repaint may take seconds on a loaded machine.
    await expect.poll(() => nextSyncPoll(page), { timeout: 15_000 }).toMatch(/^Offline/);

    expect(await page.locator('.search').inputValue()).toBe('vollmilch');
    expect(await page.locator('.search').getAttribute('data-typed-into')).toBe('yes');
    expect(await page.locator('.results .tile', { hasText: 'Bio Vollmilch 1l' }).count()).toBe(1);
    expect(await page.locator('[data-keyboard]').isVisible()).toBe(true);
    expect(await page.locator('[data-badge="offline"]').textContent()).toBe('Offline, 1 Verkauf wartet');

    expect((await pair.write.post('/suppliers', { name: 'Käserei Tal' })).status).toBe(200);
    await waitForSync(pair.write, (s) => s.state === 'offline' && s.pending === 2);
    await expect.poll(() => nextSyncPoll(page), { timeout: 15_000 }).toBe('Offline, 2 Verkäufe warten');
    expect(await page.locator('.search').getAttribute('data-typed-into')).toBe('yes');
  });
});
