import type { Store } from '../../shared/api/stores.js';
import { columnMapping, insertSql, replaceSql } from './column-map.js';
import { changedRows, type ChangedPageQuery } from './change-feed.js';
import type { Db } from './database.js';
import { pageLimit } from './page-limit.js';

const mapping = columnMapping({
  id: ['id', 'text'],
  instance: ['org_id', 'text'],
  name: ['name', 'text'],
  address: ['address', 'text'],
  zipCode: ['zip_code', 'text'],
  city: ['city', 'text'],
  vatNumber: ['vat_number', 'text'],
  paymentCash: ['payment_cash', 'bool'],
  paymentProviderA: ['payment_provider_a', 'bool'],
  paymentProviderB: ['payment_provider_b', 'bool'],
  paymentProviderBOffline: ['payment_provider_b_offline', 'bool'],
  paymentCashOffline: ['payment_cash_offline', 'bool'],
  showSupplier: ['show_supplier', 'bool'],
  hideTextStart: ['hide_text_start', 'bool'],
  generalMargin: ['general_margin', 'number'],
  customMessage: ['custom_message', 'text'],
  backgroundImageCart: ['background_image_cart', 'json'],
  backgroundImage: ['background_image', 'json'],
  backgroundColor: ['background_color', 'text'],
  backgroundFontColor: ['background_font_color', 'text'],
  playSound: ['play_sound', 'bool'],
  standardSound: ['standard_sound', 'text'],
  adminMail: ['admin_mail', 'text'],
  showInfoButton: ['show_info_button', 'bool'],
  deleteCountdown: ['delete_countdown', 'number'],
  logoUrl: ['logo_url', 'text'],
  languageMulti: ['language_multi', 'bool'],
  languageMain: ['language_main', 'text'],
  languageSelector: ['language_selector', 'json'],
  translations: ['translations', 'json'],
  receiptUrl: ['receipt_url', 'text'],
  timeZone: ['time_zone', 'text'],
  deleted: ['deleted', 'bool'],
  createdate: ['createdate', 'text'],
  lastupdate: ['lastupdate', 'text'],
});

type Row = Record<string, unknown>;

const fromRow = (row: Row) => mapping.fromRow(row) as Store;

export interface StorePageQuery {
  orgId: string;
  /** Serve rows with an id greater than this. */
  afterId?: string | undefined;
  limit: number;
}

export function createStoreStore(db: Db) {
  const insert = db.prepare(insertSql('stores', mapping.columns));
  const replace = db.prepare(replaceSql('stores', mapping.columns));
  const byId = db.prepare<[string, string], Row>('SELECT * FROM stores WHERE id = ? AND org_id = ?');
  const orgOf = db.prepare<[string], string>('SELECT org_id FROM stores WHERE id = ?').pluck();
  const deletedOf = db.prepare<[string, string], number>('SELECT deleted FROM stores WHERE id = ? AND org_id = ?').pluck();
  const page = db.prepare<[string, string, number], Row>(
    `SELECT * FROM stores WHERE org_id = ? AND deleted = 0 AND id > ? ORDER BY id LIMIT ${pageLimit('?')}`,
  );
  const changed = changedRows(db, 'stores');

  return {
    insert(store: Store): void {
      insert.run(mapping.toRow(store));
    },
    /** Replaces every stored field of an existing store. */
    replace(store: Store): void {
      replace.run(mapping.toRow(store));
    },
    get(orgId: string, id: string): Store | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    /** Whether a store of the organization is soft-deleted, undefined when it has none by that id: a sale's check, without the whole record. */
    isDeleted(orgId: string, id: string): boolean | undefined {
      const deleted = deletedOf.get(id, orgId);
      return deleted === undefined ? undefined : deleted === 1;
    },
    /** The organization a store belongs to; store ids are unique across organizations. */
    orgOf(id: string): string | undefined {
      return orgOf.get(id);
    },
    page(q: StorePageQuery): Store[] {
      return page.all(q.orgId, q.afterId ?? '', q.limit).map(fromRow);
    },
    /** The change feed: stores changed after `q.since`, deleted ones included. */
    changedPage(q: ChangedPageQuery): { record: Store; lastupdate: string }[] {
      return changed(q).map(({ row, lastupdate }) => ({ record: fromRow(row), lastupdate }));
    },
  };
}

export type StoreStore = ReturnType<typeof createStoreStore>;
