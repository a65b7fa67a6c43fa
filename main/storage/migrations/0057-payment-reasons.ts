import type { Migration } from './index.js';

/**
 * `payments.reason`: why an attempt was declined or cancelled, as a code
 * (`terminal-busy`, `terminal-not-reached`, `unknown-to-terminal`), so that a
 * kiosk tells its customer what to do without reading the staff's words.
 * Null for attempts stored before, and for every other outcome.
 */
export const paymentReasons: Migration = {
  version: 57,
  name: 'payment-reasons',
  sql: `
ALTER TABLE payments ADD COLUMN reason TEXT;
`,
};
