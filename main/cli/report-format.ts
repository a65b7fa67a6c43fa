import type { DailyReport } from '../../shared/api/reports.js';

const money = (cents: number) => (cents / 100).toFixed(2);
const percent = (rate: number) => `${Number((rate * 100).toFixed(4))} %`;
/** Words in the first `textColumns` columns, aligned left; figures after them, aligned right. */
const row = (cells: string[], widths: number[], textColumns = 1) =>
  cells.map((c, i) => (i < textColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();

function localTime(iso: string | null, timeZone: string): string {
  if (iso === null) return '–';
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** What staff should check: kiosk lines that differ from the catalog and kiosk sales recorded late, each with its order. */
function flagLines(report: DailyReport): string[] {
  if (report.priceDeviations.length === 0 && report.lateSales.length === 0) return [];
  return [
    '',
    `Check: ${report.priceDeviations.length} kiosk line(s) differing from the catalog, ${report.lateSales.length} kiosk sale(s) recorded late`,
    ...report.priceDeviations.map((d) => `  order ${d.orderId}: ${d.title} x ${d.quantity}, ${money(d.price)} (${d.reasons.join(', ')})`),
    ...report.lateSales.map((l) => `  order ${l.orderId}: sold ${l.orderDate}, recorded ${l.recordedAt}, ${money(l.total)}`),
  ];
}

/** Card refunds taken off the day's totals, and card money no sale accounts for, each with its payment. */
function cardLines(report: DailyReport): string[] {
  const lines: string[] = [];
  if (report.refunds.refunds > 0) lines.push('', `Card refunds: ${report.refunds.refunds}, ${money(report.refunds.total)} (taken off the totals above)`);
  if (report.cardWarnings.length > 0) {
    lines.push('', `Warning: ${report.cardWarnings.length} card payment(s) took money no sale accounts for`);
    for (const w of report.cardWarnings) {
      const what = w.kind === 'reversal-pending' ? 'charged, reversal pending' : 'approved, no sale recorded';
      lines.push(`  payment ${w.payment}: ${what}, ${w.currency} ${money(w.amount)}, started ${localTime(w.createdAt, report.timeZone)}`);
    }
  }
  return lines;
}

/** The report as a till's closing slip: amounts in francs, times in the store's zone. */
export function reportTable(report: DailyReport): string {
  const payments = [12, 10, 6, 10];
  const rates = [10, 10, 10, 10];
  return [
    `Daily report ${report.date}, store ${report.store} (${report.timeZone})`,
    `Sales: ${report.sales}   first ${localTime(report.firstSaleAt, report.timeZone)}   last ${localTime(report.lastSaleAt, report.timeZone)}`,
    `Total: ${money(report.total)}   of which deposits ${money(report.deposits)}`,
    `Sale-price discounts: ${money(report.discounts.amount)} on ${report.discounts.lines} line(s)`,
    '',
    row(['Payment', 'Brand', 'Sales', 'Total'], payments, 2),
    ...report.byPaymentMethod.map((p) => row([p.paymentMethod ?? '(none)', p.paymentBrand ?? '', String(p.sales), money(p.total)], payments, 2)),
    '',
    row(['VAT rate', 'Gross', 'Net', 'VAT'], rates),
    ...report.byTaxRate.map((r) => row([percent(r.taxRate), money(r.gross), money(r.net), money(r.tax)], rates)),
    '',
    `Not counted: ${report.deletedOrders.sales} deleted order(s), ${money(report.deletedOrders.total)}` +
      report.otherPaymentStates.map((s) => `; ${s.sales} ${s.paymentState}, ${money(s.total)}`).join(''),
    ...flagLines(report),
    ...cardLines(report),
  ].join('\n');
}

const csvCell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** One line per VAT rate and per payment method, amounts in cents as the API gives them. */
export function reportCsv(report: DailyReport): string {
  const header = ['date', 'store', 'kind', 'taxRate', 'paymentMethod', 'paymentBrand', 'sales', 'gross', 'net', 'tax', 'total'];
  const lines = [
    ...report.byTaxRate.map((r) => [report.date, report.store, 'vat', r.taxRate, null, null, null, r.gross, r.net, r.tax, null]),
    ...report.byPaymentMethod.map((p) => [report.date, report.store, 'payment', null, p.paymentMethod, p.paymentBrand, p.sales, null, null, null, p.total]),
  ];
  return [header, ...lines].map((cells) => cells.map(csvCell).join(',')).join('\n');
}
