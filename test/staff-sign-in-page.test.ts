import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { useBrowserHarness } from './support/browser-harness.js';

const h = useBrowserHarness({ catalog: false });

// The page's globals, as the functions handed to page.evaluate see them (the tests compile without DOM types).
declare const sessionStorage: { length: number; key(i: number): string | null; getItem(key: string): string | null };
declare const localStorage: typeof sessionStorage;
declare const document: { cookie: string };

async function openStaffPage(): Promise<Page> {
  const page = await h.open('/status', { locale: 'en-US', timeout: 15_000 });
  await page.locator('#status', { hasText: 'running' }).waitFor();
  return page;
}

async function signIn(page: Page, key: string): Promise<void> {
  await page.locator('#staff-key').fill(key);
  await page.locator('#sign-in button[type="submit"]').click();
  await page.locator('[data-action="sign-out"]').waitFor();
}

/** Everything the page could read back: both storages, entry by entry, and the cookies script can see. */
const readable = (page: Page) =>
  page.evaluate(() => {
    const entries = (storage: typeof sessionStorage) => Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i) ?? '')}`);
    return { session: entries(sessionStorage), local: entries(localStorage), cookie: document.cookie };
  });

const ENDED = 'The sign-in has ended (after 12 hours, a sign-out in another tab, or its key was revoked). Sign in again with the key.';

describe('the staff page signed in for the working day', () => {
  it('opens a second tab signed in without the key, and keeps the key nowhere the page can read', async () => {
    const first = await openStaffPage();
    await signIn(first, h.org.writeKey);
    await first.locator('#keys tbody tr').first().waitFor();
    const seen = await readable(first);
    expect(JSON.stringify(seen)).not.toContain(h.org.writeKey);
    // HttpOnly: the sign-in's cookie is not among the cookies script sees.
    expect(seen.cookie).not.toContain('staff_sign_in');

    const second = await first.context().newPage();
    await second.goto(first.url());
    await second.locator('[data-action="sign-out"]').waitFor();
    expect(await second.locator('#staff').isVisible()).toBe(true);
    expect(await second.locator('#staff-key').count()).toBe(0);
    await second.locator('#keys tbody tr').first().waitFor();
    expect(JSON.stringify(await readable(second))).not.toContain(h.org.writeKey);
  });

  it("keeps a key typed while the first tab's check of its sign-in is still out, and signs in with it", async () => {
    const context = h.track(await h.browser.newContext({ locale: 'en-US' }));
    const page = await context.newPage();
    // The page's first call asks whether a sign-in lasts; its answer (none) comes only once the key is typed.
    let answer: () => void = () => undefined;
    const typed = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/v1/keys/current', async (route) => {
      await typed;
      await route.continue();
    });
    const checked = page.waitForResponse('**/api/v1/keys/current');
    await page.goto(new URL('/status', h.server.url).href);
    await page.locator('#staff-key').fill(h.org.writeKey);
    await page.locator('#staff-key').focus();
    answer();
    expect((await checked).status()).toBe(403);
    expect(await page.locator('#staff-key').inputValue()).toBe(h.org.writeKey);
    expect(await page.locator('#staff-key').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.locator('#sign-in button[type="submit"]').click();
    await page.locator('[data-action="sign-out"]').waitFor();
    await page.locator('#keys tbody tr').first().waitFor();
  });

  it('signs every tab out at sign-out: the other tab asks for the key again', async () => {
    const first = await openStaffPage();
    await signIn(first, h.org.writeKey);
    const second = await first.context().newPage();
    await second.goto(first.url());
    await second.locator('[data-action="sign-out"]').click();
    await second.locator('#sign-in').waitFor();
    // The first tab learns it at its next call: the next round of its refreshes.
    await first.locator('#sign-in').waitFor();
    expect(await first.locator('#message').textContent()).toBe(ENDED);
    expect(await first.locator('#staff').isHidden()).toBe(true);
  });

  it('asks for the key again once the key it signed in with is revoked', async () => {
    const counter = await h.client.post('/keys', { kind: 'write', name: 'Counter PC' });
    const page = await openStaffPage();
    await signIn(page, counter.body.key);
    expect((await api(h.server.url, h.org.writeKey).delete(`/keys/${counter.body.id}`)).status).toBe(200);
    await page.reload();
    await page.locator('#sign-in').waitFor();
    await expect.poll(() => page.locator('#message').textContent()).toBe(ENDED);
    expect(await page.locator('#staff').isHidden()).toBe(true);
  });
});
