import type { CatalogFileChange, CatalogFileError, CatalogImportResult } from '../../../shared/api/catalog.js';
import { h } from '../../kiosk/dom.js';
import type { StaffTranslate } from '../texts.js';
import { fieldLabel } from './file-preview.js';
import { problemText } from './problem-text.js';

/**
 * Rows a list of the report shows; the rest are counted. A file with 20,000
 * problems thus gives a report of a few hundred elements: the groups say
 * what to correct, the first lines where.
 */
export const LISTED = 20;

type Group = CatalogImportResult['errorGroups'][number];

const more = (t: StaffTranslate, count: number, key: 'catalogFileMore' | 'catalogFileMoreKinds') => (count > 0 ? h('p', { class: 'hint', 'data-more': '' }, t(key, { count })) : null);

function table(name: string, caption: string, headings: string[], rows: HTMLElement[]): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll' },
    h('table', { 'data-table': name }, h('caption', {}, caption), h('thead', {}, h('tr', {}, headings.map((l) => h('th', { scope: 'col' }, l)))), h('tbody', {}, rows)),
  );
}

function groups(t: StaffTranslate, name: string, caption: string, all: Group[]): HTMLElement[] {
  const shown = all.slice(0, LISTED);
  const rows = shown.map((g) =>
    h(
      'tr',
      {},
      h('td', {}, g.column ?? '–'),
      h('td', {}, problemText(t, g)),
      h('td', { class: 'num' }, new Intl.NumberFormat(t.locale).format(g.count)),
      h('td', {}, g.lines.join(', ') + (g.count > g.lines.length ? ' …' : '')),
    ),
  );
  return [table(name, caption, [t('catalogFileColumn'), t('catalogFileMessage'), t('catalogFileCount'), t('catalogFileFirstLines')], rows), more(t, all.length - shown.length, 'catalogFileMoreKinds')].filter(
    (el): el is HTMLElement => el !== null,
  );
}

function lines(t: StaffTranslate, name: string, caption: string, listed: CatalogFileError[], total: number): HTMLElement[] {
  const shown = listed.slice(0, LISTED);
  const rows = shown.map((e) => h('tr', {}, h('td', { class: 'num' }, String(e.line)), h('td', {}, e.column ?? '–'), h('td', {}, problemText(t, e))));
  return [table(name, caption, [t('catalogFileLine'), t('catalogFileColumn'), t('catalogFileMessage')], rows), more(t, total - shown.length, 'catalogFileMore')].filter(
    (el): el is HTMLElement => el !== null,
  );
}

function changes(t: StaffTranslate, listed: CatalogFileChange[], total: number): HTMLElement[] {
  const shown = listed.slice(0, LISTED);
  const rows = shown.map((c) =>
    h('tr', {}, h('td', { class: 'num' }, String(c.line)), h('td', {}, fieldLabel(t, c.field)), h('td', {}, c.from ?? '–'), h('td', {}, c.to)),
  );
  return [
    table('changes', t('catalogFileChanges', { count: total }), [t('catalogFileLine'), t('catalogFileField'), t('catalogFileFrom'), t('catalogFileTo')], rows),
    more(t, total - shown.length, 'catalogFileMore'),
  ].filter((el): el is HTMLElement => el !== null);
}

/**
 * A check's findings, bounded whatever the file's size: the error groups and
 * the first errors, the warning groups and the first warnings, the first
 * changes, each list closed by how many more there are.
 */
export function fileReport(t: StaffTranslate, result: CatalogImportResult): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (result.barcodesFixed > 0) parts.push(h('p', { class: 'ok', 'data-fixed': '' }, t('catalogFileFixed', { count: result.barcodesFixed })));
  if (result.errorsTotal > 0) {
    parts.push(h('p', { class: 'down', 'data-errors': '' }, t('catalogFileErrors', { count: result.errorsTotal })));
    parts.push(...groups(t, 'error-groups', t('catalogFileErrorGroups'), result.errorGroups));
    parts.push(...lines(t, 'import-errors', t('catalogFileByLine'), result.errors, result.errorsTotal));
  }
  if (result.warningsTotal > 0) {
    parts.push(h('p', { 'data-warnings': '' }, t('catalogFileWarnings', { count: result.warningsTotal })));
    parts.push(...groups(t, 'warning-groups', t('catalogFileWarningGroups'), result.warningGroups));
    parts.push(...lines(t, 'import-warnings', t('catalogFileByLine'), result.warnings, result.warningsTotal));
  }
  if (result.changesTotal > 0) parts.push(...changes(t, result.changes, result.changesTotal));
  return parts;
}
