import sharp from 'sharp';
import { transform } from 'receiptline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Order } from '../shared/api/orders.js';
import { taxOf } from '../shared/order-pricing.js';
import { buildReceipt } from '../shared/receipt/receipt.js';
import { RECEIPT_CHARS_PER_LINE, receiptDocument } from '../shared/receipt/receipt-document.js';

/**
 * Draws docs/screens/20-printed-receipt.png: the receipt of a sample sale,
 * from the same ReceiptLine document the server turns into ESC/POS commands,
 * rendered by receiptline as SVG (one dot per pixel of a 203 dpi, 80 mm printer)
 * and made a PNG with sharp.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PICTURE = join(ROOT, 'docs', 'screens', '20-printed-receipt.png');

const line = (productId: string, title: string, quantity: number, price: number, taxRate: number, deposit = 0) => {
  const tax = taxOf(price, taxRate);
  return { productId, title, quantity, price, netPrice: price - tax, tax, taxRate, type: 'product', deposit };
};

const products = [
  line('milk', 'Bio Vollmilch 1l', 2, 390, 0.026),
  line('water', 'Mineralwasser 1.5l', 1, 120, 0.026, 50),
  line('chocolate', 'Milchschokolade 100g', 1, 250, 0.026),
  line('cheese', 'Bergkäse am Stück (kg)', 0.485, 1164, 0.026),
  line('beer', 'Lagerbier 50cl', 2, 500, 0.081, 60),
];

const order: Order = {
  id: 'Xq3Lr8TzW1bNk5cPa7Yd',
  orderId: '6f1d2c3b-4a5e-4f60-8a71-92b3c4d5e6f7',
  store: 'sonnenberg',
  price: products.reduce((sum, l) => sum + l.price + l.deposit, 0),
  paymentState: 'successful',
  paymentMethod: 'providerA',
  paymentBrand: 'Visa',
  orderDate: '2026-11-24T15:42:00.000Z',
  deleted: false,
  products,
};

const store = { name: 'Hofladen Sonnenberg', address: 'Sonnenbergstrasse 12', zipCode: '3013', city: 'Bern', vatNumber: 'CHE-109.322.551 MWST' };
const chocolate = { name: 'Milchschokolade 100g', price: 300, salePrice: 250, salePriceDateFrom: '2026-11-20T00:00:00.000Z', taxCategory: '2.6' as const };

export async function renderReceiptPicture(): Promise<void> {
  const receipt = buildReceipt(order, store, {
    language: 'de',
    receiptUrlTemplate: 'https://shop.example/r/{orderId}',
    productOf: (id) => (id === 'chocolate' ? chocolate : undefined),
  });
  const svg = transform(receiptDocument(receipt), { command: 'svg', cpl: RECEIPT_CHARS_PER_LINE, encoding: 'cp858' });
  await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).extend({ top: 24, bottom: 24, left: 24, right: 24, background: '#ffffff' }).png().toFile(PICTURE);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await renderReceiptPicture();
  console.log(`wrote ${PICTURE}`);
}
