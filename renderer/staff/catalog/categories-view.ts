import type { Category, CategoryUpdate } from '../../../shared/api/categories.js';
import { h, replaceChildren } from '../../kiosk/dom.js';
import { getAll, postAnswer, postData } from '../api.js';
import { reasonText } from '../call-reason.js';
import type { StaffTranslate } from '../texts.js';

/** Categories in the kiosk's order: by `index`, those without one last, then by name. */
export function inScreenOrder(categories: Category[]): Category[] {
  return categories
    .filter((c) => !c.deleted)
    .sort((a, b) => (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name));
}

/**
 * Categories: add one, rename it, move it up or down (which writes the new
 * `index` of every category whose place changed), and show it on the kiosk's
 * start screen or not.
 */
export function createCategoriesView(deps: { t: () => StaffTranslate; changed: () => void; note: (text: string, error?: boolean) => void }) {
  const root = h('div', { id: 'catalog-categories' });
  let categories: Category[] = [];

  async function refresh(): Promise<void> {
    categories = inScreenOrder(await getAll<Category>('/categories'));
    render();
  }

  /** One write at a time: a second click on a list about to be redrawn would act on the old order. */
  let writing = false;

  /**
   * The notice comes after the redraw: a clerk who acts on it (a second "Move
   * up") acts on the new order, not on a list whose write is still settling.
   */
  async function write(action: () => Promise<unknown>, done: string, focus?: string): Promise<void> {
    if (writing) return;
    writing = true;
    let outcome: [text: string, error: boolean] = [done, false];
    try {
      await action();
    } catch (error) {
      outcome = [deps.t()('catalogSaveFailed', { reason: reasonText(deps.t(), error) }), true];
    }
    try {
      await refresh();
    } finally {
      writing = false;
      deps.note(...outcome);
    }
    deps.changed();
    if (focus) root.querySelector<HTMLElement>(focus)?.focus();
  }

  const update = (id: string, body: CategoryUpdate) => postData(`/categories/${encodeURIComponent(id)}`, body);

  function move(from: number, to: number): Promise<void> {
    const order = [...categories];
    const [moved] = order.splice(from, 1) as [Category];
    order.splice(to, 0, moved);
    const renumbered = order.map((c, i) => ({ category: c, index: (i + 1) * 10 })).filter(({ category, index }) => category.index !== index);
    return write(
      async () => {
        for (const { category, index } of renumbered) await update(category.id, { index });
      },
      deps.t()('catalogCategoryMoved', { name: moved.name, place: to + 1 }),
      `[data-category="${moved.id}"] [data-action="${to < from ? 'up' : 'down'}"]`,
    );
  }

  function row(t: StaffTranslate, c: Category, i: number): HTMLElement {
    const name = h('input', { type: 'text', id: `category-name-${c.id}`, value: c.name, autocomplete: 'off' });
    const last = i === categories.length - 1;
    return h(
      'li',
      { 'data-category': c.id },
      h(
        'form',
        { class: 'category-row', onsubmit: (e: Event) => (e.preventDefault(), void write(() => update(c.id, { name: name.value.trim() }), t('catalogCategoryRenamed', { name: name.value.trim() }))) },
        h('label', { for: `category-name-${c.id}`, class: 'visually-hidden' }, t('catalogCategoryNameOf', { place: i + 1 })),
        name,
        h('button', { type: 'submit', 'data-action': 'rename' }, t('catalogRename')),
        h(
          'div',
          { class: 'check' },
          h('input', {
            type: 'checkbox',
            id: `category-screen-${c.id}`,
            checked: c.showOnScreen === true,
            onchange: (e: Event) => {
              const on = (e.target as HTMLInputElement).checked;
              void write(() => update(c.id, { showOnScreen: on }), t(on ? 'catalogCategoryShown' : 'catalogCategoryHidden', { name: c.name }), `#category-screen-${c.id}`);
            },
          }),
          h('label', { for: `category-screen-${c.id}` }, t('catalogShowOnScreen')),
        ),
        h('button', { type: 'button', 'data-action': 'up', disabled: i === 0, 'aria-label': t('catalogMoveUpOf', { name: c.name }), onclick: () => void move(i, i - 1) }, t('catalogMoveUp')),
        h('button', { type: 'button', 'data-action': 'down', disabled: last, 'aria-label': t('catalogMoveDownOf', { name: c.name }), onclick: () => void move(i, i + 1) }, t('catalogMoveDown')),
      ),
    );
  }

  function render(): void {
    const t = deps.t();
    const name = h('input', { type: 'text', id: 'category-new', autocomplete: 'off', required: true });
    const add = (e: Event) => {
      e.preventDefault();
      const index = ((categories[categories.length - 1]?.index ?? categories.length * 10) || 0) + 10;
      void write(() => postAnswer('/categories', { name: name.value.trim(), index, showOnScreen: true }), t('catalogCategoryAdded', { name: name.value.trim() }), '#category-new');
    };
    replaceChildren(
      root,
      h('h3', { id: 'categories-title' }, t('catalogCategories')),
      categories.length === 0 ? h('p', {}, t('catalogNoCategories')) : h('ol', { class: 'categories', 'aria-labelledby': 'categories-title' }, categories.map((c, i) => row(t, c, i))),
      h('form', { class: 'category-row', 'data-form': 'add-category', onsubmit: add }, h('label', { for: 'category-new' }, t('catalogCategoryNew')), name, h('button', { type: 'submit' }, t('catalogCategoryAdd'))),
    );
  }

  return { root, refresh, render, list: () => categories, forget: () => ((categories = []), render()) };
}
