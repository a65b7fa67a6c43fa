import type { PrinterStatus } from '../../shared/api/printers.js';
import type { DailyReport, LineFlagReason } from '../../shared/api/reports.js';
import type { Store } from '../../shared/api/stores.js';
import { DEFAULT_TIME_ZONE, localDate } from '../../shared/time-zones.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { getAll, getData } from './api.js';
import { cardReconciliation } from './card-report.js';
import { createReportPrinterButton } from './report-printer.js';
import type { StaffTextKey, StaffTranslate } from './texts.js';
import { methodText } from './payment-words.js';
import { cardBrandName } from '../../shared/card-brand.js';

const REASON_TEXTS: Record<LineFlagReason, StaffTextKey> = {
  'unknown-product': 'reasonUnknownProduct',
  price: 'reasonPrice',
  'tax-rate': 'reasonTaxRate',
  deposit: 'reasonDeposit',
  'zero-total': 'reasonZeroTotal',
};

const rate = (value: number) => `${Math.round(value * 10000) / 100} %`;

/**
 * The day's report: pick a store and a day (today in the store's zone by
 * default), print it with the browser or on the shop's receipt printer.
 */
export function createReportView(deps: {
  t: () => StaffTranslate;
  failed: (error: unknown) => void;
  printers: () => readonly PrinterStatus[] | undefined;
}) {
  const root = h('section', { id: 'report', 'aria-labelledby': 'report-title' });
  const output = h('div', { class: 'report-output', 'aria-live': 'polite' });
  let stores: Store[] = [];
  let storeId = '';
  let date = '';
  let report: DailyReport | undefined;
  const receiptPrinter = createReportPrinterButton({ ...deps, day: () => (storeId && date ? { store: storeId, date } : undefined) });

  const zoneOf = (id: string) => stores.find((s) => s.id === id)?.timeZone ?? DEFAULT_TIME_ZONE;

  async function refresh(): Promise<void> {
    if (!storeId || !date) return;
    try {
      report = await getData<DailyReport>(`/reports/daily?store=${encodeURIComponent(storeId)}&date=${date}`);
      renderOutput();
    } catch (error) {
      deps.failed(error);
    }
  }

  function renderOutput(): void {
    const t = deps.t();
    if (!report) return replaceChildren(output);
    const r = report;
    const store = stores.find((s) => s.id === r.store);
    const time = (iso: string | null) => (iso ? t.time(iso, r.timeZone) : '–');
    const cell = (text: string, numeric = false) => h('td', { class: numeric ? 'num' : undefined }, text);
    // The first `textColumns` columns hold words; the rest hold figures, aligned right.
    const head = (textColumns: number, ...labels: string[]) =>
      h('thead', {}, h('tr', {}, labels.map((l, i) => h('th', { scope: 'col', class: i >= textColumns ? 'num' : undefined }, l))));
    replaceChildren(
      output,
      h('p', { class: 'report-heading' }, t('reportOf', { store: store?.name ?? r.store, date: r.date, zone: r.timeZone })),
      h(
        'dl',
        { class: 'figures' },
        h('dt', {}, t('sales')), h('dd', { 'data-figure': 'sales' }, String(r.sales)),
        h('dt', {}, t('total')), h('dd', { 'data-figure': 'total' }, t.money(r.total)),
        h('dt', {}, t('deposits')), h('dd', { 'data-figure': 'deposits' }, t.money(r.deposits)),
        h('dt', {}, t('discounts')), h('dd', {}, t('discountLines', { amount: t.money(r.discounts.amount), lines: r.discounts.lines })),
        h('dt', {}, t('firstSale')), h('dd', {}, time(r.firstSaleAt)),
        h('dt', {}, t('lastSale')), h('dd', {}, time(r.lastSaleAt)),
      ),
      r.sales === 0 && h('p', {}, t('noSales')),
      r.byPaymentMethod.length > 0 && [
        h('h3', {}, t('byPayment')),
        h(
          'table',
          { 'data-table': 'payments' },
          head(2, t('paymentMethod'), t('brand'), t('sales'), t('total')),
          h('tbody', {}, r.byPaymentMethod.map((p) =>
            h('tr', {}, cell(methodText(t, p.paymentMethod)), cell(p.paymentBrand ? cardBrandName(p.paymentBrand) : '–'), cell(String(p.sales), true), cell(t.money(p.total), true)),
          )),
        ),
      ],
      cardReconciliation(t, r.card),
      r.byTaxRate.length > 0 && [
        h('h3', {}, t('byVat')),
        h(
          'table',
          { 'data-table': 'vat' },
          head(1, t('vatRate'), t('gross'), t('net'), t('vat')),
          h('tbody', {}, r.byTaxRate.map((v) => h('tr', {}, cell(rate(v.taxRate)), cell(t.money(v.gross), true), cell(t.money(v.net), true), cell(t.money(v.tax), true)))),
        ),
      ],
      r.priceDeviations.length > 0 && [
        h('h3', { id: 'price-deviations-title' }, t('priceDeviations')),
        h('p', { class: 'hint flagged' }, t('priceDeviationsHint')),
        h(
          'table',
          { 'data-table': 'price-deviations', 'aria-labelledby': 'price-deviations-title' },
          head(3, t('deviationOrder'), t('deviationProduct'), t('deviationReason'), t('deviationQuantity'), t('deviationPrice'), t('deviationCatalogPrice')),
          h('tbody', {}, r.priceDeviations.map((d) =>
            h(
              'tr',
              { 'data-order': d.orderId },
              cell(d.orderId),
              cell(d.title),
              cell(d.reasons.map((reason) => t(REASON_TEXTS[reason])).join(', ')),
              cell(String(d.quantity), true),
              cell(t.money(d.price), true),
              cell(d.catalogPrice === null ? '–' : t.money(d.catalogPrice), true),
            ),
          )),
        ),
      ],
      r.lateSales.length > 0 && [
        h('h3', { id: 'late-sales-title' }, t('lateSales')),
        h('p', { class: 'hint flagged' }, t('lateSalesHint')),
        h(
          'table',
          { 'data-table': 'late-sales', 'aria-labelledby': 'late-sales-title' },
          head(3, t('deviationOrder'), t('lateSoldAt'), t('lateRecordedAt'), t('total')),
          h('tbody', {}, r.lateSales.map((l) =>
            h('tr', { 'data-order': l.orderId }, cell(l.orderId), cell(time(l.orderDate)), cell(time(l.recordedAt)), cell(t.money(l.total), true)),
          )),
        ),
      ],
      (r.deletedOrders.sales > 0 || r.otherPaymentStates.length > 0) && [
        h('h3', {}, t('notCounted')),
        h(
          'ul',
          { class: 'not-counted' },
          r.deletedOrders.sales > 0 && h('li', {}, `${t('deletedOrders')}: ${t('countAmount', { count: r.deletedOrders.sales, amount: t.money(r.deletedOrders.total) })}`),
          r.otherPaymentStates.map((s) => h('li', {}, `${t('otherState', { state: s.paymentState })}: ${t('countAmount', { count: s.sales, amount: t.money(s.total) })}`)),
        ),
      ],
    );
  }

  function render(): void {
    const t = deps.t();
    if (stores.length === 0) {
      replaceChildren(root, h('h2', { id: 'report-title' }, t('reportTitle')), h('p', {}, t('noStores')));
      return;
    }
    const storeSelect = h(
      'select',
      { id: 'report-store', onchange: () => void choose(storeSelect.value, localDate(Date.now(), zoneOf(storeSelect.value))) },
      stores.map((s) => h('option', { value: s.id, selected: s.id === storeId }, s.name)),
    );
    const dateInput = h('input', { id: 'report-date', type: 'date', value: date, required: true, onchange: () => dateInput.value && void choose(storeId, dateInput.value) });
    replaceChildren(
      root,
      h('h2', { id: 'report-title' }, t('reportTitle')),
      h(
        'div',
        { class: 'controls' },
        h('label', { for: 'report-store' }, t('store')),
        storeSelect,
        h('label', { for: 'report-date' }, t('date')),
        dateInput,
        h('button', { type: 'button', 'data-action': 'print', onclick: () => window.print() }, t('print')),
        receiptPrinter.button,
      ),
      receiptPrinter.status,
      output,
    );
    receiptPrinter.render();
    renderOutput();
  }

  async function choose(id: string, day: string): Promise<void> {
    storeId = id;
    date = day;
    receiptPrinter.dayChanged();
    render();
    await refresh();
  }

  return {
    root,
    render,
    refresh,
    printersChanged: () => receiptPrinter.printersChanged(),
    /** Reads the stores and shows today's report of the first one. */
    async load(): Promise<void> {
      stores = await getAll<Store>('/stores');
      const first = stores.find((s) => s.id === storeId) ?? stores[0];
      if (!first) return render();
      await choose(first.id, date || localDate(Date.now(), zoneOf(first.id)));
    },
  };
}
