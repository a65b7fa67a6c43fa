import sharp from 'sharp';
import type { Api } from './api.js';
import { imageForm } from './images.js';
import { withCheckDigit } from './ean13.js';

const day = 24 * 3600 * 1000;

/** Barcodes of the seeded catalog, by what each one tests. */
export const CODES = {
  milk: '7610000000017',
  water: '7610000000024',
  chocolate: '7610000000031',
  apples: '7610000000048',
  saleStop: '7610000000055',
  deactivated: '7610000000062',
  flowers: '7610000000079',
  /** Sold from 16 (`minimumAge: 16`). */
  beer: '7610000000086',
  /** Spirits: `ageRestriction` alone, so sold from 18. */
  kirsch: withCheckDigit('761000000009'),
  cheese: withCheckDigit('211234500000'),
  /** A scale's weight label for 1,500 g of the cheese. */
  cheeseLabel: withCheckDigit('211234501500'),
};

async function create(client: Api, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await client.post(path, body);
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** A product picture made with sharp: a coloured disc on white. */
async function uploadPicture(client: Api, productId: string, color: string): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240"><rect width="240" height="240" fill="#fff"/><circle cx="120" cy="120" r="90" fill="${color}"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const res = await client.request('POST', `/products/${productId}/image`, { body: imageForm(png, 'image/png') });
  if (res.status !== 200) throw new Error(`image upload answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** A small shop: a bakery category shown on screen, drinks with deposit, a sale, shared codes, a scale product. */
export async function seedKioskCatalog(client: Api) {
  const now = Date.now();
  const supplier = await create(client, '/suppliers', { name: 'Molkerei Alpenblick' });
  const bakery = await create(client, '/categories', { name: 'Bäckerei', showOnScreen: true, index: 1 });
  const product = (body: Record<string, unknown>) => create(client, '/products', { taxCategory: '2.6', ...body });
  const ids = {
    milk: await product({ name: 'Bio Vollmilch 1l', price: 195, barcode: CODES.milk, supplier, description: 'Frische Vollmilch aus dem Emmental.' }),
    water: await product({ name: 'Mineralwasser 1.5l', price: 120, barcode: CODES.water, depositProduct: 50, depositProductLabel: 'Pfand PET' }),
    chocolate: await product({
      name: 'Milchschokolade 100g',
      price: 300,
      salePrice: 250,
      salePriceDateFrom: new Date(now - day).toISOString(),
      salePriceDateTo: new Date(now + day).toISOString(),
      barcode: CODES.chocolate,
    }),
    gala: await product({ name: 'Apfel Gala', price: 90, barcode: CODES.apples }),
    braeburn: await product({ name: 'Apfel Braeburn', price: 95, barcode: CODES.apples }),
    saleStop: await product({ name: 'Rückruf-Joghurt', price: 150, barcode: CODES.saleStop, saleStop: true }),
    deactivated: await product({ name: 'Wintertee', price: 450, barcode: CODES.deactivated, deactivated: true }),
    flowers: await product({ name: 'Blumen nach Wahl', price: 0, barcode: CODES.flowers, openInput: true, taxCategory: '8.1' }),
    beer: await product({ name: 'Lagerbier 50cl', price: 250, barcode: CODES.beer, minimumAge: 16, depositProduct: 30, taxCategory: '8.1' }),
    kirsch: await product({ name: 'Kirsch 35cl', price: 2450, barcode: CODES.kirsch, ageRestriction: true, taxCategory: '8.1' }),
    cheese: await product({ name: 'Bergkäse am Stück (kg)', price: 2400, barcode: CODES.cheese }),
    croissant: await product({ name: 'Gipfeli', price: 140, category: bakery, showOnScreen: true, index: 1 }),
    bread: await product({ name: 'Ruchbrot 500g', price: 380, category: bakery, showOnScreen: true, index: 2 }),
  };
  await Promise.all([uploadPicture(client, ids.croissant, '#d89b3c'), uploadPicture(client, ids.bread, '#8a5a2b'), uploadPicture(client, ids.milk, '#3d7fd1')]);
  const storeBase = {
    paymentCash: true,
    paymentCashOffline: true,
    paymentProviderA: true,
    paymentProviderB: false,
    languageMain: 'de',
    languageMulti: true,
    languageSelector: ['de', 'fr', 'it', 'en'],
    showSupplier: true,
    showInfoButton: true,
    playSound: true,
    standardSound: 'chime',
    customMessage: 'Heute frische Gipfeli!',
    backgroundColor: '#eef3ea',
    backgroundFontColor: '#1b2a12',
    translations: { de: { welcome: 'Grüezi im Hofladen!' } },
  };
  const store = await create(client, '/stores', { name: 'Hofladen Sonnenberg', city: 'Bern', deleteCountdown: 0, ...storeBase });
  const idleStore = await create(client, '/stores', { name: 'Hofladen Bahnhof', city: 'Thun', deleteCountdown: 3, ...storeBase });
  return { ids, store, idleStore, supplier, bakery };
}
