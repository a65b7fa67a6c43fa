import type { Product } from '../../../shared/api/products.js';
import { h } from '../../kiosk/dom.js';
import type { StaffTextKey, StaffTranslate } from '../texts.js';

/** The fields the form edits, each with its label, to name what another window changed. */
const CHANGE_LABELS = {
  name: 'catalogName',
  price: 'catalogPrice',
  barcode: 'catalogBarcode',
  barcodeAliases: 'catalogAliases',
  taxCategory: 'catalogTax',
  category: 'catalogCategory',
  depositProduct: 'catalogDeposit',
  minimumAge: 'catalogAge',
  salePrice: 'catalogSalePrice',
  salePriceDateFrom: 'catalogSaleFrom',
  salePriceDateTo: 'catalogSaleTo',
  saleStop: 'catalogSaleStop',
  imageUrl: 'catalogImage',
} as const satisfies Partial<Record<keyof Product, StaffTextKey>>;

type ChangeField = keyof typeof CHANGE_LABELS;

/** What a save met: the product as it is now changed in these fields since the form opened, or was deleted. */
export interface SaveConflict {
  fields: ChangeField[];
  deleted: boolean;
}

/** The save met a newer version (`fresh`), or none (deleted): what changed since the form showed `seen`. */
export function conflictOf(seen: Product, fresh: Product | undefined): SaveConflict {
  if (!fresh) return { fields: [], deleted: true };
  const fields = (Object.keys(CHANGE_LABELS) as ChangeField[]).filter((f) => JSON.stringify(fresh[f]) !== JSON.stringify(seen[f]));
  return { fields, deleted: false };
}

/** Says what another window changed (or that it deleted the product), and offers to reload it or keep what was typed. */
export function conflictPanel(t: StaffTranslate, found: SaveConflict, on: { close: () => void; reload: () => void; overwrite: () => void }): HTMLElement {
  if (found.deleted) {
    return h('div', { class: 'down conflict', role: 'alert' }, h('p', {}, t('catalogConflictDeleted')), h('button', { type: 'button', onclick: on.close }, t('catalogConflictClose')));
  }
  const names = found.fields.map((f) => t(CHANGE_LABELS[f]));
  return h(
    'div',
    { class: 'down conflict', role: 'alert' },
    h('p', {}, names.length > 0 ? t('catalogConflictChanged', { fields: names.join(', ') }) : t('catalogConflictSaved')),
    h('button', { type: 'button', 'data-action': 'reload', onclick: on.reload }, t('catalogConflictReload')),
    h('button', { type: 'button', 'data-action': 'overwrite', onclick: on.overwrite }, t('catalogConflictOverwrite')),
  );
}

/** Asks before typed changes are lost: keep editing, or go on (`data-action` names the way on, for discard and switch alike). */
export function lossPanel(t: StaffTranslate, question: string, keep: () => void, onward: { action: 'discard' | 'switch'; label: StaffTextKey; go: () => void }): HTMLElement {
  return h(
    'div',
    { class: 'discard', role: 'alert' },
    h('p', {}, question),
    h('button', { type: 'button', 'data-action': 'keep-editing', onclick: keep }, t('catalogKeepEditing')),
    h('button', { type: 'button', 'data-action': onward.action, onclick: onward.go }, t(onward.label)),
  );
}
