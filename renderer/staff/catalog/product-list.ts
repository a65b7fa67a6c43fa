import type { Category } from '../../../shared/api/categories.js';
import { MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET, type Product } from '../../../shared/api/products.js';
import { h, replaceChildren } from '../../kiosk/dom.js';
import { getPage } from '../api.js';
import type { StaffTranslate } from '../texts.js';
import { marginWords } from './margin-words.js';
import { createFilteredPages, type FilteredPage, type FilteredPages, type PageSource } from './filtered-pages.js';

/** Rows on one page of the list. */
const PAGE_SIZE = 25;
/** Products read per request while a filter walks the catalog: a few requests cover 20,000. */
const WALK_CHUNK = 1000;
/** Typing pauses this long before the search runs. */
const TYPING_PAUSE_MS = 250;

export interface ListFilters {
  category: string;
  saleStop: boolean;
  noBarcode: boolean;
  noImage: boolean;
  ageLimit: boolean;
}

const NO_FILTERS: ListFilters = { category: '', saleStop: false, noBarcode: false, noImage: false, ageLimit: false };

/** The list endpoint has no parameter for these: the page keeps a product when it passes every filter set. */
export function passesFilters(product: Product, filters: ListFilters): boolean {
  if (filters.category && product.category !== filters.category) return false;
  if (filters.saleStop && !product.saleStop) return false;
  if (filters.noBarcode && product.barcode !== '' && product.barcode !== product.id) return false;
  if (filters.noImage && product.imageUrl !== '') return false;
  if (filters.ageLimit && !product.ageRestriction) return false;
  return true;
}

/** The catalog in id order, by cursor; or the kiosk's search (typos, accents), by offset. */
function productSource(q: string): PageSource<Product> {
  if (q === '') {
    return async (cursor) => {
      const page = await getPage<Product>(`/products?limit=${WALK_CHUNK}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      return { items: page.data, next: page.meta.nextCursor };
    };
  }
  return async (position) => {
    const offset = Number(position ?? 0);
    const page = await getPage<Product>(`/products?q=${encodeURIComponent(q)}&limit=${MAX_SEARCH_LIMIT}&offset=${offset}`);
    const next = offset + page.meta.limit;
    return { items: page.data, next: page.data.length === page.meta.limit && next <= MAX_SEARCH_OFFSET ? String(next) : undefined };
  };
}

export interface ProductListDeps {
  t: () => StaffTranslate;
  categories: () => Category[];
  /** Products whose deletion waits for its Undo: no longer listed. */
  hidden: (id: string) => boolean;
  edit: (product: Product) => void;
  remove: (product: Product) => void;
  create: () => void;
  failed: (error: unknown) => void;
}

/**
 * The product list: search and filters, then pages of 25. The controls are
 * built once per language, so a list arriving never disturbs what is typed.
 */
export function createProductList(deps: ProductListDeps) {
  const controls = h('form', { role: 'search', class: 'catalog-search', onsubmit: (e: Event) => (e.preventDefault(), void reload()) });
  const results = h('div', { id: 'catalog-results' });
  const root = h('div', { id: 'catalog-products' }, controls, results);
  let q = '';
  let filters = NO_FILTERS;
  let pages: FilteredPages<Product> | undefined;
  let shown: FilteredPage<Product> | undefined;
  let generation = 0;
  let typing: ReturnType<typeof setTimeout> | undefined;

  async function show(read: (pages: FilteredPages<Product>) => Promise<FilteredPage<Product>>): Promise<void> {
    const mine = ++generation;
    try {
      const page = await read(pages as FilteredPages<Product>);
      if (mine !== generation) return;
      shown = page;
      renderResults();
    } catch (error) {
      if (mine === generation) deps.failed(error);
    }
  }

  /** Reads the list from the first page with the search and filters as they are now. */
  function reload(): Promise<void> {
    const current = { ...filters };
    pages = createFilteredPages(productSource(q), (p) => !deps.hidden(p.id) && passesFilters(p, current), PAGE_SIZE);
    return show((p) => p.first());
  }

  const refresh = () => (pages ? show((p) => p.current()) : reload());

  function renderControls(): void {
    const t = deps.t();
    const check = (id: keyof ListFilters, label: string) =>
      h(
        'div',
        { class: 'check' },
        h('input', { type: 'checkbox', id: `catalog-filter-${id}`, checked: filters[id] === true, onchange: (e: Event) => setFilter(id, (e.target as HTMLInputElement).checked) }),
        h('label', { for: `catalog-filter-${id}` }, label),
      );
    const categories = deps.categories().filter((c) => !c.deleted);
    replaceChildren(
      controls,
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'catalog-q' }, t('catalogSearch')),
        h('input', {
          id: 'catalog-q',
          type: 'search',
          value: q,
          autocomplete: 'off',
          'aria-describedby': 'catalog-q-hint',
          oninput: (e: Event) => {
            clearTimeout(typing);
            const text = (e.target as HTMLInputElement).value.trim();
            typing = setTimeout(() => ((q = text), void reload()), TYPING_PAUSE_MS);
          },
        }),
        h('span', { id: 'catalog-q-hint', class: 'hint' }, t('catalogSearchHint')),
      ),
      h(
        'div',
        { class: 'catalog-controls' },
        h('label', { for: 'catalog-filter-category' }, t('catalogCategory')),
        h(
          'select',
          { id: 'catalog-filter-category', onchange: (e: Event) => setFilter('category', (e.target as HTMLSelectElement).value) },
          h('option', { value: '' }, t('catalogAllCategories')),
          categories.map((c) => h('option', { value: c.id, selected: c.id === filters.category }, c.name)),
        ),
        check('saleStop', t('catalogFilterSaleStop')),
        check('noBarcode', t('catalogFilterNoBarcode')),
        check('noImage', t('catalogFilterNoImage')),
        check('ageLimit', t('catalogFilterAge')),
        h('button', { type: 'button', 'data-action': 'new-product', onclick: deps.create }, t('catalogNew')),
      ),
    );
  }

  function setFilter<K extends keyof ListFilters>(name: K, value: ListFilters[K]): void {
    filters = { ...filters, [name]: value };
    void reload();
  }

  function productRow(t: StaffTranslate, p: Product): HTMLElement {
    const category = deps.categories().find((c) => c.id === p.category);
    const margin = marginWords(t, p, category);
    const notes = [
      p.saleStop && t('catalogSoldOut'),
      p.ageRestriction && t('catalogAgeFrom', { age: p.minimumAge ?? 18 }),
      p.imageUrl === '' && t('catalogNoImage'),
    ].filter((n): n is string => typeof n === 'string');
    return h(
      'tr',
      { 'data-product': p.id },
      h('td', {}, p.name),
      h('td', {}, p.barcode === p.id ? '' : p.barcode),
      h('td', { class: 'num' }, t.money(p.price)),
      h('td', {}, category?.name ?? '–'),
      h(
        'td',
        { class: 'num', 'data-margin': margin?.standing },
        margin?.percent,
        margin?.outside && [h('br'), h('span', { class: 'down' }, margin.outside)],
      ),
      h('td', {}, notes.join(', ')),
      h(
        'td',
        { class: 'row-buttons' },
        h('button', { type: 'button', 'data-action': 'edit', 'aria-label': t('catalogEditOf', { name: p.name }), onclick: () => deps.edit(p) }, t('catalogEdit')),
        h('button', { type: 'button', class: 'danger', 'data-action': 'delete', 'aria-label': t('catalogDeleteOf', { name: p.name }), onclick: () => deps.remove(p) }, t('catalogDelete')),
      ),
    );
  }

  function renderResults(): void {
    const t = deps.t();
    if (!shown) return replaceChildren(results);
    const head = [t('catalogName'), t('catalogBarcode'), t('catalogPrice'), t('catalogCategory'), t('catalogMargin'), t('catalogNotes'), t('keyActions')];
    replaceChildren(
      results,
      h('p', { role: 'status', class: 'hint' }, shown.items.length === 0 ? t('catalogNoneFound') : t('catalogPageOf', { page: shown.number, count: shown.items.length })),
      shown.items.length > 0 &&
        h(
          'table',
          { 'data-table': 'products' },
          h('thead', {}, h('tr', {}, head.map((label) => h('th', { scope: 'col' }, label)))),
          h('tbody', {}, shown.items.map((p) => productRow(t, p))),
        ),
      h(
        'nav',
        { class: 'pager', 'aria-label': t('catalogPages') },
        h('button', { type: 'button', disabled: !shown.hasPrevious, onclick: () => void show((p) => p.previous()) }, t('catalogPrevious')),
        h('button', { type: 'button', disabled: !shown.hasNext, onclick: () => void show((p) => p.next()) }, t('catalogNext')),
      ),
    );
  }

  function render(): void {
    renderControls();
    renderResults();
  }

  return { root, reload, refresh, render, forget: () => ((shown = undefined), (pages = undefined), (q = ''), (filters = NO_FILTERS)) };
}
