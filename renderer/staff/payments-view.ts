import type { Payment } from '../../shared/api/payments.js';
import type { Store } from '../../shared/api/stores.js';
import { parseFrancs } from '../../shared/francs.js';
import { DEFAULT_TIME_ZONE, localDate, localDayBounds } from '../../shared/time-zones.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { CallError, getAll, getData, postData } from './api.js';
import type { StaffTextKey, StaffTranslate } from './texts.js';
import { cardBrandName } from '../../shared/card-brand.js';

const STATE_TEXT: Record<Payment['state'], StaffTextKey> = {
  pending: 'payment_pending',
  unknown: 'payment_unknown',
  approved: 'payment_approved',
  declined: 'payment_declined',
  cancelled: 'payment_cancelled',
  refunding: 'payment_refunding',
  refunded: 'payment_refunded',
  'partially-refunded': 'payment_partially-refunded',
};

/** A refused approval the terminal has not confirmed the reversal of: the customer was charged what `refusal` says. */
const reversalPending = (p: Payment) => p.refusal !== null && !p.refusal.reversed;
/** What a refund may still give back: of a refused approval, all the terminal charged. */
const left = (p: Payment) => (p.refusal ? p.refusal.amount : p.amount) - p.refunded;
const refundable = (p: Payment) => p.state === 'approved' || p.state === 'partially-refunded' || reversalPending(p);
/** Approved at the terminal, but no order names it: the kiosk died or the customer left before the sale was recorded. */
const isOpenApproved = (p: Payment) => p.state === 'approved' && p.order === null;

/**
 * Today's card payments of a store with their states, the open approved ones
 * (money taken, no sale recorded) first, and *Refund* of a card sale in full
 * or in part, after a confirmation that names the amount.
 */
export function createPaymentsView(deps: { t: () => StaffTranslate; failed: (error: unknown) => void }) {
  const content = h('div');
  const note = h('p', { class: 'note', role: 'status' });
  const dialog = h('dialog', { id: 'refund-dialog', 'aria-labelledby': 'refund-title' });
  const root = h('section', { id: 'payments', 'aria-labelledby': 'payments-title' }, content, note, dialog);
  let stores: Store[] = [];
  let storeId = '';
  let payments: Payment[] | undefined;
  /** Approved payments no order names, of any day. */
  let open: Payment[] = [];
  let shown = '';
  let noteText = '';

  const zoneOf = (id: string) => stores.find((s) => s.id === id)?.timeZone ?? DEFAULT_TIME_ZONE;

  async function refresh(): Promise<void> {
    try {
      if (stores.length === 0) stores = (await getAll<Store>('/stores')).filter((s) => !s.deleted);
      storeId ||= stores[0]?.id ?? '';
      const zone = zoneOf(storeId);
      const since = new Date(localDayBounds(localDate(Date.now(), zone), zone).start).toISOString();
      const store = encodeURIComponent(storeId);
      [payments, open] = storeId
        ? await Promise.all([getData<Payment[]>(`/payments?store=${store}&since=${since}`), getData<Payment[]>(`/payments?store=${store}&unrecorded=true`)])
        : [[], []];
      // Unchanged, the buttons stay as they are, so a tap is never lost to a rebuild.
      if (JSON.stringify([storeId, payments, open]) !== shown) render();
    } catch (error) {
      deps.failed(error);
    }
  }

  async function refund(payment: Payment, amount: number): Promise<void> {
    const t = deps.t();
    try {
      const body = amount === left(payment) ? {} : { amount };
      const answer = await postData<Payment>(`/payments/${encodeURIComponent(payment.id)}/refund`, body);
      noteText = t('refundSent', { amount: t.money(amount), state: t(STATE_TEXT[answer.state]) });
    } catch (error) {
      noteText = t('refundFailed', { reason: error instanceof CallError ? error.message : String(error) });
    }
    note.textContent = noteText;
    await refresh();
  }

  function confirmRefund(payment: Payment): void {
    const t = deps.t();
    const error = h('p', { class: 'error', role: 'alert' });
    const input = h('input', {
      id: 'refund-amount',
      type: 'text',
      inputMode: 'decimal',
      autocomplete: 'off',
      required: true,
      value: (left(payment) / 100).toFixed(2),
      'aria-describedby': 'refund-hint',
      oninput: () => (error.textContent = ''),
    });
    replaceChildren(
      dialog,
      h('h3', { id: 'refund-title' }, t('refundTitle')),
      h('p', {}, describe(payment, t, zoneOf(payment.store))),
      h(
        'form',
        {
          method: 'dialog',
          onsubmit: (event: SubmitEvent) => {
            const submitter = event.submitter as HTMLButtonElement | null;
            if (submitter?.value !== 'refund') return;
            const cents = parseFrancs(input.value);
            if (cents === undefined || cents <= 0 || cents > left(payment)) {
              event.preventDefault();
              error.textContent = t('refundAmountInvalid', { max: t.money(left(payment)) });
              return;
            }
            void refund(payment, cents);
          },
        },
        h('label', { for: 'refund-amount' }, t('refundAmount')),
        input,
        h('p', { id: 'refund-hint', class: 'hint' }, t('refundHint', { amount: t.money(left(payment)) })),
        error,
        h(
          'div',
          { class: 'dialog-buttons' },
          h('button', { value: 'cancel', formNoValidate: true }, t('cancel')),
          h('button', { value: 'refund', class: 'danger', 'data-action': 'confirm-refund' }, t('refundConfirm')),
        ),
      ),
    );
    dialog.returnValue = '';
    dialog.showModal();
    input.select();
  }

  function row(payment: Payment, t: StaffTranslate): HTMLElement {
    return h(
      'tr',
      { 'data-payment': payment.id, 'data-state': payment.state },
      h('td', {}, t.time(payment.createdAt, zoneOf(payment.store))),
      h('td', { class: 'num' }, t.money(payment.amount)),
      h('td', {}, [payment.brand && cardBrandName(payment.brand), payment.maskedPan].filter(Boolean).join(' ') || '–'),
      h(
        'td',
        { class: isOpenApproved(payment) || reversalPending(payment) || payment.state === 'unknown' ? 'flagged' : undefined },
        t(STATE_TEXT[payment.state]),
        isOpenApproved(payment) && ` · ${t('paymentNoOrder')}`,
        reversalPending(payment) && payment.refusal && ` · ${t('paymentReversalPending', { amount: t.money(payment.refusal.amount) })}`,
      ),
      // The sale by the number on its receipt (the till's order number), which is what a customer shows.
      h('td', {}, payment.reference),
      h('td', {}, refundable(payment) && h('button', { type: 'button', class: 'danger', 'data-action': 'refund', onclick: () => confirmRefund(payment) }, t('refund'))),
    );
  }

  function table(list: Payment[], t: StaffTranslate, label: string): HTMLElement {
    return h(
      'table',
      { 'aria-label': label },
      h('thead', {}, h('tr', {}, [t('paymentTime'), t('total'), t('paymentCard'), t('paymentState'), t('paymentSale'), t('paymentActions')].map((l, i) => h('th', { scope: 'col', class: i === 1 ? 'num' : undefined }, l)))),
      h('tbody', {}, list.map((p) => row(p, t))),
    );
  }

  function render(): void {
    const t = deps.t();
    shown = JSON.stringify([storeId, payments, open]);
    note.textContent = noteText;
    const storeSelect = h(
      'select',
      { id: 'payments-store', onchange: () => ((storeId = storeSelect.value), (payments = undefined), void refresh()) },
      stores.map((s) => h('option', { value: s.id, selected: s.id === storeId }, s.name)),
    );
    replaceChildren(
      content,
      h('h2', { id: 'payments-title' }, t('paymentsTitle')),
      stores.length > 1 && h('div', { class: 'controls' }, h('label', { for: 'payments-store' }, t('store')), storeSelect),
      open.length > 0 && [h('h3', { class: 'flagged' }, t('openApprovedTitle')), h('p', { class: 'hint' }, t('openApprovedHint')), h('div', { 'data-payments': 'open' }, table(open, t, t('openApprovedTitle')))],
      h('h3', {}, t('paymentsToday')),
      payments === undefined
        ? h('p', {}, '–')
        : payments.length === 0
          ? h('p', { 'data-payments': 'none' }, t('paymentsNone'))
          : h('div', { 'data-payments': 'today' }, table(payments, t, t('paymentsToday'))),
    );
  }

  return { root, render, refresh };
}

function describe(payment: Payment, t: StaffTranslate, timeZone: string): string {
  return t('refundOf', { amount: t.money(payment.amount), card: [payment.brand && cardBrandName(payment.brand), payment.maskedPan].filter(Boolean).join(' ') || '–', time: t.time(payment.createdAt, timeZone) });
}
