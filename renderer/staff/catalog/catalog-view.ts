import type { Product } from '../../../shared/api/products.js';
import { h, replaceChildren } from '../../kiosk/dom.js';
import { listenForScans } from '../../kiosk/scanner-input.js';
import { API_BASE, deleteData, getPage, getTagged } from '../api.js';
import { reasonText } from '../call-reason.js';
import type { StaffTranslate } from '../texts.js';
import { createCategoriesView } from './categories-view.js';
import { createFilesPanel } from './files-panel.js';
import { createProductForm } from './product-form.js';
import { createProductList } from './product-list.js';

/** How long a deleted product can be brought back before its deletion is sent. */
export const UNDO_MS = 10_000;

/**
 * The catalog section (write key): the product list and its form, new
 * products by scanning, deletion with Undo, the categories and the catalog
 * files. Every change is a call of the API, so it is queued for sync like any write.
 */
export function createCatalogView(deps: { t: () => StaffTranslate; failed: (error: unknown) => void }) {
  const intro = h('div', {});
  const notice = h('div', { class: 'catalog-notice', role: 'status' });
  let note: { text: string; error: boolean } | undefined;
  /** A deletion waiting out its Undo: the product is off the list already. */
  let pending: { product: Product; timer: ReturnType<typeof setTimeout> } | undefined;
  /** Scans are listened for while signed in only: before, a scanner may be typing the key itself. */
  let stopScans: (() => void) | undefined;

  const say = (text: string, error = false) => ((note = { text, error }), renderNotice());

  const categories = createCategoriesView({ t: deps.t, note: say, changed: () => (list.render(), void list.refresh()) });
  const form = createProductForm({
    t: deps.t,
    categories: categories.list,
    saved: (id, name, created, complete) => void saved(id, name, created, complete),
  });
  const list = createProductList({
    t: deps.t,
    categories: categories.list,
    hidden: (id) => pending?.product.id === id,
    edit: (product) => void edit(product.id),
    remove: (product) => void remove(product),
    create: () => form.open(undefined),
    failed: deps.failed,
  });
  const files = createFilesPanel({ t: deps.t, imported: () => void list.refresh() });
  const root = h('section', { id: 'catalog', 'aria-labelledby': 'catalog-title' }, intro, notice, list.root, categories.root, files.root, form.root);

  /**
   * The notice comes once the list shows the change, so "saved" never sits
   * above a row with the old values. After the dialog closes, the keyboard goes
   * on from the saved product's row (or the search, when the list does not show it).
   */
  async function saved(id: string, name: string, created: boolean, complete: boolean): Promise<void> {
    await list.refresh();
    say(deps.t()(created ? 'catalogCreated' : 'catalogSaved', { name }));
    // The image still to upload keeps the form open, and the keyboard in it.
    if (!complete) return;
    (root.querySelector<HTMLElement>(`[data-product="${id}"] [data-action="edit"]`) ?? root.querySelector<HTMLElement>('#catalog-q'))?.focus();
  }

  /** Sends the waiting deletion now (another deletion, the Undo's time is up, the page is left). */
  async function commitPending(): Promise<void> {
    const waiting = pending;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    pending = undefined;
    try {
      await deleteData(`/products/${encodeURIComponent(waiting.product.id)}`);
      if (note?.text === deps.t()('catalogDeleted', { name: waiting.product.name })) note = undefined;
    } catch (error) {
      note = { text: deps.t()('catalogSaveFailed', { reason: reasonText(deps.t(), error) }), error: true };
    }
    renderNotice();
    await list.refresh();
  }

  async function remove(product: Product): Promise<void> {
    await commitPending();
    pending = { product, timer: setTimeout(() => void commitPending(), UNDO_MS) };
    say(deps.t()('catalogDeleted', { name: product.name }));
    await list.refresh();
    notice.querySelector<HTMLElement>('[data-action="undo"]')?.focus();
  }

  function undo(): void {
    if (!pending) return;
    clearTimeout(pending.timer);
    const { product } = pending;
    pending = undefined;
    say(deps.t()('catalogRestored', { name: product.name }));
    void list.refresh();
  }

  // Leaving the page does not wait for the Undo: the deletion goes out as the page unloads.
  window.addEventListener('pagehide', () => {
    if (!pending) return;
    void fetch(`${API_BASE}/products/${encodeURIComponent(pending.product.id)}`, { method: 'DELETE', keepalive: true });
    pending = undefined;
  });

  /** Opens a product as stored now, with its version for the save's `If-Match`. */
  async function edit(id: string): Promise<void> {
    try {
      const fresh = await getTagged<Product>(`/products/${encodeURIComponent(id)}`);
      form.open(fresh.data, '', fresh.etag);
    } catch (error) {
      deps.failed(error);
    }
  }

  /** A scanned code opens its product, or a new one with the code filled in. */
  function scanned(code: string): void {
    if (form.isOpen()) form.offerSwitch(code, () => void openScanned(code));
    else void openScanned(code);
  }

  async function openScanned(code: string): Promise<void> {
    try {
      const found = await getPage<Product>(`/products?barcode=${encodeURIComponent(code)}&limit=1`);
      const product = found.data[0];
      if (product) await edit(product.id);
      else form.open(undefined, code);
    } catch (error) {
      deps.failed(error);
    }
  }

  function renderNotice(): void {
    const t = deps.t();
    replaceChildren(
      notice,
      note && h('p', { class: note.error ? 'down' : 'ok' }, note.text),
      pending && h('button', { type: 'button', 'data-action': 'undo', onclick: undo }, t('catalogUndo')),
      pending && h('button', { type: 'button', 'data-action': 'delete-now', onclick: () => void commitPending() }, t('catalogDeleteNow')),
    );
  }

  function render(): void {
    const t = deps.t();
    replaceChildren(intro, h('h2', { id: 'catalog-title' }, t('catalogTitle')), h('p', { class: 'hint' }, t('catalogIntro')));
    renderNotice();
    list.render();
    categories.render();
    files.render();
  }

  async function refresh(): Promise<void> {
    stopScans ??= listenForScans(document, scanned);
    render();
    await categories.refresh();
    list.render();
    await list.reload();
  }

  /** Signing out: the waiting deletion goes out while the page is still signed in, and scans are no longer taken. */
  async function forget(): Promise<void> {
    stopScans?.();
    stopScans = undefined;
    await commitPending();
    note = undefined;
    list.forget();
    categories.forget();
    files.forget();
  }

  return { root, render, refresh, forget };
}
