import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { useBrowserHarness } from './support/browser-harness.js';

const h = useBrowserHarness({ catalog: false });

beforeAll(async () => {
  const gemuese = (await h.client.post('/categories', { name: 'Gemüse', marginMinPercent: 20, marginMaxPercent: 40 })).body.id;
  const products = [
    { name: 'Rüebli Bund', price: 400, costPrice: 350, category: gemuese },
    { name: 'Kürbis', price: 500, costPrice: 200, category: gemuese },
    { name: 'Lauch', price: 400, costPrice: 300, category: gemuese },
    { name: 'Sellerie', price: 300, category: gemuese },
  ];
  for (const product of products) expect((await h.client.post('/products', { ...product, taxCategory: '2.6' })).status).toBeLessThan(300);
});

const signedIn = (locale: string): Promise<Page> => h.staff('#catalog table[data-table="products"]', { locale });

/** The margin cell of a product's row: its text and how it is marked. */
const marginCell = async (page: Page, name: string) => {
  const cell = page.locator('#catalog tr', { hasText: name }).locator('td').nth(4);
  return { text: await cell.innerText(), standing: await cell.getAttribute('data-margin') };
};

describe("the staff page's catalog shows each product's margin against its category's range", () => {
  it('marks the products outside the range in the list, saying on which side', async () => {
    const page = await signedIn('en-US');
    await page.locator('#catalog tr', { hasText: 'Sellerie' }).waitFor();
    expect(await page.locator('#catalog thead th').nth(4).textContent()).toBe('Margin');
    expect(await marginCell(page, 'Rüebli Bund')).toEqual({ text: "12.5 %\nbelow the category's minimum (20 %)", standing: 'below-min' });
    expect(await marginCell(page, 'Kürbis')).toEqual({ text: "60 %\nabove the category's maximum (40 %)", standing: 'above-max' });
    expect(await marginCell(page, 'Lauch')).toEqual({ text: '25 %', standing: 'inside' });
    expect(await marginCell(page, 'Sellerie')).toEqual({ text: '', standing: null });
    await page.close();
  });

  it('marks it in the form, and follows the price and category as they are typed', async () => {
    const page = await signedIn('de-CH');
    await page.locator('#catalog tr', { hasText: 'Rüebli Bund' }).getByRole('button', { name: 'Rüebli Bund bearbeiten' }).click();
    const dialog = page.locator('#product-dialog');
    const margin = dialog.getByLabel('Marge', { exact: true });
    // Swiss German writes francs with a no-break space after "CHF".
    const text = async () => (await margin.textContent())?.replace(/\u00a0/g, ' ');
    expect(await text()).toBe('12.5 % des Preises (Einstandspreis CHF 3.50) – unter dem Minimum der Kategorie (20 %)');
    expect(await margin.getAttribute('data-margin')).toBe('below-min');
    expect({ violations: await seriousViolations(page) }).toEqual({ violations: [] });

    await dialog.getByLabel('Preis', { exact: true }).fill('5.00');
    await expect.poll(text).toBe('30 % des Preises (Einstandspreis CHF 3.50)');
    expect(await margin.getAttribute('data-margin')).toBe('inside');
    await dialog.getByLabel('Preis', { exact: true }).fill('9.00');
    await expect.poll(() => margin.getAttribute('data-margin')).toBe('above-max');
    expect(await text()).toBe('61.1 % des Preises (Einstandspreis CHF 3.50) – über dem Maximum der Kategorie (40 %)');
    await dialog.getByLabel('Kategorie', { exact: true }).selectOption({ index: 0 });
    await expect.poll(() => margin.getAttribute('data-margin')).toBe('no-range');
    expect(await text()).toBe('61.1 % des Preises (Einstandspreis CHF 3.50)');
    await page.close();
  });

  it('says when a product has no cost price to tell its margin', async () => {
    const page = await signedIn('en-US');
    await page.locator('#catalog tr', { hasText: 'Sellerie' }).getByRole('button', { name: 'Edit Sellerie' }).click();
    expect(await page.locator('#product-dialog').getByLabel('Margin', { exact: true }).textContent()).toBe('Unknown: the product has no cost price.');
    await page.close();
  });
});
