import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { CODES } from './support/kiosk-catalog.js';
import { birthDate, enterBirthDate, scan, screenshot, td1 } from './support/kiosk.js';

const h = useBrowserHarness({ features: ['identity-logs'] });
const kiosk = () => h.kiosk();

const lines = (page: Page) => page.locator('.cart li.line');
const refusal = (page: Page) => page.locator('[data-screen="age-refused"]');

/** Scans the codes, waits for their lines and starts paying: the age check shows. */
async function checkout(page: Page, codes: string[]): Promise<void> {
  for (const code of codes) await scan(page, code);
  await expect.poll(() => lines(page).count()).toBe(codes.length);
  await page.getByRole('button', { name: 'Bezahlen' }).click();
  await page.locator('[data-screen="age-check"]').waitFor();
}

/** The lines the refusal lists, each as its name and the age it is sold from. */
const refusedLines = (page: Page) =>
  refusal(page)
    .locator('.refused-lines li')
    .evaluateAll((items) => items.map((li) => [li.querySelector('.name')?.textContent, li.querySelector('.age')?.textContent]));

/** A date of birth as the MRZ writes it: YYMMDD. */
const mrzBirth = (date: { day: string; month: string; year: string }) => `${date.year.slice(2)}${date.month.padStart(2, '0')}${date.day.padStart(2, '0')}`;

const identityLogs = async () => (await h.client.get('/identity-logs?limit=100')).body.data as Record<string, unknown>[];

describe('age by product', () => {
  it('asks for the highest age the cart holds', async () => {
    const page = await kiosk();
    await checkout(page, [CODES.beer]);
    const intro = page.locator('[data-screen="age-check"] [data-minimum-age]');
    expect(await intro.getAttribute('data-minimum-age')).toBe('16');
    expect(await intro.textContent()).toContain('ab 16 Jahren');
    await page.getByRole('button', { name: 'Zurück' }).click();
    await scan(page, CODES.kirsch);
    await expect.poll(() => lines(page).count()).toBe(2);
    await page.getByRole('button', { name: 'Bezahlen' }).click();
    expect(await intro.getAttribute('data-minimum-age')).toBe('18');
    expect(await intro.textContent()).toContain('ab 18 Jahren');
  });

  it('sells beer to a 16-year-old', async () => {
    const page = await kiosk();
    await checkout(page, [CODES.beer]);
    await enterBirthDate(page, birthDate(16));
    await page.locator('[data-screen="payment"]').waitFor();
  });

  it('takes the spirits out of a 16-year-old\'s cart and goes on to pay for the beer', async () => {
    const page = await kiosk();
    await checkout(page, [CODES.milk, CODES.beer, CODES.kirsch]);
    await enterBirthDate(page, birthDate(16));
    await refusal(page).waitFor();
    expect(await refusedLines(page)).toEqual([['Kirsch 35cl', 'ab 18']]);
    await screenshot(page, '09b-age-mixed-cart');
    await page.getByRole('button', { name: 'Diese Produkte entfernen' }).click();
    await page.locator('[data-screen="payment"]').waitFor();
    await page.getByRole('button', { name: 'Zurück' }).click();
    await expect.poll(() => lines(page).locator('.name').allTextContents()).toEqual(['Bio Vollmilch 1l', 'Lagerbier 50cl']);
  });

  it('takes beer and spirits out for someone a day short of 16, and the cart says what went', async () => {
    const page = await kiosk();
    await checkout(page, [CODES.beer, CODES.milk, CODES.kirsch]);
    await enterBirthDate(page, birthDate(16, 1));
    await refusal(page).waitFor();
    expect(await refusedLines(page)).toEqual([
      ['Lagerbier 50cl', 'ab 16'],
      ['Kirsch 35cl', 'ab 18'],
    ]);
    await page.getByRole('button', { name: 'Diese Produkte entfernen' }).click();
    await expect.poll(() => lines(page).locator('.name').allTextContents()).toEqual(['Bio Vollmilch 1l']);
    expect(await page.locator('.message').textContent()).toBe('Entfernt: Lagerbier 50cl und Kirsch 35cl.');
  });

  it('applies the same ages to an ID card read from its MRZ', async () => {
    const born = birthDate(16);
    const card = td1('MEIER', 'LENA', mrzBirth(born));
    const page = await kiosk();
    await checkout(page, [CODES.beer]);
    for (const line of card) await scan(page, line);
    await page.locator('[data-screen="payment"]').waitFor();

    await page.getByRole('button', { name: 'Zurück' }).click();
    await scan(page, CODES.kirsch);
    await expect.poll(() => lines(page).count()).toBe(2);
    await page.getByRole('button', { name: 'Bezahlen' }).click();
    await page.locator('[data-screen="age-check"]').waitFor();
    for (const line of card) await scan(page, line);
    await refusal(page).waitFor();
    expect(await refusedLines(page)).toEqual([['Kirsch 35cl', 'ab 18']]);
    const iso = `${born.year}-${born.month.padStart(2, '0')}-${born.day.padStart(2, '0')}`;
    const checks = (await identityLogs()).filter((log) => log.birthDate === iso && log.source === 'id_card_td1');
    expect(checks.map((log) => log.access)).toEqual(expect.arrayContaining([true, false]));
  });
});
