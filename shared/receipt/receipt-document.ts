import { CURRENCY } from '../languages.js';
import { cardReceiptLine } from './card-receipt-line.js';
import type { Receipt } from './receipt.js';
import { receiptFormat } from './receipt-format.js';
import { receiptLineText as text } from './receipt-line.js';

/** Characters per line of an 80 mm receipt printer in its normal font (576 dots of 12). */
export const RECEIPT_CHARS_PER_LINE = 48;

/** A property value (the QR code's data). */
const property = (value: string) => value.replace(/[\\|{};]/g, (c) => `\\${c}`);

/**
 * The receipt as a ReceiptLine document (https://receiptline.github.io): the
 * one source of the printed receipt's ESC/POS commands and of its picture.
 */
export function receiptDocument(receipt: Receipt): string {
  const f = receiptFormat(receipt);
  const t = f.texts;
  const out: string[] = [];
  const { store } = receipt;
  out.push(`^^"${text(store.name)}"`);
  if (store.address) out.push(text(store.address));
  if (store.place) out.push(text(store.place));
  if (store.vatNumber) out.push(text(`${t.vatNumber} ${store.vatNumber}`));
  out.push('');
  out.push('{w:*,auto}');
  out.push(`${text(`${t.receipt} ${t.number} ${receipt.number}`)} | ${text(f.dateTime)}`);
  out.push('-');
  out.push(`{w:*,12}`);
  for (const line of receipt.lines) {
    out.push(`${text(line.title)} | ${text(f.amount(line.amount))}`);
    const unit = `${f.quantity(line.quantity)} × ${f.amount(line.unitPrice)}`;
    out.push(`~~${text(line.regularUnitPrice === undefined ? unit : `${unit} ${t.salePrice}, ${t.insteadOf} ${f.amount(line.regularUnitPrice)}`)} |`);
    if (line.deposit > 0) out.push(`~~${text(t.deposit)} | ${text(f.amount(line.deposit))}`);
  }
  out.push('-');
  if (receipt.deposits > 0) out.push(`${text(t.deposits)} | ${text(f.amount(receipt.deposits))}`);
  out.push(`^"${text(`${t.total} ${CURRENCY}`)}" | ^"${text(f.amount(receipt.total))}"`);
  out.push('-');
  out.push('{w:8,*,9,9,10}');
  out.push(`${text(t.vatRate)} | | ${text(t.net)} | ${text(t.vat)} | ${text(t.gross)}`);
  for (const vat of receipt.vat) {
    out.push(`${text(f.rate(vat.rate))} | | ${text(f.amount(vat.net))} | ${text(f.amount(vat.tax))} | ${text(f.amount(vat.gross))}`);
  }
  out.push('{w:auto}');
  out.push('-');
  if (f.payment) out.push(`|${text(`${t.paidWith} ${f.payment}`)}`);
  out.push(`|${text(`${t.orderId} ${receipt.tillOrderId}`)}`);
  if (receipt.cardReceipt) {
    out.push('-');
    for (const { name, value } of receipt.cardReceipt.map(cardReceiptLine)) out.push(value ? `${text(name)} | ${text(value)}` : `|${text(name)}`);
  }
  if (receipt.eReceiptUrl) {
    out.push('');
    out.push(`{c:${property(receipt.eReceiptUrl)};o:qrcode,5,m}`);
    out.push(text(t.eReceipt));
  }
  out.push('');
  out.push(text(t.thanks));
  out.push('=');
  return `${out.join('\n')}\n`;
}
