import type { Supplier } from '../../shared/api/suppliers.js';
import { columnMapping, insertSql, replaceSql } from './column-map.js';
import { changedRows, type ChangedPageQuery } from './change-feed.js';
import type { Db } from './database.js';
import { pageLimit } from './page-limit.js';

const mapping = columnMapping({
  id: ['id', 'text'],
  organizationId: ['org_id', 'text'],
  name: ['name', 'text'],
  externalId: ['external_id', 'text'],
  company: ['company', 'text'],
  city: ['city', 'text'],
  street: ['street', 'text'],
  plz: ['plz', 'text'],
  email: ['email', 'text'],
  payoutEmail: ['payout_email', 'text'],
  orderEmail: ['order_email', 'text'],
  phone: ['phone', 'text'],
  contactPerson: ['contact_person', 'text'],
  contactPhone: ['contact_phone', 'text'],
  dailyMail: ['daily_mail', 'text'],
  supplierMargin: ['supplier_margin', 'number'],
  iban: ['iban', 'text'],
  bic: ['bic', 'text'],
  bankName: ['bank_name', 'text'],
  payoutsEnabled: ['payouts_enabled', 'bool'],
  deleted: ['deleted', 'bool'],
  createdate: ['createdate', 'text'],
});

const COLUMNS = [...mapping.columns, 'lastupdate'];

const fromRow = (row: Record<string, unknown>) => mapping.fromRow(row) as Supplier;

export function createSupplierStore(db: Db) {
  const insert = db.prepare(insertSql('suppliers', COLUMNS));
  const replace = db.prepare(replaceSql('suppliers', COLUMNS));
  const byId = db.prepare<[string, string], Record<string, unknown>>('SELECT * FROM suppliers WHERE id = ? AND org_id = ?');
  // Binary order of `name`, ties by id: the same order on every kiosk and upstream.
  const activeByName = db.prepare<[string, number], Record<string, unknown>>(
    `SELECT * FROM suppliers WHERE org_id = ? AND deleted = 0 ORDER BY name, id LIMIT ${pageLimit('?')}`,
  );
  const changed = changedRows(db, 'suppliers');

  return {
    /** `lastupdate` is kept for synchronisation; it is not part of the Supplier shape. */
    insert(supplier: Supplier, lastupdate: string): void {
      insert.run({ ...mapping.toRow(supplier), lastupdate });
    },
    /** Replaces every stored field of an existing supplier. */
    replace(supplier: Supplier, lastupdate: string): void {
      replace.run({ ...mapping.toRow(supplier), lastupdate });
    },
    get(orgId: string, id: string): Supplier | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    listActiveByName(orgId: string, limit: number): Supplier[] {
      return activeByName.all(orgId, limit).map(fromRow);
    },
    /** The change feed: suppliers changed after `q.since`, deleted ones included, with their `lastupdate`. */
    changedPage(q: ChangedPageQuery): { record: Supplier; lastupdate: string }[] {
      return changed(q).map(({ row, lastupdate }) => ({ record: fromRow(row), lastupdate }));
    },
  };
}

export type SupplierStore = ReturnType<typeof createSupplierStore>;
