import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { seriousViolations } from './support/axe.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { makeImage } from './support/images.js';
import { scan, screenshot } from './support/kiosk.js';

const h = useBrowserHarness({ catalog: false, features: ['barcode-aliases'] });
let store: string;
let dairy: string;

const MILK_CODE = '7610000000017';

beforeAll(async () => {
  store = (await h.client.post('/stores', { name: 'Hofladen Sonnenberg', languageMain: 'de', paymentCash: true })).body.id;
  dairy = (await h.client.post('/categories', { name: 'Milchprodukte', index: 10, showOnScreen: true })).body.id;
  await (h.client.post('/products', { name: 'Bio Vollmilch 1l', price: 195, taxCategory: '2.6', barcode: MILK_CODE, category: dairy }));
});

const signedIn = (locale = 'en-US'): Promise<Page> => h.staff('#catalog table[data-table="products"]', { locale });

const product = async (id: string) => (await h.client.get(`/products/${id}`)).body.data;
const kioskSees = async (code: string) => (await api(h.server.url, await h.kioskKey(store)).get(`/products?barcode=${code}`)).body.data;
const productRow = (page: Page, name: string) => page.locator('#catalog tr', { hasText: name });

const expectAccessible = async (page: Page, screen: string) =>
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });

describe("the staff page's catalog", () => {
  it('starts a new product from a scanned barcode the catalog lacks, and opens a known one for editing', async () => {
    const page = await signedIn();
    await scan(page, '7610000000994');
    const dialog = page.locator('#product-dialog');
    await dialog.getByRole('heading', { name: 'New product' }).waitFor();
    expect(await dialog.getByLabel('Barcode', { exact: true }).inputValue()).toBe('7610000000994');
    await dialog.getByLabel('Name', { exact: true }).fill('Bergkäse 250 g');
    await dialog.getByLabel('Price', { exact: true }).fill('7,90');
    await dialog.getByLabel('Category', { exact: true }).selectOption({ label: 'Milchprodukte' });
    await screenshot(page, '28-staff-catalog-new');
    await expectAccessible(page, 'new product');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('#catalog [role="status"]', { hasText: 'Bergkäse 250 g is in the catalog.' }).waitFor();

    const [created] = await kioskSees('7610000000994');
    expect(created).toMatchObject({ name: 'Bergkäse 250 g', price: 790, taxCategory: '2.6', category: dairy, barcode: '7610000000994' });
    // The write went through the API, so it waits in the outbox for sync like any other.
    const outbox = await h.client.get('/sync');
    expect(outbox.body.data.pending).toBeGreaterThan(0);

    await scan(page, MILK_CODE);
    await dialog.getByRole('heading', { name: 'Edit Bio Vollmilch 1l' }).waitFor();
    expect(await dialog.getByLabel('Price', { exact: true }).inputValue()).toBe('1.95');
  });

  it('finds a product by the kiosk search with a typo, and a price changed by keyboard is what the kiosk sells at', async () => {
    const page = await signedIn();
    await page.locator('#catalog-q').fill('volmilch');
    await page.locator('#catalog tr[data-product]').first().waitFor();
    await expect.poll(() => page.locator('#catalog tbody tr td:first-child').allTextContents()).toEqual(['Bio Vollmilch 1l']);
    await productRow(page, 'Bio Vollmilch 1l').getByRole('button', { name: 'Edit Bio Vollmilch 1l' }).focus();
    await page.keyboard.press('Enter');
    const price = page.locator('#product-dialog').getByLabel('Price', { exact: true });
    await expect.poll(() => price.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('2.15');
    await page.locator('#product-dialog').getByLabel('Sold out').check();
    await page.locator('#product-dialog').getByLabel('Age limit').selectOption('16');
    await page.locator('#product-dialog').getByLabel('Deposit per unit').fill('0.30');
    await page.keyboard.press('Enter');
    await page.locator('#catalog [role="status"]', { hasText: 'Bio Vollmilch 1l is saved.' }).waitFor();

    const [sold] = await kioskSees(MILK_CODE);
    expect(sold).toMatchObject({ price: 215, saleStop: true, ageRestriction: true, minimumAge: 16, depositProduct: 30 });
    expect(await productRow(page, 'Bio Vollmilch 1l').locator('td').nth(2).textContent()).toMatch(/2\.15/);

    // The filters keep only what they name, on every page.
    await page.locator('#catalog-q').fill('');
    await page.locator('#catalog-filter-saleStop').check();
    await expect.poll(() => page.locator('#catalog tbody tr td:first-child').allTextContents()).toEqual(['Bio Vollmilch 1l']);
  });

  it('uploads an image with a preview, and the product then has it', async () => {
    const id = (await h.client.post('/products', { name: 'Bienenhonig 500 g', price: 1290, taxCategory: '2.6', barcode: '7610000000956' })).body.id;
    const page = await signedIn();
    await page.locator('#catalog-filter-noImage').check();
    await productRow(page, 'Bienenhonig 500 g').getByRole('button', { name: 'Edit Bienenhonig 500 g' }).click();
    const dialog = page.locator('#product-dialog');
    await dialog.getByLabel('New image').setInputFiles({ name: 'honig.png', mimeType: 'image/png', buffer: await makeImage('png', { width: 120, height: 90 }) });
    const preview = dialog.getByRole('img', { name: 'Preview of the new image' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('#catalog [role="status"]', { hasText: 'Bienenhonig 500 g is saved.' }).waitFor();

    const stored = await product(id);
    expect(stored.imageUrl).toMatch(/^http/);
    expect((await fetch(stored.imageUrl)).status).toBe(200);
    // With the image, the product leaves the "No image" filter.
    await expect.poll(() => productRow(page, 'Bienenhonig 500 g').count()).toBe(0);

    await page.locator('#catalog-filter-noImage').uncheck();
    await productRow(page, 'Bienenhonig 500 g').getByRole('button', { name: 'Edit Bienenhonig 500 g' }).click();
    expect(await dialog.getByRole('img', { name: 'Current image' }).getAttribute('src')).toBe(stored.imageUrl);
    await dialog.getByLabel('Remove the image').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await product(id)).imageUrl).toBe('');
  });

  it('takes a deleted product back with Undo, and deletes it for good only once the Undo is passed', async () => {
    const id = (await h.client.post('/products', { name: 'Dinkelbrot', price: 520, taxCategory: '2.6' })).body.id;
    const page = await signedIn();
    await page.locator('#catalog-q').fill('Dinkelbrot');
    await productRow(page, 'Dinkelbrot').waitFor();
    await page.getByRole('button', { name: 'Delete Dinkelbrot' }).click();
    await expect.poll(() => productRow(page, 'Dinkelbrot').count()).toBe(0);
    await page.locator('#catalog [role="status"]', { hasText: 'Dinkelbrot is deleted.' }).waitFor();
    await screenshot(page, '29-staff-catalog-undo');
    await page.getByRole('button', { name: 'Undo' }).click();
    await productRow(page, 'Dinkelbrot').waitFor();
    expect((await product(id)).deleted).toBe(false);

    await page.getByRole('button', { name: 'Delete Dinkelbrot' }).click();
    await page.getByRole('button', { name: 'OK', exact: true }).click();
    await expect.poll(async () => (await product(id)).deleted).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Undo' }).count()).toBe(0);
  });

  it('adds, renames, reorders and hides categories', async () => {
    const page = await signedIn();
    const categories = page.locator('#catalog-categories');
    for (const name of ['Getränke', 'Brot']) {
      await categories.getByLabel('New category').fill(name);
      await categories.getByRole('button', { name: 'Add category' }).click();
      await categories.locator('li input[type="text"]').nth(0).waitFor();
      await page.locator('#catalog [role="status"]', { hasText: `Category ${name} added.` }).waitFor();
    }
    // Added last, Brot is in place 3.
    const brot = categories.getByLabel('Name of category 3');
    expect(await brot.inputValue()).toBe('Brot');
    await brot.fill('Brot und Backwaren');
    await categories.locator('li').nth(2).getByRole('button', { name: 'Rename' }).click();
    await page.locator('#catalog [role="status"]', { hasText: 'Category renamed to Brot und Backwaren.' }).waitFor();
    await categories.getByRole('button', { name: 'Move Brot und Backwaren up' }).click();
    await page.locator('#catalog [role="status"]', { hasText: 'Brot und Backwaren is now in place 2.' }).waitFor();
    await categories.getByRole('button', { name: 'Move Brot und Backwaren up' }).click();
    await page.locator('#catalog [role="status"]', { hasText: 'Brot und Backwaren is now in place 1.' }).waitFor();
    expect(await categories.getByLabel('Name of category 3').inputValue()).toBe('Getränke');
    await categories.locator('li').nth(2).getByLabel('On the kiosk screen').uncheck();
    await page.locator('#catalog [role="status"]', { hasText: 'Getränke no longer shows on the kiosk screen.' }).waitFor();

    const listed = (await h.client.get('/categories')).body.data as { name: string; index?: number; showOnScreen?: boolean }[];
    const order = [...listed].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((c) => [c.name, c.showOnScreen]);
    expect(order).toEqual([
      ['Brot und Backwaren', true],
      ['Milchprodukte', true],
      ['Getränke', false],
    ]);
    const names = await Promise.all([1, 2, 3].map((place) => categories.getByLabel(`Name of category ${place}`).inputValue()));
    expect(names).toEqual(['Brot und Backwaren', 'Milchprodukte', 'Getränke']);
  });

  it('passes axe-core in all four languages, with the product form open', async () => {
    for (const [locale, title] of [
      ['de-CH', 'Sortiment'],
      ['fr-CH', 'Assortiment'],
      ['it-CH', 'Assortimento'],
      ['en-US', 'Catalog'],
    ] as const) {
      const page = await signedIn(locale);
      await page.locator('#catalog-title', { hasText: title }).waitFor();
      await expectAccessible(page, `catalog ${locale}`);
      if (locale === 'de-CH') await page.locator('#catalog').evaluate((el) => el.scrollIntoView()).then(() => screenshot(page, '30-staff-catalog-de'));
      await page.locator('#catalog tbody tr [data-action="edit"]').first().click();
      await page.locator('#product-dialog[open]').waitFor();
      await expectAccessible(page, `product form ${locale}`);
      await page.keyboard.press('Escape');
      await page.context().close();
    }
  });

  it('keeps a filter exact over several pages: every product that passes, each once', async () => {
    const pantry = (await h.client.post('/categories', { name: 'Vorrat' })).body.id;
    const made = await Promise.all(
      Array.from({ length: 60 }, (_, i) => h.client.post('/products', { name: `Vorrat ${i}`, price: 100 + i, taxCategory: '2.6', category: pantry, saleStop: i % 3 === 0 })),
    );
    expect(made.every((res) => res.status === 200)).toBe(true);
    const page = await signedIn();
    const status = page.locator('#catalog-results [role="status"]');
    const names = () => page.locator('#catalog tbody tr td:first-child').allTextContents();
    await page.locator('#catalog-filter-category').selectOption({ label: 'Vorrat' });
    // The unfiltered first page has 25 rows too: wait for the filtered one.
    await expect.poll(async () => (await names()).every((name) => name.startsWith('Vorrat '))).toBe(true);
    const seen: string[] = [];
    for (const [number, count] of [[1, 25], [2, 25], [3, 10]] as const) {
      await status.filter({ hasText: `Page ${number}: ${count} products` }).waitFor();
      seen.push(...(await names()));
      if (number < 3) await page.getByRole('button', { name: 'Next page' }).click();
    }
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    expect(seen.sort()).toEqual(Array.from({ length: 60 }, (_, i) => `Vorrat ${i}`).sort());

    await page.getByRole('button', { name: 'Previous page' }).click();
    await status.filter({ hasText: 'Page 2: 25 products' }).waitFor();
    await page.locator('#catalog-filter-saleStop').check();
    await status.filter({ hasText: 'Page 1: 20 products' }).waitFor();
    expect((await names()).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `Vorrat ${i * 3}`).sort());
  });
});
