import type { Category } from '../../../shared/api/categories.js';
import { IMAGE_CONTENT_TYPES, IMAGE_PART } from '../../../shared/api/product-images.js';
import type { Product, ProductCreate } from '../../../shared/api/products.js';
import { MINIMUM_AGES } from '../../../shared/minimum-age.js';
import { TAX_CATEGORIES, type TaxCategory } from '../../../shared/tax.js';
import { h, replaceChildren, type Child } from '../../kiosk/dom.js';
import { CallError, deleteData, postAnswer, postData } from '../api.js';
import type { StaffTextKey, StaffTranslate } from '../texts.js';
import { francsText, localDay } from './form-values.js';
import { productWrite, type DraftInput } from './product-draft.js';

const TAX_TEXT: Record<TaxCategory, StaffTextKey> = { '8.1': 'catalogTax_8.1', '2.6': 'catalogTax_2.6', '3.8': 'catalogTax_3.8', '0': 'catalogTax_0' };

export interface ProductFormDeps {
  t: () => StaffTranslate;
  key: () => string;
  categories: () => Category[];
  /** After a product was written: its id, and whether it is new. */
  saved: (id: string, name: string, created: boolean) => void;
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

  async function save(): Promise<void> {
    const t = deps.t();
    const typed = input();
    const { write, problems: found } = productWrite(product, typed, new Date());
    problems = found.map((p) => ({ field: p.field, text: t(p.text) }));
    if (problems.length > 0) return render(typed, problems[0]?.field);
    busy = true;
    render(typed);
    try {
      let id = product?.id;
      if (id === undefined) id = (await postAnswer<{ id: string }>('/products', deps.key(), write as ProductCreate)).id;
      else if (Object.keys(write).length > 0) await postData(`/products/${encodeURIComponent(id)}`, deps.key(), write);
      if (image) {
        const form = new FormData();
        form.append(IMAGE_PART, image);
        await postData(`/products/${encodeURIComponent(id)}/image`, deps.key(), form);
      } else if (removeImage) {
        await deleteData(`/products/${encodeURIComponent(id)}/image`, deps.key());
      }
      busy = false;
      dialog.close();
      deps.saved(id, typed.name.trim(), product === undefined);
    } catch (error) {
      busy = false;
      problems = [{ field: '', text: t('catalogSaveFailed', { reason: error instanceof CallError ? error.message : String(error) }) }];
      render(typed);
    }
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
    const current = p?.imageUrl ? h('img', { src: p.imageUrl, alt: t('catalogImageCurrent'), class: 'product-image' }) : h('p', { class: 'hint' }, t('catalogImageNone'));
    replaceChildren(
      dialog,
      h(
        'form',
        { 'data-form': 'product', onsubmit: (event: Event) => (event.preventDefault(), void save()) },
        h('h3', { id: 'product-dialog-title' }, p ? t('catalogEditTitle', { name: p.name }) : t('catalogNewTitle')),
        general && h('p', { class: 'down', role: 'alert' }, general.text),
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
          h('button', { type: 'button', onclick: () => dialog.close() }, t('cancel')),
          h('button', { type: 'submit', disabled: busy, 'data-action': 'save-product' }, busy ? t('catalogSaving') : t('catalogSave')),
        ),
      ),
    );
    if (focus) field(focus)?.focus();
  }

  /** Opens the form for `existing`, or for a new product with `barcode` filled in. */
  function open(existing: Product | undefined, barcode = ''): void {
    product = existing;
    aliases = (existing?.barcodeAliases ?? []).map((a) => ({ code: a.code, quantity: String(a.quantity), price: francsText(a.price) }));
    image = undefined;
    removeImage = false;
    preview = '';
    problems = [];
    busy = false;
    render();
    if (!existing) (field('barcode') as HTMLInputElement).value = barcode;
    dialog.showModal();
    field(existing ? 'price' : 'name')?.focus();
  }

  return { root: dialog, open, isOpen: () => dialog.open };
}
