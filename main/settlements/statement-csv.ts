import { stringify } from 'csv-stringify/sync';
import type { StatementModel } from './statement-model.js';
import { STATEMENT_TEXTS } from './statement-texts.js';

const francs = (cents: number) => (cents / 100).toFixed(2);

/** A statement's lines for a spreadsheet: one row per sale or refund, amounts in francs with a point. */
export function statementCsv(model: StatementModel): string {
  const t = STATEMENT_TEXTS[model.language];
  const rows = model.lines.map((line) => [line.orderDate, line.store, line.productId, line.title, line.kind === 'sale' ? t.sale : t.refund, line.quantity, francs(line.amount)]);
  return stringify([[t.date, t.store, `${t.product} ID`, t.product, t.kind, t.quantity, `${t.gross} CHF`], ...rows], { delimiter: ';', bom: true });
}
