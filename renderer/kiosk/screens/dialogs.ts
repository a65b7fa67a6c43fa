import type { Product } from '../../../shared/api/products.js';
import { parseFrancs } from '../../../shared/francs.js';
import { isOnSale } from '../../../shared/order-pricing.js';
import { h } from '../dom.js';
import type { Translate } from '../i18n/index.js';
import { keypad } from './keypad.js';

/**
 * A native modal dialog: opened with `showModal()` it keeps the focus inside,
 * makes the rest of the page inert, and Escape calls `onCancel`.
 */
function dialog(name: string, title: string, onCancel: () => void, ...body: (HTMLElement | false | undefined)[]): HTMLDialogElement {
  return h(
    'dialog',
    {
      class: 'dialog',
      'aria-labelledby': `${name}-title`,
      'data-dialog': name,
      oncancel: (event: Event) => (event.preventDefault(), onCancel()),
    },
    h('h2', { id: `${name}-title` }, title),
    ...body,
  );
}

/** The price a customer pays for one unit today: the sale price inside its window. */
function priceOf(t: Translate, product: Product): HTMLElement {
  const onSale = isOnSale(product, new Date().toISOString());
  return h(
    'span',
    { class: 'price', 'data-price': '' },
    onSale && h('span', { class: 'badge' }, t('sale')),
    onSale && h('s', {}, t.money(product.price)),
    ' ',
    t.money(onSale ? (product.salePrice as number) : product.price),
  );
}

/** One scanned code matched several products: the customer picks one. */
export function chooseDialog(t: Translate, products: Product[], onChoose: (p: Product) => void, onCancel: () => void): HTMLDialogElement {
  return dialog(
    'choose',
    t('chooseTitle'),
    onCancel,
    h('div', { class: 'choices' }, products.map((p) => h('button', { class: 'choice', 'data-product': p.id, onclick: () => onChoose(p) }, h('span', {}, p.name), priceOf(t, p)))),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onCancel }, t('cancel'))),
  );
}

/** Francs and at most two decimals, with a point or a comma. */
/** An `openInput` product: the customer types the amount, in francs, on the keypad or a keyboard. */
export function amountDialog(t: Translate, product: Product, onAmount: (cents: number) => void, onCancel: () => void): HTMLDialogElement {
  const input = h('input', { type: 'text', inputMode: 'none', id: 'amount', class: 'amount-input', 'data-scan': 'own', autocomplete: 'off', maxLength: 8 });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    {
      onsubmit: (event: Event) => {
        event.preventDefault();
        const cents = parseFrancs(input.value) ?? 0;
        if (cents > 0) onAmount(cents);
        else error.textContent = t('amountInvalid');
      },
    },
    h('label', { for: 'amount' }, t('amountLabel'), ' (CHF)'),
    input,
    error,
    keypad(t, () => input, { decimal: true }),
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', onclick: onCancel }, t('cancel')), h('button', { type: 'submit', class: 'primary' }, t('confirm'))),
  );
  return dialog('amount', t('amountTitle', { name: product.name }), onCancel, form);
}

/** What the info button shows: picture, price, description and declarations, and a way to buy it. */
export function infoDialog(t: Translate, product: Product, onAdd: () => void, onClose: () => void): HTMLDialogElement {
  return dialog(
    'info',
    product.name,
    onClose,
    product.imageUrl ? h('img', { class: 'info-image', src: product.imageUrl, alt: '' }) : false,
    h('p', { class: 'info-price' }, h('span', {}, t('price'), ': '), priceOf(t, product)),
    product.description ? h('p', {}, product.description) : false,
    product.declarations ? h('p', { class: 'declarations' }, product.declarations) : false,
    h(
      'div',
      { class: 'actions' },
      h('button', { class: 'secondary', onclick: onClose }, t('close')),
      h('button', { class: 'primary', 'data-action': 'add', onclick: onAdd }, t('addToCart')),
    ),
  );
}

/** The visible countdown before an unfinished purchase is cancelled. */
export function idleDialog(t: Translate, seconds: number, onContinue: () => void): HTMLDialogElement {
  return dialog(
    'idle',
    t('idleTitle'),
    onContinue,
    h('p', { class: 'countdown', 'data-countdown': String(seconds) }, t('idleCountdown', { seconds })),
    h('div', { class: 'actions' }, h('button', { class: 'primary', onclick: onContinue }, t('idleContinue'))),
  );
}

/** Staff only, behind a long press on the logo: a barcode typed or pasted instead of scanned. */
export function staffCodeDialog(t: Translate, onCode: (code: string) => void, onClose: () => void): HTMLDialogElement {
  const input = h('input', { type: 'text', inputMode: 'none', id: 'staff-code', class: 'code', 'data-scan': 'own', autocomplete: 'off' });
  const form = h(
    'form',
    {
      onsubmit: (event: Event) => {
        event.preventDefault();
        if (input.value.trim()) onCode(input.value.trim());
      },
    },
    h('label', { for: 'staff-code' }, t('codePlaceholder')),
    input,
    keypad(t, () => input, { decimal: false }),
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', onclick: onClose }, t('close')), h('button', { type: 'submit', class: 'primary' }, t('addCode'))),
  );
  return dialog('staff', t('staffCode'), onClose, form);
}
