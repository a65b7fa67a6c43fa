import { CATALOG_COLUMNS, type CatalogColumn, type CatalogHeaderColumn, type CatalogPreviewRow } from '../../../shared/api/catalog.js';
import { h } from '../../kiosk/dom.js';
import type { StaffTranslate } from '../texts.js';

/** What a select offers for a column the check does not know: no field yet (its error stays until one is chosen). */
const UNCHOSEN = '?';

/** A field's name in the page's language, with the name a file and the API use. */
export const fieldLabel = (t: StaffTranslate, field: CatalogColumn) => `${t(`catalogField_${field}`)} (${field})`;

/**
 * The file's first rows under its own headers, each column with a select of
 * the field it is read as (every product field, or ignore), filled in from
 * the check's answer. Choosing calls `choose` with the header and the field
 * ("" ignores the column).
 */
export function filePreview(
  t: StaffTranslate,
  file: string,
  header: CatalogHeaderColumn[],
  rows: CatalogPreviewRow[],
  choose: (name: string, field: CatalogColumn | '') => void,
  busy: boolean,
): HTMLElement {
  const select = (column: CatalogHeaderColumn) =>
    h(
      'select',
      {
        'data-column': column.name,
        'aria-label': t('catalogFileFieldOf', { column: column.name }),
        // A column without a header cannot be named in a mapping: the file itself must name it.
        disabled: busy || column.name === '',
        onchange: (e: Event) => {
          const value = (e.target as HTMLSelectElement).value;
          if (value !== UNCHOSEN) choose(column.name, value as CatalogColumn | '');
        },
      },
      column.field === null ? h('option', { value: UNCHOSEN, selected: true }, t('catalogFileChooseField')) : null,
      CATALOG_COLUMNS.map((field) => h('option', { value: field, selected: column.field === field }, fieldLabel(t, field))),
      h('option', { value: '', selected: column.field === '' }, t('catalogFileIgnore')),
    );
  return h(
    'div',
    { class: 'file-preview' },
    h('p', { class: 'hint' }, t('catalogFileMappingHint')),
    h(
      'div',
      { class: 'table-scroll', tabIndex: 0, role: 'region', 'aria-label': t('catalogFilePreview', { file }) },
      h(
        'table',
        { 'data-table': 'file-preview' },
        h('caption', {}, t('catalogFilePreview', { file })),
        h(
          'thead',
          {},
          h('tr', {}, header.map((column) => h('th', { scope: 'col' }, column.name === '' ? t('catalogFileColumnAt', { position: column.position }) : column.name))),
          h('tr', { 'data-row': 'fields' }, header.map((column) => h('td', { class: column.field === null ? 'unmapped' : undefined }, select(column)))),
        ),
        h(
          'tbody',
          {},
          rows.map((row) => h('tr', {}, header.map((column) => h('td', {}, row.cells[column.position - 1] ?? '')))),
        ),
      ),
    ),
  );
}
