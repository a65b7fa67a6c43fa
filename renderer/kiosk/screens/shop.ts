import type { Category } from '../../../shared/api/categories.js';
import type { Product } from '../../../shared/api/products.js';
import type { CartTotals } from '../cart.js';
import type { ScreenCatalog } from '../catalog-browser.js';
import { h, replaceChildren } from '../dom.js';
import type { Translate } from '../i18n/index.js';
import { formatCents } from '../money.js';
import type { KioskSettings } from '../store-settings.js';
import { productTile } from './product-tile.js';

export interface ShopActions {
  choose(product: Product): void;
  info(product: Product): void;
  search(q: string): void;
  enterCode(code: string): void;
  setQuantity(key: number, quantity: number): void;
  remove(key: number): void;
  pay(): void;
  clear(): void;
}

/** Long enough to skip the keys of a fast typist, short enough that results follow each pause. */
const SEARCH_DEBOUNCE_MS = 25;

/** The start screen and the cart: browsing and search on one side, the purchase on the other. */
export class ShopView {
  readonly el: HTMLElement;
  private readonly results = h('div', { class: 'results', 'aria-live': 'polite' });
  private readonly cartLines = h('ol', { class: 'lines' });
  private readonly cartFooter = h('div', { class: 'cart-footer' });
  private readonly message = h('p', { class: 'message', role: 'alert' });
  private readonly searchBox: HTMLInputElement;
  private category: Category | undefined;
  private catalog: ScreenCatalog | undefined;

  constructor(
    private readonly t: Translate,
    private readonly settings: KioskSettings,
    private readonly actions: ShopActions,
    top: HTMLElement,
  ) {
    let debounce: ReturnType<typeof setTimeout> | undefined;
    this.searchBox = h('input', {
      type: 'search',
      class: 'search',
      placeholder: t('searchPlaceholder'),
      'aria-label': t('searchPlaceholder'),
      autocomplete: 'off',
      oninput: () => {
        clearTimeout(debounce);
        debounce = setTimeout(() => actions.search(this.searchBox.value.trim()), SEARCH_DEBOUNCE_MS);
      },
    });
    const code = h('input', { type: 'text', inputMode: 'numeric', class: 'code', placeholder: t('codePlaceholder'), 'aria-label': t('codePlaceholder'), 'data-scan': 'own', autocomplete: 'off' });
    const codeForm = h(
      'form',
      {
        class: 'code-form',
        onsubmit: (event: Event) => {
          event.preventDefault();
          if (code.value.trim()) actions.enterCode(code.value.trim());
          code.value = '';
        },
      },
      code,
      h('button', { type: 'submit', class: 'secondary' }, t('addCode')),
    );
    this.el = h(
      'section',
      { class: 'screen shop', 'data-screen': 'shop' },
      top,
      h(
        'div',
        { class: 'shop-body' },
        h(
          'div',
          { class: 'browse' },
          !settings.hideTextStart && h('div', { class: 'welcome' }, h('h1', {}, t('welcome')), h('p', {}, t('startHint'))),
          settings.customMessage && h('p', { class: 'custom-message', 'data-setting': 'customMessage' }, settings.customMessage),
          this.searchBox,
          this.results,
        ),
        h('aside', { class: 'cart', 'aria-labelledby': 'cart-title' }, h('h2', { id: 'cart-title' }, t('cart')), this.message, this.cartLines, this.cartFooter, codeForm),
      ),
    );
  }

  showMessage(text: string): void {
    this.message.textContent = text;
  }

  setCatalog(catalog: ScreenCatalog): void {
    this.catalog = catalog;
    if (this.searchBox.value.trim() === '') this.showBrowse();
  }

  clearSearch(): void {
    this.searchBox.value = '';
    this.category = undefined;
    this.showBrowse();
  }

  showBrowse(): void {
    this.results.dataset.query = '';
    const catalog = this.catalog;
    if (!catalog) return replaceChildren(this.results);
    if (this.category) {
      const category = this.category;
      return replaceChildren(
        this.results,
        h('button', { class: 'secondary back', onclick: () => ((this.category = undefined), this.showBrowse()) }, `← ${this.t('back')}`),
        h('h2', {}, category.name),
        this.tiles(catalog.byCategory.get(category.id) ?? []),
      );
    }
    replaceChildren(
      this.results,
      catalog.categories.length > 0 &&
        h(
          'div',
          { class: 'categories', role: 'list', 'aria-label': this.t('categories') },
          catalog.categories.map((c) =>
            h('button', { class: 'category', role: 'listitem', 'data-category': c.id, onclick: () => ((this.category = c), this.showBrowse()) },
              c.imageUrl ? h('img', { src: c.imageUrl, alt: '' }) : false,
              h('span', {}, c.name)),
          ),
        ),
      this.tiles(catalog.loose),
    );
  }

  showSearchResults(q: string, products: Product[]): void {
    if (this.searchBox.value.trim() !== q) return;
    replaceChildren(this.results, products.length === 0 ? h('p', { class: 'empty' }, this.t('noResults')) : this.tiles(products));
    this.results.dataset.query = q;
  }

  private tiles(products: Product[]): HTMLElement {
    const options = { t: this.t, showInfoButton: this.settings.showInfoButton, onChoose: this.actions.choose, onInfo: this.actions.info };
    return h('div', { class: 'tiles' }, products.map((p) => productTile(p, options)));
  }

  renderCart(totals: CartTotals, supplierName: (id: string) => string | undefined): void {
    const t = this.t;
    this.el.dataset.cart = totals.lines.length === 0 ? 'empty' : 'filled';
    replaceChildren(
      this.cartLines,
      totals.lines.length === 0 && h('li', { class: 'empty' }, t('emptyCart')),
      totals.lines.map(({ line, priced }) => {
        const name = line.product.name;
        const supplier = this.settings.showSupplier && line.product.supplier ? supplierName(line.product.supplier) : undefined;
        const fixed = line.price !== undefined;
        return h(
          'li',
          { class: 'line', 'data-line': line.product.id },
          h(
            'div',
            { class: 'line-main' },
            h('span', { class: 'name' }, name),
            supplier && h('span', { class: 'supplier' }, t('supplier', { name: supplier })),
            line.scaleLabel?.kind === 'weight' && h('span', { class: 'weight' }, `${(line.scaleLabel.grams / 1000).toFixed(3)} kg`),
            fixed
              ? h('span', { class: 'qty-fixed' })
              : h(
                  'span',
                  { class: 'qty' },
                  h('button', { 'aria-label': t('decrease', { name }), onclick: () => this.actions.setQuantity(line.key, line.quantity - 1) }, '−'),
                  h('output', { 'aria-label': t('quantityOf', { name }), 'data-quantity': '' }, String(line.quantity)),
                  h('button', { 'aria-label': t('increase', { name }), onclick: () => this.actions.setQuantity(line.key, line.quantity + 1) }, '+'),
                ),
            h('span', { class: 'amount', 'data-amount': '' }, formatCents(priced.price)),
            h('button', { class: 'remove', 'aria-label': t('remove', { name }), onclick: () => this.actions.remove(line.key) }, '×'),
          ),
          priced.deposit > 0 &&
            h('div', { class: 'deposit', 'data-deposit': '' }, h('span', {}, line.product.depositProductLabel || t('deposit')), h('span', { class: 'amount' }, formatCents(priced.deposit))),
        );
      }),
    );
    replaceChildren(
      this.cartFooter,
      h('p', { class: 'total' }, h('span', {}, t('total')), h('strong', { 'data-total': '' }, formatCents(totals.total))),
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'secondary', disabled: totals.lines.length === 0, onclick: this.actions.clear }, t('clearCart')),
        h('button', { class: 'primary', 'data-action': 'pay', disabled: totals.lines.length === 0, onclick: this.actions.pay }, t('pay')),
      ),
    );
  }
}
