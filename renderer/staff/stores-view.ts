import type { Store, StoreUpdate } from '../../shared/api/stores.js';
import { STORE_LANGUAGES, type StoreLanguage } from '../../shared/languages.js';
import { DEFAULT_TIME_ZONE } from '../../shared/time-zones.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { CallError, getAll, postAnswer, postData } from './api.js';
import { reasonText } from './call-reason.js';
import { LANGUAGE_NAMES, type StaffTextKey, type StaffTranslate } from './texts.js';

/** The store fields the page edits, each a text box unless said otherwise, with its label. */
const TEXT_FIELDS = [
  ['name', 'storeName'],
  ['address', 'storeAddress'],
  ['zipCode', 'storeZip'],
  ['city', 'storeCity'],
  ['adminMail', 'storeAdminMail'],
  ['timeZone', 'storeTimeZone'],
  ['generalMargin', 'storeMargin'],
] as const satisfies readonly (readonly [keyof Store, StaffTextKey])[];

type TextField = (typeof TEXT_FIELDS)[number][0];

/** What the form holds, as typed. */
interface StoreDraft {
  texts: Record<TextField, string>;
  languageMain: StoreLanguage;
  paymentCash: boolean;
}

function draftOf(store: Store | undefined): StoreDraft {
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  return {
    texts: {
      name: text(store?.name),
      address: text(store?.address),
      zipCode: text(store?.zipCode),
      city: text(store?.city),
      adminMail: text(store?.adminMail),
      timeZone: store ? text(store.timeZone) : DEFAULT_TIME_ZONE,
      generalMargin: text(store?.generalMargin),
    },
    languageMain: store?.languageMain ?? 'de',
    paymentCash: store?.paymentCash ?? false,
  };
}

/**
 * The write that turns `store` (none for a new one) into what the form says:
 * only the fields that changed; an emptied field is cleared with `null`.
 */
function storeWrite(store: Store | undefined, draft: StoreDraft): { write: StoreUpdate; badMargin: boolean } {
  const before = draftOf(store);
  const write: Record<string, unknown> = {};
  let badMargin = false;
  for (const [field] of TEXT_FIELDS) {
    const value = draft.texts[field].trim();
    if (store && value === before.texts[field]) continue;
    if (value === '') {
      if (store) write[field] = null;
      continue;
    }
    if (field === 'generalMargin') {
      const margin = Number(value.replace(',', '.'));
      if (!Number.isFinite(margin) || margin < 0 || margin > 100) badMargin = true;
      else write[field] = margin;
    } else write[field] = value;
  }
  if (!store || draft.languageMain !== before.languageMain) write.languageMain = draft.languageMain;
  if (!store || draft.paymentCash !== before.paymentCash) write.paymentCash = draft.paymentCash;
  return { write: write as StoreUpdate, badMargin };
}

/**
 * Stores (write key): the organization's stores with their language, time
 * zone and the owner's address for alerts; a new one or a change in a dialog,
 * written through the API like any other change.
 */
export function createStoresView(deps: { t: () => StaffTranslate; changed: () => void }) {
  const content = h('div', {});
  const dialog = h('dialog', { id: 'store-dialog', 'aria-labelledby': 'store-dialog-title' });
  const root = h('section', { id: 'stores', 'aria-labelledby': 'stores-title' }, content, dialog);
  let stores: Store[] = [];
  let editing: Store | undefined;
  let createKey = '';
  let problems: { field: string; text: string }[] = [];
  let note: string | undefined;

  async function refresh(): Promise<void> {
    stores = (await getAll<Store>('/stores')).filter((s) => !s.deleted);
    render();
  }

  function typed(): StoreDraft {
    const value = (id: string) => dialog.querySelector<HTMLInputElement | HTMLSelectElement>(`#store-${id}`)?.value ?? '';
    return {
      texts: Object.fromEntries(TEXT_FIELDS.map(([field]) => [field, value(field)])) as Record<TextField, string>,
      languageMain: value('languageMain') as StoreLanguage,
      paymentCash: dialog.querySelector<HTMLInputElement>('#store-paymentCash')?.checked ?? false,
    };
  }

  async function save(): Promise<void> {
    const t = deps.t();
    const draft = typed();
    const { write, badMargin } = storeWrite(editing, draft);
    problems = [];
    if (draft.texts.name.trim() === '') problems.push({ field: 'name', text: t('storeNameMissing') });
    if (badMargin) problems.push({ field: 'generalMargin', text: t('storeMarginInvalid') });
    if (problems.length > 0) return renderDialog(draft);
    try {
      if (editing) await postData(`/stores/${encodeURIComponent(editing.id)}`, write);
      else await postAnswer('/stores', write, { 'idempotency-key': createKey });
    } catch (error) {
      // The key stands for this one body only while its outcome is unknown; an answer settles it.
      if (error instanceof CallError && error.status !== 0) createKey = crypto.randomUUID();
      const fields = error instanceof CallError ? Object.keys(error.fieldErrors) : [];
      problems = fields.map((field) => ({ field, text: t('reasonValue') }));
      problems.push({ field: '', text: t('storeSaveFailed', { reason: reasonText(t, error) }) });
      return renderDialog(draft);
    }
    note = t(editing ? 'storeSaved' : 'storeCreated', { name: draft.texts.name.trim() });
    dialog.close();
    await refresh();
    deps.changed();
  }

  function open(store: Store | undefined): void {
    editing = store;
    createKey = crypto.randomUUID();
    problems = [];
    renderDialog(draftOf(store));
    dialog.showModal();
    dialog.querySelector<HTMLElement>('#store-name')?.focus();
  }

  function renderDialog(draft: StoreDraft): void {
    const t = deps.t();
    const field = (id: string, label: string, control: HTMLElement) => {
      const problem = problems.find((p) => p.field === id);
      control.id = `store-${id}`;
      if (problem) control.setAttribute('aria-invalid', 'true'), control.setAttribute('aria-describedby', `store-${id}-problem`);
      return h('div', { class: 'field' }, h('label', { for: `store-${id}` }, label), control, problem && h('span', { id: `store-${id}-problem`, class: 'down' }, problem.text));
    };
    const general = problems.find((p) => p.field === '');
    replaceChildren(
      dialog,
      h(
        'form',
        { 'data-form': 'store', noValidate: true, onsubmit: (event: Event) => (event.preventDefault(), void save()) },
        h('h3', { id: 'store-dialog-title' }, editing ? t('storeEditTitle', { name: editing.name }) : t('storeNewTitle')),
        general && h('p', { class: 'down', role: 'alert' }, general.text),
        h(
          'div',
          { class: 'form-grid' },
          TEXT_FIELDS.map(([id, label]) =>
            field(id, t(label), h('input', { type: id === 'adminMail' ? 'email' : 'text', value: draft.texts[id], autocomplete: 'off', ...(id === 'generalMargin' ? { inputMode: 'decimal' } : {}) })),
          ),
          field('languageMain', t('storeLanguage'), h('select', {}, STORE_LANGUAGES.map((l) => h('option', { value: l, selected: l === draft.languageMain }, LANGUAGE_NAMES[l])))),
        ),
        h('p', { class: 'hint' }, t('storeAdminMailHint')),
        h('div', { class: 'check' }, h('input', { type: 'checkbox', id: 'store-paymentCash', checked: draft.paymentCash }), h('label', { for: 'store-paymentCash' }, t('storeCash'))),
        h(
          'div',
          { class: 'dialog-buttons' },
          h('button', { type: 'button', onclick: () => dialog.close() }, t('cancel')),
          h('button', { type: 'submit', 'data-action': 'save-store' }, t('storeSave')),
        ),
      ),
    );
  }

  function render(): void {
    const t = deps.t();
    replaceChildren(
      content,
      h('h2', { id: 'stores-title' }, t('storesTitle')),
      note && h('p', { class: 'ok', role: 'status' }, note),
      h(
        'table',
        { 'data-table': 'stores' },
        h('thead', {}, h('tr', {}, [t('storeName'), t('storeCity'), t('storeLanguage'), t('storeTimeZone'), t('storeAdminMail'), t('storeMargin'), t('paymentActions')].map((x) => h('th', { scope: 'col' }, x)))),
        h(
          'tbody',
          {},
          stores.map((s) =>
            h(
              'tr',
              { 'data-store': s.id },
              h('td', {}, s.name),
              h('td', {}, s.city ?? ''),
              h('td', {}, s.languageMain ? LANGUAGE_NAMES[s.languageMain] : ''),
              h('td', {}, s.timeZone ?? DEFAULT_TIME_ZONE),
              h('td', {}, s.adminMail || '–'),
              h('td', {}, s.generalMargin === undefined || s.generalMargin === null ? '–' : `${s.generalMargin} %`),
              h('td', {}, h('button', { type: 'button', 'data-action': 'edit-store', 'aria-label': t('storeEditTitle', { name: s.name }), onclick: () => open(s) }, t('catalogEdit'))),
            ),
          ),
        ),
      ),
      h('button', { type: 'button', 'data-action': 'new-store', onclick: () => open(undefined) }, t('storeNew')),
    );
  }

  return { root, render, refresh, forget: () => ((stores = []), (note = undefined)) };
}
