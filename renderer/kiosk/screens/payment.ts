import { h } from '../dom.js';
import type { MessageKey, Translate } from '../i18n/index.js';
import { helpButtonText } from './help.js';
import type { PaymentMethod } from '../store-settings.js';

const METHOD_TEXT: Record<PaymentMethod, MessageKey> = { cash: 'cash', providerA: 'providerA', providerB: 'providerB' };

export function paymentScreen(t: Translate, total: number, methods: PaymentMethod[], onMethod: (m: PaymentMethod) => void, onBack: () => void): HTMLElement {
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'payment', 'aria-labelledby': 'payment-title' },
    h('h1', { id: 'payment-title' }, t('payTitle')),
    h('p', { class: 'total' }, h('span', {}, t('total')), h('strong', {}, t.money(total))),
    methods.length === 0
      ? h('p', { class: 'error', role: 'alert' }, t('noPaymentMethods'))
      : h('div', { class: 'methods' }, methods.map((m) => h('button', { class: 'method primary', 'data-method': m, onclick: () => onMethod(m) }, t(METHOD_TEXT[m])))),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onBack }, t('back'))),
  );
}

/** While the sale is recorded; a lost connection shows that it is being tried again. */
export function recordingScreen(t: Translate, state: { retrying: boolean; error?: string | undefined }, onStaff: () => void): HTMLElement {
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'recording', 'aria-busy': String(!state.error) },
    h('h1', {}, t('recording')),
    state.retrying && !state.error && h('p', { class: 'lead', role: 'status', 'data-retrying': '' }, t('recordingRetry')),
    state.error && h('p', { class: 'error', role: 'alert' }, t('recordFailed', { message: state.error })),
    state.error && h('div', { class: 'actions' }, h('button', { class: 'primary', onclick: onStaff }, helpButtonText(t))),
  );
}
