import { DEFAULT_TIME_ZONE, localDayBounds } from '../../shared/time-zones.js';
import type { Db } from '../storage/database.js';
import type { DailySalesStore } from '../storage/daily-sales.js';
import type { StoreStore } from '../storage/stores.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { immediateTransaction } from '../storage/transactions.js';
import { languageOf } from './alert-texts.js';
import { dailySalesMail, type StoreSales } from './daily-sales-text.js';
import { mailAddresses } from './mail-address.js';
import { queueMail } from './queue-mail.js';

export interface DailySalesSources {
  db: Db;
  stores: StoreStore;
  suppliers: SupplierStore;
  sales: DailySalesStore;
}

type Tally = Map<string, Map<string, { title: string; quantity: number; amount: number }>>;

/**
 * Queues the suppliers' sales mails of `date` for an organization: one per
 * supplier whose `dailyMail` holds an address and whose lines sold that day
 * (counted as the daily report counts, in each store's time zone), none
 * otherwise. A supplier's mail for a day is queued once, whoever asks.
 * Answers how many this call queued.
 */
export function queueDailySales(sources: DailySalesSources, orgId: string, date: string, now: Date): number {
  const bySupplier = new Map<string, { tally: Tally; stores: Map<string, { name: string; language: string | undefined }> }>();
  let afterId: string | undefined;
  for (;;) {
    const page = sources.stores.page({ orgId, afterId, limit: 500 });
    for (const store of page) {
      const { start, end } = localDayBounds(date, store.timeZone ?? DEFAULT_TIME_ZONE);
      for (const order of sources.sales.countedOrders(orgId, store.id, new Date(start).toISOString(), new Date(end).toISOString())) {
        for (const line of order.lines) {
          if (!line.supplier) continue;
          const entry = bySupplier.get(line.supplier) ?? { tally: new Map(), stores: new Map() };
          bySupplier.set(line.supplier, entry);
          entry.stores.set(store.id, { name: store.name, language: store.languageMain ?? undefined });
          const products = entry.tally.get(store.id) ?? new Map();
          entry.tally.set(store.id, products);
          const product = products.get(line.productId) ?? { title: line.title, quantity: 0, amount: 0 };
          product.quantity += line.quantity;
          product.amount += line.price;
          products.set(line.productId, product);
        }
      }
    }
    if (page.length < 500) break;
    afterId = page[page.length - 1]!.id;
  }
  let queued = 0;
  immediateTransaction(sources.db, () => {
    for (const [supplierId, entry] of bySupplier) {
      const supplier = sources.suppliers.get(orgId, supplierId);
      if (!supplier || supplier.deleted || !mailAddresses(supplier.dailyMail)) continue;
      const stores: StoreSales[] = [...entry.tally].map(([storeId, products]) => ({
        storeName: entry.stores.get(storeId)!.name,
        lines: [...products.values()].sort((a, b) => a.title.localeCompare(b.title)),
      }));
      const language = languageOf(entry.stores.values().next().value?.language);
      const words = dailySalesMail({ supplierName: supplier.name, date, language, stores });
      const mail = queueMail(sources.db, {
        orgId,
        kind: 'daily-sales',
        to: supplier.dailyMail!,
        subject: words.subject,
        text: words.text,
        onceKey: `daily-sales:${supplierId}:${date}`,
        at: now,
      });
      if (mail) queued += 1;
    }
  });
  return queued;
}
