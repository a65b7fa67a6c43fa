import type { DailyReport } from '../api/reports.js';
import { CURRENCY, LANGUAGE_LOCALES, type StoreLanguage } from '../languages.js';
import { receiptLineText as text } from './receipt-line.js';
import { RECEIPT_TEXTS } from './receipt-texts.js';
import { REPORT_TEXTS } from './report-texts.js';

export interface ReportPrintout {
  report: DailyReport;
  storeName: string;
  language: StoreLanguage;
  /** When it is printed (ISO 8601), shown in the store's time zone. */
  printedAt: string;
}

/**
 * The day's report as a ReceiptLine document for the receipt printer: the
 * figures of the staff page, with amounts written as the receipt writes them.
 */
export function reportDocument({ report: r, storeName, language, printedAt }: ReportPrintout): string {
  const locale = LANGUAGE_LOCALES[language];
  const t = REPORT_TEXTS[language];
  const receipt = RECEIPT_TEXTS[language];
  const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
  const amountFormat = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const amount = (cents: number) => text(amountFormat.format(cents / 100));
  const rate = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  // The report's date is a calendar day: written at midnight UTC and read back in UTC, it stays that day.
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${r.date}T00:00:00Z`));
  const clock = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: r.timeZone });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: r.timeZone });
  const payment = (method: string | null, brand: string | null) => {
    const words = method === null ? t.noPaymentMethod : (receipt.paymentMethods[method] ?? method);
    return brand ? `${words} (${brand})` : words;
  };

  const out: string[] = [];
  out.push(`^^"${text(t.title)}"`);
  out.push(`"${text(storeName)}"`);
  out.push(`${text(day)} (${text(r.timeZone)})`);
  out.push('-');
  out.push('{w:*,12}');
  out.push(`${text(t.sales)} | ${r.sales}`);
  out.push(`^"${text(`${t.total} ${CURRENCY}`)}" | ^"${amount(r.total)}"`);
  out.push(`${text(t.deposits)} | ${amount(r.deposits)}`);
  out.push(`${text(fill(t.discounts, { lines: r.discounts.lines }))} | ${amount(r.discounts.amount)}`);
  out.push(`${text(t.firstSale)} | ${r.firstSaleAt ? text(clock.format(new Date(r.firstSaleAt))) : '-'}`);
  out.push(`${text(t.lastSale)} | ${r.lastSaleAt ? text(clock.format(new Date(r.lastSaleAt))) : '-'}`);
  if (r.sales === 0) out.push('{w:auto}', text(t.noSales));
  if (r.byPaymentMethod.length > 0) {
    out.push('{w:auto}', '-', `"${text(t.byPayment)}"`, '{w:*,5,12}');
    for (const p of r.byPaymentMethod) out.push(`${text(payment(p.paymentMethod, p.paymentBrand))} | ${p.sales} | ${amount(p.total)}`);
  }
  if (r.byTaxRate.length > 0) {
    out.push('{w:auto}', '-', `"${text(t.byVat)}"`, '{w:8,*,9,9,10}');
    out.push(`${text(receipt.vatRate)} | | ${text(receipt.gross)} | ${text(receipt.net)} | ${text(receipt.vat)}`);
    for (const v of r.byTaxRate) out.push(`${text(rate.format(v.taxRate))} | | ${amount(v.gross)} | ${amount(v.net)} | ${amount(v.tax)}`);
  }
  if (r.card.byBrand.length > 0 || r.refunds.refunds > 0 || r.cardWarnings.length > 0) {
    const maybe = (cents: number | null) => (cents === null ? '-' : amount(cents));
    out.push('{w:auto}', '-', `"${text(t.card)}"`, '{w:*,10,10,9}');
    out.push(` | ${text(t.cardOurs)} | ${text(t.cardTerminal)} | ${text(t.cardDifference)}`);
    for (const b of r.card.byBrand) out.push(`${text(b.brand)} | ${amount(b.total)} | ${maybe(b.terminalTotal)} | ${maybe(b.difference)}`);
    out.push(`"${text(t.total)}" | "${amount(r.card.total)}" | "${maybe(r.card.terminalTotal)}" | "${maybe(r.card.difference)}"`);
    out.push('{w:*,12}');
    if (r.refunds.refunds > 0) out.push(`${text(fill(t.refunds, { count: r.refunds.refunds }))} | -${amount(r.refunds.total)}`);
    if (r.card.terminals.length > 0 && r.card.terminalTotal === null) out.push('{w:auto}', text(t.cardTerminalUnknown), '{w:*,12}');
    if (r.cardWarnings.length > 0) {
      out.push('{w:auto}', `^"${text(t.warnings)}"`, '{w:*,12}');
      for (const w of r.cardWarnings) {
        const what = w.kind === 'reversal-pending' ? t.reversalPending : t.paymentWithoutOrder;
        out.push(`${text(`${what} ${clock.format(new Date(w.createdAt))}`)} | ${text(w.currency)} ${amount(w.amount)}`);
      }
    }
  }
  if (r.deletedOrders.sales > 0 || r.otherPaymentStates.length > 0) {
    out.push('{w:auto}', '-', `"${text(t.notCounted)}"`, '{w:*,5,12}');
    if (r.deletedOrders.sales > 0) out.push(`${text(t.deletedOrders)} | ${r.deletedOrders.sales} | ${amount(r.deletedOrders.total)}`);
    for (const s of r.otherPaymentStates) out.push(`${text(fill(t.otherState, { state: s.paymentState }))} | ${s.sales} | ${amount(s.total)}`);
  }
  out.push('{w:auto}', '-');
  out.push(`|${text(`${t.printedAt} ${dateTime.format(new Date(printedAt))}`)}`);
  out.push('=');
  return `${out.join('\n')}\n`;
}
