import type { Category } from '../../shared/api/categories.js';
import type { Order } from '../../shared/api/orders.js';
import type { Product } from '../../shared/api/products.js';
import type { Store } from '../../shared/api/stores.js';
import type { Supplier } from '../../shared/api/suppliers.js';
import { TAX_CATEGORIES } from '../../shared/tax.js';
import { orderTotal, priceLine } from '../../shared/order-pricing.js';
import { newId } from '../../main/rules/ids.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import type { Db } from '../../main/storage/database.js';

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same catalog. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

const WORDS = {
  de: ['Vollmilch', 'Bergkäse', 'Müesli', 'Brötchen', 'Schokolade', 'Apfelsaft', 'Rüebli', 'Zopf', 'Kaffee', 'Joghurt', 'Butter', 'Würstli'],
  fr: ['Fromage', 'Pâtes', 'Crème', 'Café', 'Pain', 'Eau minérale', 'Chocolat', 'Thé', 'Confiture', 'Gâteau', 'Jambon', 'Pommes'],
  it: ['Formaggio', 'Pasta', 'Caffè', 'Pane', 'Acqua', 'Cioccolato', 'Limonata', 'Prosciutto', 'Biscotti', 'Gelato', 'Pesto', 'Olive'],
  en: ['Milk', 'Cheese', 'Bread', 'Coffee', 'Tea', 'Juice', 'Cookies', 'Butter', 'Honey', 'Yoghurt', 'Crackers', 'Lemonade'],
};
const ADJECTIVES = ['Bio', 'Classic', 'Extra', 'Léger', 'Dolce', 'Fresh', 'Alpin', 'Nature', 'Premium', 'Tradizionale', 'Süss', 'Doux'];
const SIZES = ['100g', '250g', '500g', '1kg', '330ml', '500ml', '1l', '1.5l', '6x', '12 Stk'];
const LANGUAGES = Object.keys(WORDS) as (keyof typeof WORDS)[];

export interface CatalogSize {
  products: number;
  orders: number;
  categories: number;
  suppliers: number;
  stores: number;
  /** Share of products with barcode aliases. */
  aliasShare: number;
  /** Days the orders are spread over, ending now. */
  orderDays: number;
}

export const FULL_SIZE: CatalogSize = {
  products: 100_000,
  orders: 200_000,
  categories: 200,
  suppliers: 500,
  stores: 20,
  aliasShare: 0.05,
  orderDays: 365,
};

export interface Catalog {
  productIds: string[];
  barcodes: string[];
  aliasCodes: string[];
  storeIds: string[];
  /** Words that occur in product names, for search queries. */
  words: string[];
  /** A day (UTC midnight) inside the order history. */
  orderDay: string;
}

/**
 * Writes a realistic catalog straight into the storage layer, as a pull from
 * the upstream would: no outbox entries, one transaction per table.
 */
export function generateCatalog(db: Db, orgId: string, size: CatalogSize, now = new Date()): Catalog {
  const rnd = random(20261121);
  const { stores } = createServices({ db, clock: systemClock });
  const stamp = now.toISOString();

  const storeIds = Array.from({ length: size.stores }, () => newId());
  const supplierIds = Array.from({ length: size.suppliers }, () => newId());
  const categoryIds = Array.from({ length: size.categories }, () => newId());

  db.transaction(() => {
    storeIds.forEach((id, i) => {
      const store: Store = {
        id,
        name: 'Dorfladen',
        city: `Filiale ${i + 1}`,
        languageMain: rnd.pick(['de', 'fr', 'it', 'en'] as const),
        deleted: false,
        createdate: stamp,
        lastupdate: stamp,
        instance: orgId,
      };
      stores.retailStores.insert(store);
    });
    supplierIds.forEach((id, i) => {
      const supplier: Supplier = { id, name: `Lieferant ${i + 1}`, organizationId: orgId, deleted: false, createdate: stamp };
      stores.suppliers.insert(supplier, stamp);
    });
    categoryIds.forEach((id, i) => {
      const category: Category = { id, name: `Kategorie ${i + 1}`, deleted: false, createdate: stamp };
      if (i % 10 === 1) category.hideStore = [rnd.pick(storeIds)];
      if (i % 10 === 2) category.allowStore = storeIds.slice(0, 5);
      stores.categories.insert(orgId, category, stamp);
    });
  })();

  const productIds: string[] = [];
  const barcodes: string[] = [];
  const aliasCodes: string[] = [];
  const priced: Product[] = [];
  db.transaction(() => {
    for (let i = 0; i < size.products; i++) {
      const words = WORDS[rnd.pick(LANGUAGES)];
      const barcode = String(7610000000000 + i * 7);
      const product: Product = {
        id: newId(),
        name: `${rnd.pick(ADJECTIVES)} ${rnd.pick(words)} ${rnd.pick(words)} ${rnd.pick(SIZES)}`,
        price: 50 + rnd.int(5000),
        taxCategory: rnd.pick(TAX_CATEGORIES),
        supplier: rnd.pick(supplierIds),
        category: rnd.pick(categoryIds),
        barcode,
        externalId: `ART-${i}`,
        description: `${rnd.pick(words)} aus der Region`,
        imageUrl: '',
        deleted: false,
        createdate: stamp,
        lastupdate: stamp,
        instance: orgId,
      };
      if (i % 9 === 0) product.depositProduct = 30;
      if (i % 13 === 0) {
        product.salePrice = Math.max(1, product.price - 20);
        product.salePriceDateFrom = new Date(now.getTime() - 100 * 86_400_000).toISOString();
        product.salePriceDateTo = new Date(now.getTime() - 50 * 86_400_000).toISOString();
      }
      if (rnd.next() < size.aliasShare) {
        const code = `a${barcode}`;
        product.barcodeAliases = [{ code, quantity: 6, price: product.price * 5 }];
        aliasCodes.push(code);
      }
      stores.products.insert(product);
      productIds.push(product.id);
      barcodes.push(barcode);
      priced.push(product);
    }
  })();

  const dayMs = 86_400_000;
  const first = now.getTime() - size.orderDays * dayMs;
  db.transaction(() => {
    for (let i = 0; i < size.orders; i++) {
      const orderDate = new Date(first + Math.floor((i / size.orders) * size.orderDays * dayMs) + rnd.int(60_000)).toISOString();
      const lines = Array.from({ length: 1 + rnd.int(5) }, () => {
        const product = rnd.pick(priced);
        return priceLine(product, { productId: product.id, quantity: 1 + rnd.int(3) }, orderDate);
      });
      const id = newId();
      const order: Order = {
        id,
        orderId: id,
        store: rnd.pick(storeIds),
        price: orderTotal(lines),
        paymentState: 'successful',
        paymentMethod: rnd.pick(['cash', 'card', 'twint']),
        orderDate,
        deleted: false,
        products: lines,
      };
      stores.orders.insert(orgId, order, orderDate);
    }
  })();

  const orderDay = new Date(first + Math.floor(size.orderDays / 2) * dayMs);
  orderDay.setUTCHours(0, 0, 0, 0);
  return {
    productIds,
    barcodes,
    aliasCodes,
    storeIds,
    words: [...Object.values(WORDS).flat(), ...ADJECTIVES],
    orderDay: orderDay.toISOString(),
  };
}
