import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { screenshot } from './support/kiosk.js';

const h = useBrowserHarness({ catalog: false });

beforeAll(async () => {
  const category = (await h.client.post('/categories', { name: 'Milchprodukte und Käse aus der Region', index: 1, marginMinPercent: 20, marginMaxPercent: 45 })).body.id;
  await h.client.post('/products', { name: 'Bio Vollmilch aus dem Emmental, pasteurisiert, 1 Liter', price: 195, taxCategory: '2.6', barcode: '7610000000017', category, saleStop: true, depositProduct: 30 });
  await h.client.post('/products', { name: 'Bergkäse', price: 790, costPrice: 700, taxCategory: '2.6', barcode: '7610000000994', category });
});

const signedIn = (locale: string, width: number): Promise<Page> => h.staff('#catalog table[data-table="products"] tbody tr', { locale, viewport: { width, height: 900 } });

/** Elements of the section that reach past the window's right edge. */
const overflowing = (page: Page, section: string) =>
  page.locator(section).evaluate((root) => {
    const width = (root.ownerDocument.defaultView as unknown as { innerWidth: number }).innerWidth;
    type Box = { getBoundingClientRect(): { right: number }; tagName: string; textContent: string | null };
    return (Array.from(root.querySelectorAll('button, input, select, th, td')) as unknown as Box[])
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 30)}`);
  });

describe("the staff page's layout", () => {
  it.each([
    ['de-CH', 768],
    ['fr-CH', 768],
    ['de-CH', 1280],
    ['fr-CH', 1280],
  ] as const)('shows the catalog whole in %s at %i px: every button and cell inside the window', async (locale, width) => {
    const page = await signedIn(locale, width);
    expect(await overflowing(page, '#catalog')).toEqual([]);
    const deleteButton = page.locator('#catalog tbody tr').first().locator('[data-action="delete"]');
    await deleteButton.scrollIntoViewIfNeeded();
    expect(await deleteButton.isVisible()).toBe(true);
    await page.locator('#catalog').evaluate((el) => el.scrollIntoView());
    await screenshot(page, `staff-catalog-${locale.slice(0, 2)}-${width}`);
  });
});
