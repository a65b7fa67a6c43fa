import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { makeImage } from './support/images.js';
import { scan } from './support/kiosk.js';

const h = useBrowserHarness({ catalog: false });

beforeAll(async () => {
  await h.client.post('/products', { name: 'Bio Vollmilch 1l', price: 195, taxCategory: '2.6', barcode: '7610000000017' });
});

const signedIn = (locale: string): Promise<Page> => h.staff('#catalog table[data-table="products"]', { locale });

const isOpen = (dialog: Locator) => dialog.evaluate((el) => (el as unknown as { open: boolean }).open);
const withBarcode = async (code: string) => (await h.client.get(`/products?barcode=${code}`)).body.data as { id: string; name: string; price: number; imageUrl?: string }[];

describe('saving a product on the staff page is one outcome', () => {
  it('keeps a product whose image the server refuses saved, says so next to the image, and a retry sends only the image', async () => {
    const page = await signedIn('de-CH');
    const dialog = page.locator('#product-dialog');
    await page.getByRole('button', { name: 'Neues Produkt' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Alpkäse 300 g');
    await dialog.getByLabel('Preis', { exact: true }).fill('9,80');
    await dialog.getByLabel('Strichcode', { exact: true }).fill('7610000001007');
    // Bytes that call themselves a PNG but are none: the server refuses them.
    await dialog.getByLabel('Neues Bild').setInputFiles({ name: 'kaese.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await dialog.locator('[data-preview]').waitFor();
    const creations: string[] = [];
    page.on('request', (req) => req.method() === 'POST' && req.url().endsWith('/api/v1/products') && creations.push(req.url()));
    await dialog.getByRole('button', { name: 'Speichern' }).click();

    const problem = dialog.locator('#product-image-problem');
    await expect.poll(() => problem.textContent()).toMatch(/^Das Produkt ist gespeichert, das Bild nicht: die Datei ist kein JPEG-, PNG-, WebP- oder GIF-Bild/);
    expect(await isOpen(dialog)).toBe(true);
    expect(await problem.textContent()).not.toMatch(/[A-Za-z]+ [a-z]+ (is|are|not) /);
    const [saved] = await withBarcode('7610000001007');
    expect(saved).toMatchObject({ name: 'Alpkäse 300 g', price: 980 });
    expect(saved!.imageUrl ?? '').toBe('');

    await dialog.getByLabel('Neues Bild').setInputFiles({ name: 'kaese.png', mimeType: 'image/png', buffer: await makeImage('png', { width: 80, height: 60 }) });
    await dialog.locator('[data-preview]').waitFor();
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect.poll(() => isOpen(dialog)).toBe(false);

    const after = await withBarcode('7610000001007');
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(saved!.id);
    expect(after[0]!.imageUrl).toMatch(/^http/);
    expect(creations).toHaveLength(1);
  });

  it('creates one product when the answer to the first save is lost and staff save again', async () => {
    const page = await signedIn('en-US');
    const dialog = page.locator('#product-dialog');
    await page.getByRole('button', { name: 'New product' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Holunderblütensirup');
    await dialog.getByLabel('Price', { exact: true }).fill('8.50');
    await dialog.getByLabel('Barcode', { exact: true }).fill('7610000001014');
    let lost = 0;
    // The first creation reaches the server; its answer never reaches the page.
    await page.route('**/api/v1/products', async (route) => {
      if (route.request().method() !== 'POST' || lost > 0) return route.continue();
      lost += 1;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Not saved: the server does not answer' }).waitFor();
    expect(await withBarcode('7610000001014')).toHaveLength(1);

    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('#catalog [role="status"]', { hasText: 'Holunderblütensirup is in the catalog.' }).waitFor();
    expect(lost).toBe(1);
    expect(await withBarcode('7610000001014')).toHaveLength(1);
  });

  it('asks before Escape or Cancel throws away a typed price, and closes at once when nothing was typed', async () => {
    const id = (await h.client.post('/products', { name: 'Bergheu-Tee', price: 650, taxCategory: '2.6', barcode: '7610000001021' })).body.id;
    const page = await signedIn('fr-CH');
    const dialog = page.locator('#product-dialog');
    await page.locator('#catalog-q').fill('Bergheu');
    await page.locator(`[data-product="${id}"] [data-action="edit"]`).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => isOpen(dialog)).toBe(false);

    await page.locator(`[data-product="${id}"] [data-action="edit"]`).click();
    await dialog.getByLabel('Prix', { exact: true }).fill('7,20');
    await page.keyboard.press('Escape');
    await dialog.getByText('Abandonner vos modifications ?').waitFor();
    await dialog.getByRole('button', { name: 'Continuer' }).click();
    expect(await dialog.getByLabel('Prix', { exact: true }).inputValue()).toBe('7,20');

    await dialog.locator('[data-action="cancel"]').click();
    await dialog.getByRole('button', { name: 'Abandonner' }).click();
    await expect.poll(() => isOpen(dialog)).toBe(false);
    expect((await h.client.get(`/products/${id}`)).body.data.price).toBe(650);
  });

  it('opens a product scanned while another is open: at once when nothing was typed, after asking when something was', async () => {
    await h.client.post('/products', { name: 'Dinkelmehl 1 kg', price: 420, taxCategory: '2.6', barcode: '7610000001038' });
    await h.client.post('/products', { name: 'Rapsöl 5 dl', price: 690, taxCategory: '2.6', barcode: '7610000001045' });
    const page = await signedIn('en-US');
    const dialog = page.locator('#product-dialog');
    await scan(page, '7610000001038');
    await dialog.getByRole('heading', { name: 'Edit Dinkelmehl 1 kg' }).waitFor();
    await scan(page, '7610000001045');
    await dialog.getByRole('heading', { name: 'Edit Rapsöl 5 dl' }).waitFor();

    await dialog.getByLabel('Price', { exact: true }).fill('7.10');
    await scan(page, '7610000001038');
    await dialog.getByText('Scanned 7610000001038. Open it instead?').waitFor();
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(await dialog.getByLabel('Price', { exact: true }).inputValue()).toBe('7.10');
    await scan(page, '7610000001038');
    await dialog.getByRole('button', { name: 'Open the scanned product' }).click();
    await dialog.getByRole('heading', { name: 'Edit Dinkelmehl 1 kg' }).waitFor();
  });
});
