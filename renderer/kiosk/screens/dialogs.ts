import type { Product } from '../../../shared/api/products.js';
import { h } from '../dom.js';
import type { Translate } from '../i18n/index.js';
import { formatCents } from '../money.js';

function dialog(name: string, title: string, ...body: (HTMLElement | false | undefined)[]): HTMLElement {
  return h('div', { class: 'overlay' }, h('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': `${name}-title`, 'data-dialog': name }, h('h2', { id: `${name}-title` }, title), ...body));
}

/** One scanned code matched several products: the customer picks one. */
export function chooseDialog(t: Translate, products: Product[], onChoose: (p: Product) => void, onCancel: () => void): HTMLElement {
  return dialog(
    'choose',
    t('chooseTitle'),
    h('div', { class: 'choices' }, products.map((p) => h('button', { class: 'choice', 'data-product': p.id, onclick: () => onChoose(p) }, h('span', {}, p.name), h('strong', {}, formatCents(p.price))))),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onCancel }, t('cancel'))),
  );
}

/** An `openInput` product: the customer types the amount, in francs. */
export function amountDialog(t: Translate, product: Product, onAmount: (cents: number) => void, onCancel: () => void): HTMLElement {
  const input = h('input', { type: 'text', inputMode: 'decimal', id: 'amount', 'data-scan': 'own', autocomplete: 'off', required: true, pattern: '\\d{1,5}([.,]\\d{1,2})?' });
  const form = h(
    'form',
    {
      onsubmit: (event: Event) => {
        event.preventDefault();
        const [whole, frac = ''] = input.value.trim().replace(',', '.').split('.');
        const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
        if (Number.isInteger(cents) && cents > 0) onAmount(cents);
      },
    },
    h('label', { for: 'amount' }, t('amountLabel')),
    input,
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', onclick: onCancel }, t('cancel')), h('button', { type: 'submit', class: 'primary' }, t('confirm'))),
  );
  return dialog('amount', t('amountTitle', { name: product.name }), form);
}

/** What the info button shows: description and declarations. */
export function infoDialog(t: Translate, product: Product, onClose: () => void): HTMLElement {
  return dialog(
    'info',
    product.name,
    product.imageUrl ? h('img', { class: 'info-image', src: product.imageUrl, alt: '' }) : false,
    product.description ? h('p', {}, product.description) : false,
    product.declarations ? h('p', { class: 'declarations' }, product.declarations) : false,
    h('div', { class: 'actions' }, h('button', { class: 'primary', onclick: onClose }, t('close'))),
  );
}

/** The visible countdown before an unfinished purchase is cancelled. */
export function idleDialog(t: Translate, seconds: number, onContinue: () => void): HTMLElement {
  return dialog(
    'idle',
    t('idleTitle'),
    h('p', { class: 'countdown', 'data-countdown': String(seconds) }, t('idleCountdown', { seconds })),
    h('div', { class: 'actions' }, h('button', { class: 'primary', onclick: onContinue }, t('idleContinue'))),
  );
}
