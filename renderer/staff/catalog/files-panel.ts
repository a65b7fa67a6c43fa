import { CATALOG_COLUMNS, WORKBOOK_TYPE, type CatalogImportResult as ImportCheck } from '../../../shared/api/catalog.js';
import { h, replaceChildren } from '../../kiosk/dom.js';
import { CallError, getFile, postData } from '../api.js';
import { reasonText } from '../call-reason.js';
import type { StaffTranslate } from '../texts.js';

type Stage = { step: 'none' } | { step: 'checked'; file: File; check: ImportCheck } | { step: 'imported'; check: ImportCheck } | { step: 'failed'; reason: string };

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
 * Catalog files: a spreadsheet's CSV is checked first (nothing is written),
 * the check's findings are listed line by line, and the import runs only when
 * staff confirm it. Offers the catalog as a file and an empty template.
 */
export function createFilesPanel(deps: { t: () => StaffTranslate; imported: () => void }) {
  const root = h('div', { id: 'catalog-files' });
  let stage: Stage = { step: 'none' };
  let busy = false;

  /** A workbook goes as one, anything else as CSV: the server tells a renamed or other kind of file by its bytes. */
  const asSent = (file: File) => new Blob([file], { type: /\.xlsx$/i.test(file.name) ? WORKBOOK_TYPE : 'text/csv' });
  const reason = (error: unknown) => reasonText(deps.t(), error, 'file');

  async function run(action: () => Promise<Stage>): Promise<void> {
    busy = true;
    render();
    try {
      stage = await action();
    } catch (error) {
      stage = { step: 'failed', reason: reason(error) };
    }
    busy = false;
    render();
    root.querySelector<HTMLElement>('[data-focus]')?.focus();
  }

  const check = (file: File) =>
    run(async () => ({ step: 'checked', file, check: await postData<ImportCheck>('/catalog/import?dryRun=true', asSent(file)) }));

  const confirm = (file: File) =>
    run(async () => {
      try {
        const done: Stage = { step: 'imported', check: await postData<ImportCheck>('/catalog/import', asSent(file)) };
        deps.imported();
        return done;
      } catch (error) {
        // Refused after all (the catalog changed since the check): the answer carries the new findings.
        const found = error instanceof CallError ? (error.data as ImportCheck | undefined) : undefined;
        if (found?.errors) return { step: 'checked', file, check: found };
        throw error;
      }
    });

  const exportFile = (format: 'xlsx' | 'csv') =>
    getFile(format === 'xlsx' ? '/catalog/export?format=xlsx' : '/catalog/export')
      .then((response) => response.blob())
      .then((blob) => save(blob, `catalog.${format}`), (error: unknown) => ((stage = { step: 'failed', reason: reason(error) }), render()));

  function findings(t: StaffTranslate, result: ImportCheck): HTMLElement[] {
    const summary = h('p', { 'data-counts': '', tabIndex: -1, 'data-focus': '' }, t('catalogFileCounts', counts(result)));
    if (result.errors.length === 0) return [summary];
    return [
      summary,
      h('p', { class: 'down' }, t('catalogFileErrors', { count: result.errorsTotal })),
      h(
        'table',
        { 'data-table': 'import-errors' },
        h('thead', {}, h('tr', {}, [t('catalogFileLine'), t('catalogFileColumn'), t('catalogFileMessage')].map((l) => h('th', { scope: 'col' }, l)))),
        h('tbody', {}, result.errors.map((e) => h('tr', {}, h('td', { class: 'num' }, String(e.line)), h('td', {}, e.column ?? '–'), h('td', {}, e.message)))),
      ),
    ];
  }

  function outcome(t: StaffTranslate): HTMLElement[] {
    if (stage.step === 'failed') return [h('p', { class: 'down', role: 'alert' }, t('catalogFileFailed', { reason: stage.reason }))];
    if (stage.step === 'imported') return [h('p', { class: 'ok', role: 'status', tabIndex: -1, 'data-focus': '' }, t('catalogFileImported', counts(stage.check)))];
    if (stage.step !== 'checked') return [];
    const { file, check: result } = stage;
    const changes = result.created + result.updated;
    return [
      h('h4', {}, t('catalogFileChecked', { file: file.name })),
      ...findings(t, result),
      result.errors.length > 0
        ? h('p', {}, t('catalogFileFix'))
        : changes === 0
          ? h('p', {}, t('catalogFileNothing'))
          : h('button', { type: 'button', 'data-action': 'confirm-import', disabled: busy, onclick: () => void confirm(file) }, t('catalogFileConfirm', counts(result))),
    ];
  }

  function render(): void {
    const t = deps.t();
    const input = h('input', { type: 'file', id: 'catalog-file', accept: `.xlsx,${WORKBOOK_TYPE},.csv,text/csv`, 'aria-describedby': 'catalog-file-hint' });
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
            if (file) void check(file);
          },
        },
        h('label', { for: 'catalog-file' }, t('catalogFileChoose')),
        input,
        h('button', { type: 'submit', disabled: busy, 'data-action': 'check-file' }, busy ? t('catalogFileWorking') : t('catalogFileCheck')),
      ),
      h('div', { 'aria-live': 'polite' }, outcome(t)),
      h(
        'div',
        { class: 'catalog-controls' },
        h('button', { type: 'button', 'data-action': 'export-workbook', onclick: () => void exportFile('xlsx') }, t('catalogExportWorkbook')),
        h('button', { type: 'button', 'data-action': 'export', onclick: () => void exportFile('csv') }, t('catalogExport')),
        h('button', { type: 'button', 'data-action': 'template', onclick: () => save(template(), 'catalog-template.csv') }, t('catalogTemplate')),
      ),
    );
  }

  return { root, render, forget: () => ((stage = { step: 'none' }), render()) };
}
