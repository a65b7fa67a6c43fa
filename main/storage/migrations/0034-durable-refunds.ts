import type { Migration } from './index.js';

/**
 * Refunds become attempts of their own, stored before the terminal hears of
 * them, each with its own transaction reference (service_id) so that a lost
 * answer can be asked about. One open refund per payment. A payment keeps what
 * the terminal actually charged when that differed from what was asked, for
 * the reversal that must follow. Orders carry the cents given back.
 * A sale's references are its store's: one open payment per store and reference.
 */
export const durableRefunds: Migration = {
  version: 34,
  name: 'durable-refunds',
  sql: `
CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  payment_id TEXT NOT NULL REFERENCES payments(id),
  service_id TEXT NOT NULL UNIQUE,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  reversal INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL,
  message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  decided_at TEXT
);
CREATE INDEX refunds_payment ON refunds (payment_id);
CREATE UNIQUE INDEX refunds_one_open_per_payment ON refunds (payment_id) WHERE state IN ('pending', 'unknown');
CREATE INDEX refunds_open ON refunds (state) WHERE state IN ('pending', 'unknown');
CREATE INDEX refunds_done_by_day ON refunds (org_id, decided_at) WHERE state = 'done';
ALTER TABLE payments ADD COLUMN charged_amount INTEGER;
ALTER TABLE payments ADD COLUMN charged_currency TEXT;
ALTER TABLE orders ADD COLUMN refunded INTEGER;
DROP INDEX payments_one_open_per_sale;
CREATE UNIQUE INDEX payments_one_open_per_sale ON payments (org_id, store, reference) WHERE state IN ('pending', 'unknown');
`,
};
