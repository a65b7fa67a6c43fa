import type { Category } from '../../../shared/api/categories.js';
import type { Product } from '../../../shared/api/products.js';
import type { CartTotals } from '../cart.js';
import type { ScreenCatalog } from '../catalog-browser.js';
import { h, replaceChildren } from '../dom.js';
import type { Translate } from '../i18n/index.js';
import type { KioskSettings } from '../store-settings.js';
import { CartView, type CartActions } from './cart-view.js';
import { keyboard } from './keypad.js';
import { productTile } from './product-tile.js';

export interface ShopActions extends CartActions {
  choose(product: Product): void;
  info(product: Product): void;
  search(q: string): void;
}

/** Long enough to skip the keys of a fast typist, short enough that results follow each pause. */
const SEARCH_DEBOUNCE_MS = 25;

/** The start screen and the cart: browsing and search on one side, the purchase on the other. */
export class ShopView {
  readonly el: HTMLElement;
  private readonly results = h('div', { class: 'results', 'aria-live': 'polite' });
  private readonly message = h('p', { class: 'message', role: 'alert' });
  /** Confirms each product that lands in the cart to screen readers; the line's flash shows it to the eye. */
  private readonly confirmation = h('p', { class: 'visually-hidden', role: 'status', 'data-confirmation': '' });
  private readonly searchBox: HTMLInputElement;
  private readonly keyboardEl: HTMLElement;
  private readonly keyboardToggle: HTMLButtonElement;
  private readonly cart: CartView;
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
      id: 'search',
      class: 'search',
      inputMode: 'none',
      placeholder: t('searchPlaceholder'),
      'aria-label': t('searchPlaceholder'),
      autocomplete: 'off',
      onpointerdown: () => this.showKeyboard(true),
      oninput: () => {
        clearTimeout(debounce);
        debounce = setTimeout(() => actions.search(this.searchBox.value.trim()), SEARCH_DEBOUNCE_MS);
      },
    });
    this.keyboardEl = keyboard(t, () => this.searchBox);
    this.keyboardEl.hidden = true;
    this.keyboardToggle = h('button', { type: 'button', class: 'secondary keyboard-toggle', 'aria-expanded': 'false', 'aria-controls': 'search-keyboard', onclick: () => this.showKeyboard(this.keyboardEl.hidden) }, t('keyboardShow'));
    this.keyboardEl.id = 'search-keyboard';
    this.cart = new CartView(t, settings, actions, this.message);
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
          !settings.hideTextStart && h('div', { class: 'welcome on-background' }, h('h1', {}, t('welcome')), h('p', {}, t('startHint'))),
          settings.customMessage && h('p', { class: 'custom-message', 'data-setting': 'customMessage' }, settings.customMessage),
          h('div', { class: 'search-row' }, this.searchBox, this.keyboardToggle),
          this.keyboardEl,
          this.results,
        ),
        this.cart.el,
        this.confirmation,
      ),
    );
  }

  showMessage(text: string): void {
    this.message.textContent = text;
  }

  /** Tells that a product landed in the cart, for screen readers (the cart line flashes for the eye). */
  confirmAdded(name: string): void {
    this.confirmation.textContent = this.t('added', { name });
  }

  setCatalog(catalog: ScreenCatalog): void {
    this.catalog = catalog;
    if (this.searchBox.value.trim() === '') this.showBrowse();
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
        h('h2', { class: 'on-background' }, category.name),
        this.tiles(catalog.byCategory.get(category.id) ?? []),
      );
    }
    replaceChildren(
      this.results,
      catalog.categories.length > 0 &&
        h(
          'nav',
          { class: 'categories', 'aria-label': this.t('categories') },
          catalog.categories.map((c) =>
            h('button', { class: 'category', 'data-category': c.id, onclick: () => ((this.category = c), this.showBrowse()) },
              c.imageUrl ? h('img', { src: c.imageUrl, alt: '' }) : false,
              h('span', {}, c.name)),
          ),
        ),
      this.tiles(catalog.loose),
    );
  }

  showSearchResults(q: string, products: Product[]): void {
    if (this.searchBox.value.trim() !== q) return;
    replaceChildren(this.results, products.length === 0 ? h('p', { class: 'empty on-background' }, this.t('noResults')) : this.tiles(products));
    this.results.dataset.query = q;
  }

  renderCart(totals: CartTotals, supplierName: (id: string) => string | undefined, at: string, flashKey?: number): void {
    this.el.dataset.cart = totals.lines.length === 0 ? 'empty' : 'filled';
    this.cart.render(totals, supplierName, at, flashKey);
  }

  private showKeyboard(show: boolean): void {
    this.keyboardEl.hidden = !show;
    this.keyboardToggle.textContent = this.t(show ? 'keyboardHide' : 'keyboardShow');
    this.keyboardToggle.setAttribute('aria-expanded', String(show));
  }

  private tiles(products: Product[]): HTMLElement {
    const options = { t: this.t, showInfoButton: this.settings.showInfoButton, onChoose: this.actions.choose, onInfo: this.actions.info };
    return h('div', { class: 'tiles' }, products.map((p) => productTile(p, options)));
  }
}
