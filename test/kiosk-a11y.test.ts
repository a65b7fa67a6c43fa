import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { seriousViolations } from './support/axe.js';
import { CODES } from './support/kiosk-catalog.js';
import { holdStaffGesture, scan } from './support/kiosk.js';

const h = useBrowserHarness({ features: ['identity-logs'] });

const LANDSCAPE = { width: 1920, height: 1080 };
const PORTRAIT = { width: 1080, height: 1920 };

/** Runs axe-core on the screen shown now; the screen's name tells a failure apart. */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });
}

async function kiosk(language: string, viewport: { width: number; height: number }, storeId = h.seed.store): Promise<Page> {
  const page = await h.kiosk({ storeId, viewport });
  if (language !== 'de') {
    await page.locator(`button[data-language="${language}"]`).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(language);
  }
  return page;
}

const closeDialog = (page: Page) => page.keyboard.press('Escape');

// Each language and each orientation once: a violation comes from the layout of a viewport or from
// a language's texts, not from the pair.
const runs = [
  { language: 'de', viewport: LANDSCAPE, name: 'German, landscape' },
  { language: 'fr', viewport: PORTRAIT, name: 'French, portrait' },
];

describe.each(runs)('every screen passes axe-core with no serious or critical violation ($name)', ({ language, viewport }) => {
  it('set-up and boot error', async () => {
    const context = await h.browser.newContext({ viewport, locale: language });
    h.track(context);
    const page = await context.newPage();
    await page.goto(new URL('/', h.server.url).href);
    await page.locator(`[data-screen="setup"] button[data-language="${language}"]`).click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(language);
    await expectAccessible(page, 'setup');

    const { context: broken, page: error } = await openKioskExpectingError(viewport, language);
    h.track(broken);
    await expectAccessible(error, 'boot error');
  });

  it('shop, search with the on-screen keyboard, dialogs and staff entry', async () => {
    const page = await kiosk(language, viewport);
    await expectAccessible(page, 'start');
    await page.locator('.search').click();
    for (const key of 'milch') await page.locator(`[data-keyboard] [data-key="${key}"]`).click();
    await page.locator('.results .tile', { hasText: 'Bio Vollmilch 1l' }).waitFor();
    await expectAccessible(page, 'search with keyboard');
    await page.locator(`button.info[aria-label$="Bio Vollmilch 1l"]`).click();
    await page.locator('dialog[data-dialog="info"]').waitFor();
    await expectAccessible(page, 'product info');
    await closeDialog(page);
    await scan(page, CODES.apples);
    await page.locator('dialog[data-dialog="choose"]').waitFor();
    await expectAccessible(page, 'several matches');
    await page.locator('[data-dialog="choose"] .choice').first().click();
    await scan(page, CODES.flowers);
    await page.locator('dialog[data-dialog="amount"]').waitFor();
    await expectAccessible(page, 'open amount');
    await closeDialog(page);
    await scan(page, CODES.water);
    await scan(page, CODES.cheeseLabel);
    await expect.poll(() => page.locator('.cart li.line').count()).toBe(3);
    await expectAccessible(page, 'cart');
    await holdStaffGesture(page);
    await expectAccessible(page, 'staff code');
    await closeDialog(page);
  });

  it('age check, refusal, help, payment, terminal and receipt', async () => {
    const page = await kiosk(language, viewport);
    await scan(page, CODES.beer);
    await expect.poll(() => page.locator('.cart li.line').count()).toBe(1);
    await page.locator('[data-action="pay"]').click();
    await page.locator('[data-screen="age-check"]').waitFor();
    await expectAccessible(page, 'age check');
    for (const digit of '01012020') await page.locator(`[data-keypad] [data-key="${digit}"]`).click();
    await page.locator('.birth-date button[type="submit"]').click();
    await page.locator('[data-screen="age-refused"]').waitFor();
    await expectAccessible(page, 'age refused');
    await page.locator('[data-screen="age-refused"] .actions button.secondary').click();
    await page.locator('[data-screen="staff"]').waitFor();
    await expectAccessible(page, 'help');
    await page.locator('[data-screen="staff"] .actions button').click();
    await page.locator('[data-screen="age-refused"]').waitFor();
    await page.locator('[data-screen="age-refused"] .actions button.primary').click();
    await scan(page, CODES.milk);
    await expect.poll(() => page.locator('.cart li.line').count()).toBe(1);
    await page.locator('[data-action="pay"]').click();
    await page.locator('[data-screen="payment"]').waitFor();
    await expectAccessible(page, 'payment');
    await page.locator('[data-method="cash"]').click();
    await page.locator('[data-screen="terminal"]').waitFor();
    await expectAccessible(page, 'terminal');
    await page.locator('[data-action="confirm-payment"]').click();
    await page.locator('[data-screen="receipt"]').waitFor();
    await expectAccessible(page, 'receipt');
  });

  it('idle countdown', async () => {
    const page = await kiosk(language, viewport, h.seed.idleStore);
    await scan(page, CODES.milk);
    await page.locator('dialog[data-dialog="idle"]').waitFor();
    await expectAccessible(page, 'idle countdown');
  });

  /** A kiosk whose key the server refuses: the boot error, in the browser's language. */
  async function openKioskExpectingError(size: { width: number; height: number }, locale: string) {
    const context = await h.browser.newContext({ viewport: size, locale });
    await context.addInitScript((config) => {
      (globalThis as unknown as { kioskBridge: unknown }).kioskBridge = { config };
    }, { key: 'not-a-key', storeId: h.seed.store, apiBaseUrl: `${h.server.url}` });
    const page = await context.newPage();
    await page.goto(new URL('/', h.server.url).href);
    await page.locator('[data-screen="error"]').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe(locale);
    return { context, page };
  }
});
