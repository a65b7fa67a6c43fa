import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderLine } from '../../shared/api/orders.js';
import { newId } from '../../main/rules/ids.js';
import type { Caller } from '../../main/services/caller.js';
import type { Clock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { createSettlements } from '../../main/settlements/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { immediateTransaction } from '../../main/storage/transactions.js';

/**
 * `npm run bench:settlement`: a year of a farm shop with 30 suppliers at 500
 * sales a day (about 180,000 orders of 1-4 lines), then the settlement of one
 * month and, on a copy of the same data, of the whole year at once.
 */
const SUPPLIERS = 30;
const PER_DAY = Number(process.env.BENCH_SALES_PER_DAY ?? 500);
const YEAR = 2025;
const log = (text: string) => process.stdout.write(text + '\n');
const fixedClock = (at: Date): Clock => ({ now: () => new Date(at) });

const dir = mkdtempSync(join(tmpdir(), 'retail-bench-settlement-'));
const file = join(dir, DATABASE_FILE);
const db = openDatabase(file, { synchronous: 'NORMAL' });
const services = createServices({ db, clock: fixedClock(new Date(`${YEAR}-01-01T00:00:00Z`)) });
const org = services.organizations.create({ name: 'Bench', features: [] });
const caller: Caller = { orgId: org.id, keyKind: 'write', features: [] };
const store = services.retailStores.create(caller, { name: 'Hofladen', generalMargin: 20 });
const suppliers = Array.from({ length: SUPPLIERS }, (_, i) =>
  services.suppliers.create(caller, { name: `Hof ${i}`, iban: 'CH5604835012345678009', payoutsEnabled: true, ...(i % 3 === 0 ? { supplierMargin: 15 } : {}) }),
);

log(`${PER_DAY} sales a day for a year, ${SUPPLIERS} suppliers…`);
const started = performance.now();
let orders = 0;
for (let day = 0; day < 365; day += 1) {
  const dayStart = Date.UTC(YEAR, 0, 1) + day * 86_400_000 + 7 * 3_600_000;
  immediateTransaction(db, () => {
    for (let i = 0; i < PER_DAY; i += 1) {
      const at = new Date(dayStart + i * 60_000).toISOString();
      const lines: OrderLine[] = Array.from({ length: 1 + ((i * 7 + day) % 4) }, (_, n) => {
        const price = 150 + ((i * 31 + n * 17) % 900);
        return {
          productId: `p${(i + n) % 300}`,
          quantity: n === 1 ? 0.355 : 1,
          title: `Artikel ${(i + n) % 300}`,
          price,
          netPrice: price - Math.round((price * 0.026) / 1.026),
          tax: Math.round((price * 0.026) / 1.026),
          taxRate: 0.026,
          type: 'product',
          supplier: suppliers[(i + n * 11 + day) % SUPPLIERS]!,
          deposit: 0,
        };
      });
      const id = newId();
      const price = lines.reduce((s, l) => s + l.price, 0);
      services.stores.orders.insert(org.id, { id, orderId: id, store, price, paymentState: 'successful', orderDate: at, deleted: false, products: lines }, at);
      orders += 1;
    }
  });
}
log(`  ${orders} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);
db.prepare(`VACUUM INTO ?`).run(join(dir, 'year.sqlite'));

function settle(on: typeof db, to: string): { ms: number; lines: number } {
  const s = createServices({ db: on, clock: fixedClock(new Date(`${YEAR + 1}-01-02T00:00:00Z`)) });
  const settlements = createSettlements({ db: on, clock: fixedClock(new Date(`${YEAR + 1}-01-02T00:00:00Z`)), stores: s.stores.retailStores, suppliers: s.stores.suppliers });
  const t0 = performance.now();
  const id = settlements.service.create(caller, { to });
  const ms = performance.now() - t0;
  const lines = settlements.service.get(caller, id).suppliers.reduce((sum, x) => sum + x.lines, 0);
  return { ms, lines };
}

const month = settle(db, `${YEAR}-02-01T00:00:00.000Z`);
log(`month (January): ${month.lines} lines in ${month.ms.toFixed(0)} ms (target < 2000 ms)`);
const next = settle(db, `${YEAR}-03-01T00:00:00.000Z`);
log(`next month (February, January settled): ${next.lines} lines in ${next.ms.toFixed(0)} ms`);
db.close();
const yearDb = openDatabase(join(dir, 'year.sqlite'), { synchronous: 'NORMAL' });
const year = settle(yearDb, `${YEAR + 1}-01-01T00:00:00.000Z`);
log(`year: ${year.lines} lines in ${year.ms.toFixed(0)} ms (target < 10000 ms)`);
yearDb.close();
rmSync(dir, { recursive: true, force: true });
