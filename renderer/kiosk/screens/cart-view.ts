import { unitPriceAt } from '../../../shared/order-pricing.js';
import type { CartLine, CartTotals } from '../cart.js';
import { h, replaceChildren } from '../dom.js';
import type { Translate } from '../i18n/index.js';
import type { KioskSettings } from '../store-settings.js';

export interface CartActions {
  setQuantity(key: number, quantity: number): void;
  remove(key: number): void;
  pay(): void;
  clear(): void;
}

/**
 * The purchase: lines scroll, while the total and *Pay* stay in view below
 * them however many lines there are.
 */
export class CartView {
  readonly el: HTMLElement;
  private readonly lines = h('ol', { class: 'lines' });
  private readonly footer = h('div', { class: 'cart-footer' });

  constructor(
    private readonly t: Translate,
    private readonly settings: KioskSettings,
    private readonly actions: CartActions,
    message: HTMLElement,
  ) {
    this.el = h('aside', { class: 'cart', 'aria-labelledby': 'cart-title' }, h('h2', { id: 'cart-title' }, t('cart')), message, this.lines, this.footer);
  }

  /** `flashKey` names the line a scan or a tap just changed: it lights up and scrolls into view. */
  render(totals: CartTotals, supplierName: (id: string) => string | undefined, at: string, flashKey?: number): void {
    const t = this.t;
    replaceChildren(
      this.lines,
      totals.lines.length === 0 && h('li', { class: 'empty' }, t('emptyCart')),
      totals.lines.map(({ line, priced }) => {
        const name = line.product.name;
        const supplier = this.settings.showSupplier && line.product.supplier ? supplierName(line.product.supplier) : undefined;
        return h(
          'li',
          { class: line.key === flashKey ? 'line flash' : 'line', 'data-line': line.product.id, 'data-key': String(line.key) },
          h('button', { class: 'remove', 'aria-label': t('remove', { name }), onclick: () => this.actions.remove(line.key) }, '×'),
          h('span', { class: 'name', title: name }, name),
          h(
            'span',
            { class: 'sub' },
            unitText(t, line, at) && h('span', { class: 'unit-price', 'data-unit-price': '' }, unitText(t, line, at)),
            line.scaleLabel?.kind === 'weight' && h('span', { class: 'weight' }, `${(line.scaleLabel.grams / 1000).toFixed(3)} kg`),
            supplier && h('span', { class: 'supplier' }, t('supplier', { name: supplier })),
          ),
          line.price !== undefined
            ? h('span', { class: 'qty-fixed' })
            : h(
                'span',
                { class: 'qty' },
                h('button', { 'aria-label': t('decrease', { name }), onclick: () => this.actions.setQuantity(line.key, line.quantity - 1) }, '−'),
                h('output', { 'aria-label': t('quantityOf', { name }), 'data-quantity': '' }, String(line.quantity)),
                h('button', { 'aria-label': t('increase', { name }), onclick: () => this.actions.setQuantity(line.key, line.quantity + 1) }, '+'),
              ),
          h('span', { class: 'amount', 'data-amount': '' }, t.money(priced.price)),
          priced.deposit > 0 &&
            h('span', { class: 'deposit', 'data-deposit': '' }, h('span', {}, line.product.depositProductLabel || t('deposit')), h('span', { class: 'amount' }, t.money(priced.deposit))),
        );
      }),
    );
    replaceChildren(
      this.footer,
      h('p', { class: 'total' }, h('span', {}, t('total')), h('strong', { 'data-total': '' }, t.money(totals.total))),
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'secondary', disabled: totals.lines.length === 0, onclick: this.actions.clear }, t('clearCart')),
        h('button', { class: 'primary', 'data-action': 'pay', disabled: totals.lines.length === 0, onclick: this.actions.pay }, t('pay')),
      ),
    );
    this.lines.querySelector('.flash')?.scrollIntoView({ block: 'nearest' });
  }
}

/** What one unit costs: per piece, or per kilogram for a weighed line; an amount typed in has none. */
function unitText(t: Translate, line: CartLine, at: string): string | undefined {
  if (line.scaleLabel) return t('unitPriceKg', { price: t.money(unitPriceAt(line.product, at)) });
  if (line.price !== undefined) return undefined;
  return t('unitPrice', { price: t.money(unitPriceAt(line.product, at)) });
}
