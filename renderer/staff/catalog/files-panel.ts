import { CATALOG_COLUMNS, WORKBOOK_TYPE, type CatalogColumn, type CatalogColumnMap, type CatalogImportResult as ImportCheck } from '../../../shared/api/catalog.js';
import { h, replaceChildren } from '../../kiosk/dom.js';
import { CallError, getData, getFile, postData } from '../api.js';
import { reasonText } from '../call-reason.js';
import type { StaffTranslate } from '../texts.js';
import { filePreview } from './file-preview.js';
import { fileReport } from './file-report.js';

type Stage = { step: 'none' } | { step: 'checked'; check: ImportCheck } | { step: 'imported'; check: ImportCheck } | { step: 'failed'; reason: string };

/** The file being worked on, with what staff chose for it: fields for its columns, and whether suggested barcodes are written. */
interface Chosen {
  file: File;
  columns: CatalogColumnMap;
  fixBarcodes: boolean;
}

const counts = ({ created, updated, unchanged }: ImportCheck) => ({ created, updated, unchanged, total: created + updated });

/** Hands the browser a file to save. */
function save(content: Blob, name: string): void {
  const link = h('a', { href: URL.createObjectURL(content), download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

/** The export's header line alone: UTF-8 with a BOM, so Excel reads the accents of what is typed in. */
const template = () => new Blob([`\uFEFF${CATALOG_COLUMNS.join(';')}\r\n`], { type: 'text/csv' });

/**
 * The import's query for what staff chose. A header holding `,` or `:`
 * cannot be written in `?columns=`; the kept mapping, sent before, carries it.
 */
function importQuery(chosen: Chosen, dryRun: boolean): string {
  const pairs = Object.entries(chosen.columns)
    .filter(([name]) => !/[,:]/.test(name))
    .map(([name, field]) => `${name}:${field}`);
  const query = new URLSearchParams();
  if (dryRun) query.set('dryRun', 'true');
  if (pairs.length > 0) query.set('columns', pairs.join(','));
  if (chosen.fixBarcodes) query.set('fixBarcodes', 'true');
  const text = query.toString();
  return `/catalog/import${text ? `?${text}` : ''}`;
}

/**
 * Catalog files: a file is checked as soon as it is chosen (nothing is
 * written), its first rows are shown with the field each column is read as,
 * for staff to change; the check's findings are listed by kind and by line,
 * a bounded few of each, and the import runs only when staff confirm it.
 * Offers the catalog as a file and an empty template.
 */
export function createFilesPanel(deps: { t: () => StaffTranslate; imported: () => void }) {
  const root = h('div', { id: 'catalog-files' });
  let stage: Stage = { step: 'none' };
  let chosen: Chosen | undefined;
  let busy = false;

  /** A workbook goes as one, anything else as CSV: the server tells a renamed or other kind of file by its bytes. */
  const asSent = (file: File) => new Blob([file], { type: /\.xlsx$/i.test(file.name) ? WORKBOOK_TYPE : 'text/csv' });
  const reason = (error: unknown) => reasonText(deps.t(), error, 'file');

  /** Kept across renders, so the chosen file stays chosen. */
  const input = h('input', {
    type: 'file',
    id: 'catalog-file',
    accept: `.xlsx,${WORKBOOK_TYPE},.csv,text/csv`,
    'aria-describedby': 'catalog-file-hint',
    onchange: () => {
      const file = input.files?.[0];
      if (file) void check({ file, columns: {}, fixBarcodes: false });
    },
  });

  async function run(action: () => Promise<Stage>, focus = '[data-focus]'): Promise<void> {
    busy = true;
    render();
    try {
      stage = await action();
    } catch (error) {
      stage = { step: 'failed', reason: reason(error) };
    }
    busy = false;
    render();
    root.querySelector<HTMLElement>(focus)?.focus();
  }

  const check = (next: Chosen, focus?: string) =>
    run(async () => {
      chosen = next;
      return { step: 'checked', check: await postData<ImportCheck>(importQuery(next, true), asSent(next.file)) };
    }, focus);

  /** A field chosen for a column: kept for the organization's next files (added to what was kept), then the file is checked with it. */
  const choose = (name: string, field: CatalogColumn | '') => {
    if (!chosen) return;
    const next = { ...chosen, columns: { ...chosen.columns, [name]: field } };
    void run(async () => {
      chosen = next;
      const kept = await getData<CatalogColumnMap>('/catalog/columns');
      await postData<CatalogColumnMap>('/catalog/columns', { ...kept, ...next.columns });
      return { step: 'checked', check: await postData<ImportCheck>(importQuery(next, true), asSent(next.file)) };
    }, `select[data-column="${CSS.escape(name)}"]`);
  };

  const confirm = (current: Chosen) =>
    run(async () => {
      try {
        const done: Stage = { step: 'imported', check: await postData<ImportCheck>(importQuery(current, false), asSent(current.file)) };
        deps.imported();
        return done;
      } catch (error) {
        // Refused after all (the catalog changed since the check): the answer carries the new findings.
        const found = error instanceof CallError ? (error.data as ImportCheck | undefined) : undefined;
        if (found?.errors) return { step: 'checked', check: found };
        throw error;
      }
    });

  const exportFile = (format: 'xlsx' | 'csv') =>
    getFile(format === 'xlsx' ? '/catalog/export?format=xlsx' : '/catalog/export')
      .then((response) => response.blob())
      .then((blob) => save(blob, `catalog.${format}`), (error: unknown) => ((stage = { step: 'failed', reason: reason(error) }), render()));

  function outcome(t: StaffTranslate): HTMLElement[] {
    if (stage.step === 'failed') return [h('p', { class: 'down', role: 'alert' }, t('catalogFileFailed', { reason: stage.reason }))];
    if (stage.step === 'imported') return [h('p', { class: 'ok', role: 'status', tabIndex: -1, 'data-focus': '' }, t('catalogFileImported', counts(stage.check)))];
    if (stage.step !== 'checked' || !chosen) return [];
    const { check: result } = stage;
    const current = chosen;
    const changes = result.created + result.updated;
    return [
      h('h4', {}, t('catalogFileChecked', { file: current.file.name })),
      result.header.length > 0 ? filePreview(t, current.file.name, result.header, result.preview, choose, busy) : null,
      h('p', { 'data-counts': '', tabIndex: -1, 'data-focus': '' }, t('catalogFileCounts', counts(result))),
      ...fileReport(t, result),
      result.warningsFixable > 0 && !current.fixBarcodes
        ? h(
            'button',
            { type: 'button', 'data-action': 'fix-barcodes', disabled: busy, onclick: () => void check({ ...current, fixBarcodes: true }) },
            t('catalogFileFixBarcodes', { count: result.warningsFixable }),
          )
        : null,
      result.errorsTotal > 0
        ? h('p', {}, t('catalogFileFix'))
        : changes === 0
          ? h('p', {}, t('catalogFileNothing'))
          : h('button', { type: 'button', 'data-action': 'confirm-import', disabled: busy, onclick: () => void confirm(current) }, t('catalogFileConfirm', counts(result))),
    ].filter((el): el is HTMLElement => el !== null);
  }

  function render(): void {
    const t = deps.t();
    replaceChildren(
      root,
      h('h3', {}, t('catalogFiles')),
      h('p', { id: 'catalog-file-hint', class: 'hint' }, t('catalogFileHint')),
      h(
        'form',
        {
          class: 'catalog-controls',
          'data-form': 'catalog-file',
          onsubmit: (e: Event) => {
            e.preventDefault();
            const file = input.files?.[0];
            if (file) void check({ file, columns: chosen?.file === file ? chosen.columns : {}, fixBarcodes: false });
          },
        },
        h('label', { for: 'catalog-file' }, t('catalogFileChoose')),
        input,
        h('button', { type: 'submit', disabled: busy, 'data-action': 'check-file' }, busy ? t('catalogFileWorking') : t('catalogFileCheck')),
      ),
      h('div', { 'aria-live': 'polite', 'data-report': '' }, outcome(t)),
      h(
        'div',
        { class: 'catalog-controls' },
        h('button', { type: 'button', 'data-action': 'export-workbook', onclick: () => void exportFile('xlsx') }, t('catalogExportWorkbook')),
        h('button', { type: 'button', 'data-action': 'export', onclick: () => void exportFile('csv') }, t('catalogExport')),
        h('button', { type: 'button', 'data-action': 'template', onclick: () => save(template(), 'catalog-template.csv') }, t('catalogTemplate')),
      ),
    );
  }

  return { root, render, forget: () => ((stage = { step: 'none' }), (chosen = undefined), (input.value = ''), render()) };
}
