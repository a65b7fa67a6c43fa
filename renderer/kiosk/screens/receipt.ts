import { renderSVG } from 'uqr';
import { cardReceiptLine } from '../../../shared/receipt/card-receipt-line.js';
import type { Receipt } from '../../../shared/receipt/receipt.js';
import { receiptFormat } from '../../../shared/receipt/receipt-format.js';
import { h } from '../dom.js';
import type { Translate } from '../i18n/index.js';

/** The e-receipt's address as a QR code, drawn as SVG (the page has no canvas and loads nothing from elsewhere). */
function qrCode(url: string, label: string): Element {
  const svg = new DOMParser().parseFromString(renderSVG(url, { ecc: 'M', border: 2 }), 'image/svg+xml').documentElement;
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('class', 'qr');
  return document.importNode(svg, true);
}

/**
 * The receipt as paper would show it: the store, its VAT number, the time,
 * every line with quantity, unit price and amount, deposits, VAT per rate,
 * the total and the payment. Built from the same model as the printed one.
 */
export function receiptPaper(t: Translate, receipt: Receipt): HTMLElement {
  const f = receiptFormat(receipt);
  const w = f.texts;
  const { store } = receipt;
  return h(
    'article',
    // Focusable: a long receipt scrolls, also for someone without a touch screen.
    { class: 'receipt-paper', tabIndex: 0, 'data-receipt': receipt.orderId, 'aria-labelledby': 'receipt-store' },
    h(
      'header',
      {},
      h('h2', { id: 'receipt-store' }, store.name),
      h('address', {}, store.address && h('span', {}, store.address), store.place && h('span', {}, store.place)),
      store.vatNumber && h('p', { 'data-vat-number': '' }, `${w.vatNumber} ${store.vatNumber}`),
      h('p', { class: 'receipt-meta' }, h('span', { 'data-number': '' }, `${w.receipt} ${w.number} ${receipt.number}`), h('time', { dateTime: receipt.issuedAt }, f.dateTime)),
    ),
    h(
      'table',
      { class: 'receipt-lines' },
      h('caption', { class: 'visually-hidden' }, t('receiptLinesCaption')),
      h('thead', { class: 'visually-hidden' }, h('tr', {}, h('th', { scope: 'col' }, t('receiptItem')), h('th', { scope: 'col' }, t('receiptAmount')))),
      h(
        'tbody',
        {},
        receipt.lines.map((line) =>
          h(
            'tr',
            { class: 'line' },
            h(
              'td',
              {},
              h('span', { class: 'title' }, line.title),
              h('span', { class: 'unit', 'data-unit': '' }, `${f.quantity(line.quantity)} × ${f.amount(line.unitPrice)}`),
              line.regularUnitPrice !== undefined && h('span', { class: 'sale', 'data-sale': '' }, `${w.salePrice}, ${w.insteadOf} ${f.amount(line.regularUnitPrice)}`),
              line.deposit > 0 && h('span', { class: 'deposit', 'data-deposit': '' }, `${w.deposit} ${f.amount(line.deposit)}`),
            ),
            h('td', { class: 'amount' }, f.amount(line.amount)),
          ),
        ),
      ),
      h(
        'tfoot',
        {},
        receipt.deposits > 0 && h('tr', { class: 'deposits' }, h('th', { scope: 'row' }, w.deposits), h('td', { class: 'amount' }, f.amount(receipt.deposits))),
        h('tr', { class: 'total' }, h('th', { scope: 'row' }, w.total), h('td', { class: 'amount', 'data-total': '' }, f.money(receipt.total))),
      ),
    ),
    h(
      'table',
      { class: 'receipt-vat' },
      h('caption', { class: 'visually-hidden' }, t('receiptVatCaption')),
      h('thead', {}, h('tr', {}, [w.vatRate, w.net, w.vat, w.gross].map((label) => h('th', { scope: 'col' }, label)))),
      h(
        'tbody',
        {},
        receipt.vat.map((vat) =>
          h(
            'tr',
            { 'data-rate': String(vat.rate) },
            h('th', { scope: 'row' }, f.rate(vat.rate)),
            h('td', { class: 'amount' }, f.amount(vat.net)),
            h('td', { class: 'amount' }, f.amount(vat.tax)),
            h('td', { class: 'amount' }, f.amount(vat.gross)),
          ),
        ),
      ),
    ),
    h(
      'footer',
      {},
      f.payment && h('p', { 'data-payment': '' }, `${w.paidWith} ${f.payment}`),
      h('p', { class: 'order-id' }, `${w.orderId} ${receipt.tillOrderId}`),
      receipt.cardReceipt &&
        h(
          'table',
          { class: 'card-receipt', 'data-card-receipt': '' },
          h('caption', { class: 'visually-hidden' }, t('receiptCardCaption')),
          h('tbody', {}, receipt.cardReceipt.map(cardReceiptLine).map(({ name, value }) => h('tr', {}, h('td', { colSpan: value ? 1 : 2 }, name), value && h('td', { class: 'amount' }, value)))),
        ),
      receipt.eReceiptUrl &&
        h('figure', { class: 'e-receipt', 'data-e-receipt': receipt.eReceiptUrl }, qrCode(receipt.eReceiptUrl, w.eReceipt), h('figcaption', {}, t('receiptQrHint'))),
      h('p', {}, w.thanks),
    ),
  );
}
