import type Database from 'better-sqlite3';

/** A supplier body with every writable field set, each with its API type. */
export const fullSupplier = (overrides: Record<string, unknown> = {}) => ({
  name: 'Molkerei Alpenblick',
  externalId: 'SUP-7',
  company: 'Alpenblick AG',
  city: 'Bern',
  street: 'Milchgasse 3',
  plz: '3011',
  email: 'info@alpenblick.example',
  payoutEmail: 'payouts@alpenblick.example',
  orderEmail: 'orders@alpenblick.example',
  phone: '+41 31 000 00 00',
  contactPerson: 'Anna Muster',
  contactPhone: '+41 79 000 00 00',
  dailyMail: 'daily@alpenblick.example',
  supplierMargin: 12.5,
  iban: 'CH93 0076 2011 6238 5295 7',
  bic: 'POFICHBEXXX',
  bankName: 'PostFinance',
  payoutsEnabled: true,
  ...overrides,
});

/** A category body with every writable field set, each with its API type. */
export const fullCategory = (overrides: Record<string, unknown> = {}) => ({
  name: 'Getränke',
  externalId: 'CAT-3',
  index: 4,
  showOnScreen: true,
  imageUrl: 'https://cdn.example.com/drinks.png',
  marginMinPercent: 10,
  marginMaxPercent: 35.5,
  hideStore: ['store-b'],
  allowStore: ['store-a', 'store-c'],
  ...overrides,
});

/** A store body with every field of the spec set, each with its API type. */
export const fullStore = (overrides: Record<string, unknown> = {}) => ({
  name: 'Hofladen Sonnenberg',
  address: 'Dorfstrasse 1',
  zipCode: '8000',
  city: 'Zürich Altstadt',
  vatNumber: 'CHE-123.456.789 MWST',
  paymentCash: true,
  paymentProviderA: true,
  paymentProviderB: false,
  paymentProviderBOffline: false,
  paymentCashOffline: true,
  showSupplier: true,
  hideTextStart: false,
  generalMargin: 25.5,
  customMessage: 'Willkommen!',
  backgroundImageCart: { src: 'https://cdn.example.com/cart.jpg' },
  backgroundImage: 'https://cdn.example.com/bg.jpg',
  backgroundColor: '#ffffff',
  backgroundFontColor: '#222222',
  playSound: true,
  standardSound: 'chime',
  adminMail: 'admin@sonnenberg.example',
  showInfoButton: true,
  deleteCountdown: 30,
  logoUrl: 'https://cdn.example.com/logo.png',
  languageMulti: true,
  languageMain: 'de',
  languageSelector: ['de', 'fr', 'it', 'en'],
  translations: { fr: { welcome: 'Bienvenue' }, it: { welcome: 'Benvenuti' } },
  ...overrides,
});

/** Store fields the spec lets an update clear with `null`, and the column each one lives in. */
export const CLEARABLE_STORE_FIELDS: [field: string, column: string][] = [
  ['address', 'address'],
  ['zipCode', 'zip_code'],
  ['city', 'city'],
  ['vatNumber', 'vat_number'],
  ['paymentCash', 'payment_cash'],
  ['paymentProviderA', 'payment_provider_a'],
  ['paymentProviderB', 'payment_provider_b'],
  ['paymentProviderBOffline', 'payment_provider_b_offline'],
  ['paymentCashOffline', 'payment_cash_offline'],
  ['showSupplier', 'show_supplier'],
  ['hideTextStart', 'hide_text_start'],
  ['generalMargin', 'general_margin'],
  ['customMessage', 'custom_message'],
  ['backgroundColor', 'background_color'],
  ['backgroundFontColor', 'background_font_color'],
  ['playSound', 'play_sound'],
  ['standardSound', 'standard_sound'],
  ['adminMail', 'admin_mail'],
  ['showInfoButton', 'show_info_button'],
  ['deleteCountdown', 'delete_countdown'],
  ['logoUrl', 'logo_url'],
  ['languageMulti', 'language_multi'],
  ['languageMain', 'language_main'],
  ['languageSelector', 'language_selector'],
  ['translations', 'translations'],
];

export interface OutboxRecord {
  resource: string;
  operation: string;
  body: unknown;
}

/** Reads one table and the outbox straight from the server's SQLite file. */
export function tableReader(db: Database.Database, table: 'suppliers' | 'categories' | 'stores') {
  const byId = db.prepare(`SELECT * FROM ${table} WHERE id = ?`);
  const count = db.prepare(`SELECT count(*) AS n FROM ${table}`);
  const outbox = db.prepare('SELECT resource, operation, body FROM outbox WHERE resource_id = ? ORDER BY seq');
  return {
    row: (id: string) => byId.get(id) as Record<string, unknown> | undefined,
    count: () => (count.get() as { n: number }).n,
    outboxOf: (id: string): OutboxRecord[] =>
      (outbox.all(id) as { resource: string; operation: string; body: string }[]).map((e) => ({
        resource: e.resource,
        operation: e.operation,
        body: JSON.parse(e.body) as unknown,
      })),
  };
}
