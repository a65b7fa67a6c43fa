import type { Category } from '../../../shared/api/categories.js';
import { IMAGE_CONTENT_TYPES, IMAGE_PART } from '../../../shared/api/product-images.js';
import type { Product, ProductCreate } from '../../../shared/api/products.js';
import { MINIMUM_AGES } from '../../../shared/minimum-age.js';
import { TAX_CATEGORIES, type TaxCategory } from '../../../shared/tax.js';
import { h, replaceChildren, type Child } from '../../kiosk/dom.js';
import { CallError, deleteData, getTagged, postAnswer, postData } from '../api.js';
import { reasonText } from '../call-reason.js';
import type { StaffTextKey, StaffTranslate } from '../texts.js';
import { conflictOf, conflictPanel, lossPanel, type SaveConflict } from './form-panels.js';
import { francsText, localDay, parseFrancs } from './form-values.js';
import { marginWords } from './margin-words.js';
import { productWrite, type DraftInput } from './product-draft.js';

const TAX_TEXT: Record<TaxCategory, StaffTextKey> = { '8.1': 'catalogTax_8.1', '2.6': 'catalogTax_2.6', '3.8': 'catalogTax_3.8', '0': 'catalogTax_0' };

/** The API's product fields and the form field each is typed in, for a refusal that names fields. */
const FORM_FIELDS: Record<string, string> = {
  name: 'name',
  price: 'price',
  barcode: 'barcode',
  taxCategory: 'tax',
  category: 'category',
  depositProduct: 'deposit',
  minimumAge: 'age',
  ageRestriction: 'age',
  salePrice: 'sale-price',
  salePriceDateFrom: 'sale-from',
  salePriceDateTo: 'sale-to',
  saleStop: 'sale-stop',
};

export interface ProductFormDeps {
  t: () => StaffTranslate;
  categories: () => Category[];
  /** After a product was written: its id, whether it is new, and whether everything was (the image may still be to upload). */
  saved: (id: string, name: string, created: boolean, complete: boolean) => void;
}

/**
 * The product form in a modal dialog: every field the kiosk and the receipts
 * use, and the image with a preview of the file chosen. Saving writes only
 * what changed, then uploads the image, both through the API.
 */
export function createProductForm(deps: ProductFormDeps) {
  const dialog = h('dialog', { id: 'product-dialog', 'aria-labelledby': 'product-dialog-title' });
  let product: Product | undefined;
  let aliases: DraftInput['aliases'] = [];
  let image: File | undefined;
  /** Staff ticked *Remove the image* (a new file chosen wins). */
  let removeImage = false;
  let preview = '';
  let problems: { field: string; text: string }[] = [];
  let busy = false;
  /** The product's version when the form was filled, sent as `If-Match` so a save overwrites nothing unseen. */
  let etag: string | undefined;
  /** One key per new product: a second *Save* after a lost answer replays the first creation instead of making a twin. */
  let createKey = '';
  /** What the fields held when the form was filled, to tell typed changes from none. */
  let initial = '';
  /** Another tab changed or deleted the product since this form was filled: the fields it changed, or `deleted`. */
  let conflict: SaveConflict | undefined;
  /** *Cancel* or Escape with typed changes: the form asks before throwing them away. */
  let confirmingDiscard = false;
  /** A code scanned while the form holds typed changes: the form asks before opening it instead. */
  let scanned: { code: string; go: () => void } | undefined;

  const field = (id: string) => dialog.querySelector<HTMLInputElement>(`#product-${id}`);
  const value = (id: string) => field(id)?.value ?? '';

  function input(): DraftInput {
    return {
      name: value('name'),
      price: value('price'),
      barcode: value('barcode'),
      aliases: aliases.map((_, i) => ({ code: value(`alias-code-${i}`), quantity: value(`alias-quantity-${i}`), price: value(`alias-price-${i}`) })),
      taxCategory: value('tax') as TaxCategory,
      category: value('category'),
      deposit: value('deposit'),
      minimumAge: value('age'),
      salePrice: value('sale-price'),
      saleFrom: value('sale-from'),
      saleTo: value('sale-to'),
      saleStop: field('sale-stop')?.checked ?? false,
    };
  }

  /** Draws the form again keeping what is typed (a code row added or removed, an image chosen). */
  function redraw(change: (rows: DraftInput['aliases']) => void = () => undefined, focus?: string): void {
    const typed = input();
    change(typed.aliases);
    aliases = typed.aliases;
    render(typed, focus);
  }

  /** The product as stored now, with its version; undefined when it is gone. */
  async function fetchStored(id: string): Promise<{ data: Product; etag: string | undefined } | undefined> {
    try {
      const fresh = await getTagged<Product>(`/products/${encodeURIComponent(id)}`);
      return fresh.data.deleted ? undefined : fresh;
    } catch (error) {
      if (error instanceof CallError && error.status === 404) return undefined;
      throw error;
    }
  }

  async function save(overwrite = false): Promise<void> {
    const t = deps.t();
    const typed = input();
    if (overwrite && product) {
      const fresh = await fetchStored(product.id).catch(() => undefined);
      if (fresh) ((product = fresh.data), (etag = fresh.etag));
    }
    const { write, problems: found } = productWrite(product, typed, new Date());
    problems = found.map((p) => ({ field: p.field, text: t(p.text) }));
    conflict = undefined;
    if (problems.length > 0) return render(typed, problems[0]?.field);
    busy = true;
    render(typed);
    const created = product === undefined;
    let id = product?.id;
    try {
      if (id === undefined) id = (await postAnswer<{ id: string }>('/products', write as ProductCreate, { 'idempotency-key': createKey })).id;
      else if (Object.keys(write).length > 0) await postData(`/products/${encodeURIComponent(id)}`, write, etag ? { 'if-match': etag } : {});
    } catch (error) {
      busy = false;
      // The key stands for this one body only while its outcome is unknown; an answer settles it.
      if (error instanceof CallError && error.status !== 0) createKey = crypto.randomUUID();
      if (error instanceof CallError && error.status === 412 && product) return showConflict(typed, product);
      problems = [...fieldProblems(error), { field: '', text: t('catalogSaveFailed', { reason: reasonText(t, error) }) }];
      return render(typed, problems[0]?.field || undefined);
    }
    // The product is saved from here on: the form edits the stored one, so a retry sends only what is still to do.
    const stored = await fetchStored(id).catch(() => undefined);
    if (stored) ((product = stored.data), (etag = stored.etag));
    try {
      if (image) {
        const form = new FormData();
        form.append(IMAGE_PART, image);
        await postData(`/products/${encodeURIComponent(id)}/image`, form);
        image = undefined;
      } else if (removeImage) {
        await deleteData(`/products/${encodeURIComponent(id)}/image`);
      }
    } catch (error) {
      busy = false;
      initial = JSON.stringify(input());
      problems = [{ field: 'image', text: t('catalogImageNotSaved', { reason: reasonText(t, error, 'image') }) }];
      render(typed, 'image');
      deps.saved(id, typed.name.trim(), created, false);
      return;
    }
    busy = false;
    dialog.close();
    deps.saved(id, typed.name.trim(), created, true);
  }

  /** A validation refusal's fields shown next to the form's own fields. */
  function fieldProblems(error: unknown): { field: string; text: string }[] {
    if (!(error instanceof CallError)) return [];
    const t = deps.t();
    return Object.keys(error.fieldErrors).flatMap((name) => {
      const field = FORM_FIELDS[name];
      return field ? [{ field, text: t('reasonValue') }] : [];
    });
  }

  /** The save met a newer version: say what changed, and let staff reload it or keep what they typed. */
  async function showConflict(typed: DraftInput, seen: Product): Promise<void> {
    const fresh = await fetchStored(seen.id).catch(() => undefined);
    conflict = conflictOf(seen, fresh?.data);
    render(typed);
  }

  async function reload(): Promise<void> {
    if (!product) return;
    const fresh = await fetchStored(product.id).catch(() => undefined);
    if (!fresh) {
      dialog.close();
      return;
    }
    fill(fresh.data, fresh.etag);
  }

  function chooseImage(file: File | undefined): void {
    image = file;
    preview = '';
    if (!file) return redraw(undefined, 'image');
    // The page's policy allows data: images, not blob: ones.
    const reader = new FileReader();
    reader.onload = () => ((preview = String(reader.result)), redraw(undefined, 'image'));
    reader.readAsDataURL(file);
  }

  function labelled(id: string, label: string, control: HTMLElement, hint?: string): HTMLElement {
    const problem = problems.find((p) => p.field === id);
    control.id = `product-${id}`;
    if (problem) control.setAttribute('aria-invalid', 'true');
    const described = [hint && `product-${id}-hint`, problem && `product-${id}-problem`].filter(Boolean).join(' ');
    if (described) control.setAttribute('aria-describedby', described);
    return h(
      'div',
      { class: 'field' },
      h('label', { for: `product-${id}` }, label),
      control,
      hint && h('span', { id: `product-${id}-hint`, class: 'hint' }, hint),
      problem && h('span', { id: `product-${id}-problem`, class: 'down' }, problem.text),
    );
  }

  const text = (v: string, extra: Record<string, unknown> = {}) => h('input', { type: 'text', value: v, autocomplete: 'off', ...extra });
  const francs = (v: string) => text(v, { inputMode: 'decimal' });
  const options = (chosen: string, list: [string, string][]) => list.map(([v, label]) => h('option', { value: v, selected: v === chosen }, label));

  function aliasRows(t: StaffTranslate): Child {
    return h(
      'fieldset',
      { class: 'aliases' },
      h('legend', {}, t('catalogAliases')),
      aliases.map((alias, i) =>
        h(
          'div',
          { class: 'alias-row', 'data-alias': String(i) },
          labelled(`alias-code-${i}`, t('catalogAliasCode'), text(alias.code, { 'data-scan': 'own' })),
          labelled(`alias-quantity-${i}`, t('catalogAliasQuantity'), francs(alias.quantity)),
          labelled(`alias-price-${i}`, t('catalogAliasPrice'), francs(alias.price)),
          h('button', { type: 'button', onclick: () => redraw((rows) => rows.splice(i, 1)) }, t('catalogAliasRemove')),
        ),
      ),
      h(
        'button',
        { type: 'button', 'data-action': 'add-alias', onclick: () => redraw((rows) => rows.push({ code: '', quantity: '1', price: '' }), `alias-code-${aliases.length}`) },
        t('catalogAliasAdd'),
      ),
    );
  }

  /** The margin of the price and category as typed over the stored cost price, marked when outside the category's range. */
  function marginLine(t: StaffTranslate, price: string, categoryId: string): { standing: string; children: Child[] } {
    const costPrice = product?.costPrice;
    if (costPrice === undefined) return { standing: 'unknown', children: [t('catalogMarginUnknown')] };
    const cents = parseFrancs(price);
    const category = deps.categories().find((c) => c.id === categoryId);
    const words = marginWords(t, { price: Number.isNaN(cents) ? undefined : cents, costPrice }, category);
    if (!words) return { standing: 'unknown', children: [] };
    const of = t('catalogMarginOf', { percent: words.percent, cost: t.money(costPrice) });
    return { standing: words.standing, children: [of, words.outside && [' – ', h('strong', { class: 'down' }, words.outside)]] };
  }

  function showMargin(): void {
    const output = dialog.querySelector<HTMLOutputElement>('#product-margin');
    if (!output) return;
    const line = marginLine(deps.t(), value('price'), value('category'));
    output.dataset.margin = line.standing;
    replaceChildren(output, ...line.children);
  }

  function render(typed?: DraftInput, focus?: string): void {
    const t = deps.t();
    const p = product;
    const v: DraftInput = typed ?? {
      name: p?.name ?? '',
      price: francsText(p?.price),
      barcode: p?.barcode ?? '',
      aliases,
      taxCategory: p?.taxCategory ?? '2.6',
      category: p?.category ?? '',
      deposit: francsText(p?.depositProduct || undefined),
      minimumAge: p?.ageRestriction ? String(p.minimumAge ?? '') : '',
      salePrice: francsText(p?.salePrice),
      saleFrom: localDay(p?.salePriceDateFrom),
      saleTo: localDay(p?.salePriceDateTo),
      saleStop: p?.saleStop ?? false,
    };
    const categories = deps.categories().filter((c) => !c.deleted);
    const general = problems.find((x) => x.field === '');
    const margin = marginLine(t, v.price, v.category);
    const current = p?.imageUrl ? h('img', { src: p.imageUrl, alt: t('catalogImageCurrent'), class: 'product-image' }) : h('p', { class: 'hint' }, t('catalogImageNone'));
    replaceChildren(
      dialog,
      h(
        'form',
        { 'data-form': 'product', onsubmit: (event: Event) => (event.preventDefault(), void save()), oninput: showMargin },
        h('h3', { id: 'product-dialog-title' }, p ? t('catalogEditTitle', { name: p.name }) : t('catalogNewTitle')),
        general && h('p', { class: 'down', role: 'alert' }, general.text),
        conflict && conflictPanel(t, conflict, { close: () => dialog.close(), reload: () => void reload(), overwrite: () => void save(true) }),
        confirmingDiscard &&
          lossPanel(t, t('catalogDiscardAsk'), () => ((confirmingDiscard = false), render(input())), {
            action: 'discard',
            label: 'catalogDiscard',
            go: () => ((confirmingDiscard = false), dialog.close()),
          }),
        scanned &&
          lossPanel(t, t('catalogSwitchAsk', { code: scanned.code }), () => ((scanned = undefined), render(input())), {
            action: 'switch',
            label: 'catalogSwitch',
            go: () => {
              const to = scanned!;
              scanned = undefined;
              dialog.close();
              to.go();
            },
          }),
        h(
          'div',
          { class: 'form-grid' },
          labelled('name', t('catalogName'), text(v.name, { required: true })),
          labelled('price', t('catalogPrice'), text(v.price, { inputMode: 'decimal', required: true }), t('catalogFrancsHint')),
          labelled('barcode', t('catalogBarcode'), text(v.barcode, { 'data-scan': 'own' })),
          labelled('tax', t('catalogTax'), h('select', {}, options(v.taxCategory, TAX_CATEGORIES.map((c) => [c, t(TAX_TEXT[c])])))),
          labelled('category', t('catalogCategory'), h('select', {}, options(v.category, [['', t('catalogNoCategory')], ...categories.map((c): [string, string] => [c.id, c.name])]))),
          labelled('deposit', t('catalogDeposit'), francs(v.deposit), t('catalogFrancsHint')),
          labelled('age', t('catalogAge'), h('select', {}, options(v.minimumAge, [['', t('catalogAgeNone')], ...MINIMUM_AGES.map((a): [string, string] => [String(a), t('catalogAgeFrom', { age: a })])]))),
          labelled('sale-price', t('catalogSalePrice'), francs(v.salePrice), t('catalogSaleHint')),
          labelled('sale-from', t('catalogSaleFrom'), h('input', { type: 'date', value: v.saleFrom })),
          labelled('sale-to', t('catalogSaleTo'), h('input', { type: 'date', value: v.saleTo })),
        ),
        h('div', { class: 'field margin' }, h('label', { for: 'product-margin' }, t('catalogMargin')), h('output', { id: 'product-margin', 'data-margin': margin.standing }, margin.children)),
        h('div', { class: 'check' }, h('input', { type: 'checkbox', id: 'product-sale-stop', checked: v.saleStop }), h('label', { for: 'product-sale-stop' }, t('catalogSaleStop'))),
        aliasRows(t),
        h(
          'fieldset',
          { class: 'image' },
          h('legend', {}, t('catalogImage')),
          current,
          labelled('image', t('catalogImageChoose'), h('input', { type: 'file', accept: IMAGE_CONTENT_TYPES.join(','), onchange: (e: Event) => chooseImage((e.target as HTMLInputElement).files?.[0]) }), t('catalogImageHint')),
          preview && h('img', { src: preview, alt: t('catalogImagePreview'), class: 'product-image', 'data-preview': '' }),
          p?.imageUrl &&
            !image &&
            h(
              'div',
              { class: 'check' },
              h('input', { type: 'checkbox', id: 'product-image-remove', checked: removeImage, onchange: (e: Event) => (removeImage = (e.target as HTMLInputElement).checked) }),
              h('label', { for: 'product-image-remove' }, t('catalogImageRemove')),
            ),
        ),
        h(
          'div',
          { class: 'dialog-buttons' },
          h('button', { type: 'button', 'data-action': 'cancel', onclick: () => leave() }, t('cancel')),
          h('button', { type: 'submit', disabled: busy, 'data-action': 'save-product' }, busy ? t('catalogSaving') : t('catalogSave')),
        ),
      ),
    );
    if (focus) field(focus)?.focus();
  }

  const typedChanges = () => JSON.stringify(input()) !== initial || image !== undefined;

  /** A scan while the form is open: opens the scanned product at once, or first asks when typed changes would be lost. */
  function offerSwitch(code: string, go: () => void): void {
    if (busy) return;
    if (!typedChanges()) return (dialog.close(), go());
    scanned = { code, go };
    render(input());
    dialog.querySelector<HTMLElement>('[data-action="keep-editing"]')?.focus();
  }

  /** Closes the form, after asking when something typed would be lost. */
  function leave(): void {
    if (busy) return;
    if (!typedChanges()) return dialog.close();
    confirmingDiscard = true;
    render(input());
    dialog.querySelector<HTMLElement>('[data-action="keep-editing"]')?.focus();
  }

  // Escape asks too: the dialog's own cancel would drop a typed price without a word.
  dialog.addEventListener('cancel', (event) => (event.preventDefault(), leave()));

  /** Fills the form with `existing` (none: a new product) as stored at version `tag`. */
  function fill(existing: Product | undefined, tag: string | undefined): void {
    product = existing;
    etag = tag;
    createKey = crypto.randomUUID();
    aliases = (existing?.barcodeAliases ?? []).map((a) => ({ code: a.code, quantity: String(a.quantity), price: francsText(a.price) }));
    image = undefined;
    removeImage = false;
    preview = '';
    problems = [];
    conflict = undefined;
    confirmingDiscard = false;
    scanned = undefined;
    busy = false;
    render();
    initial = JSON.stringify(input());
  }

  /** Opens the form for `existing` (read with its version `tag`), or for a new product with `barcode` filled in. */
  function open(existing: Product | undefined, barcode = '', tag?: string): void {
    fill(existing, tag);
    if (!existing) ((field('barcode') as HTMLInputElement).value = barcode), (initial = JSON.stringify(input()));
    dialog.showModal();
    field(existing ? 'price' : 'name')?.focus();
  }

  return { root: dialog, open, offerSwitch, isOpen: () => dialog.open };
}
