import iconv from 'iconv-lite';
import { readSheet } from 'read-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_COLUMNS } from '../shared/api/catalog.js';
import { seriousViolations } from './support/axe.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { screenshot } from './support/kiosk.js';

const h = useBrowserHarness({ catalog: false });
let dairy: string;

beforeAll(async () => {
  dairy = (await h.client.post('/categories', { name: 'Milchprodukte', index: 10 })).body.id;
  await h.client.post('/products', { name: 'Bio Vollmilch 1l', price: 195, taxCategory: '2.6', barcode: '7610000000017', category: dairy });
});

const signedIn = (): Promise<Page> => h.staff('#catalog table[data-table="products"]');

/** A file as Excel in Switzerland saves "CSV (semicolon)": Windows-1252, `;`, amounts with a comma. */
const excelFile = (lines: string[]) => ({ name: 'sortiment.csv', mimeType: 'text/csv', buffer: iconv.encode(lines.join('\r\n'), 'win1252') });

async function downloaded(page: Page, button: Locator): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return readFile((await download.path()) as string);
}

const byBarcode = async (code: string) => (await h.client.get(`/products?barcode=${code}`)).body.data;

describe("the staff page's catalog file", () => {
  it('checks a spreadsheet file first, lists its problems by line and column, and imports only once confirmed', async () => {
    const page = await signedIn();
    const panel = page.locator('#catalog-files');
    await panel.getByLabel('File').setInputFiles(
      excelFile([
        'barcode;name;price;taxCategory;category',
        '7610000000017;Bio Vollmilch 1l;2,10;2.6;Milchprodukte',
        '7610000000024;Bündner Bergkäse;12,50;2.6;Käse',
        '7610000000031;Zopf 500 g;-4,50;2.6;Milchprodukte',
      ]),
    );
    await panel.getByRole('button', { name: 'Check the file' }).click();
    const rows = panel.locator('table[data-table="import-errors"] tbody tr');
    await rows.first().waitFor();
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(cells.map(([line, column]) => [line, column])).toEqual([
      ['3', 'category'],
      ['4', 'price'],
    ]);
    expect(cells[0]?.[2]).toContain('Käse');
    expect(await panel.locator('[data-counts]').textContent()).toBe('0 new, 1 changed, 0 unchanged.');
    expect(await panel.getByRole('button', { name: /^Import/ }).count()).toBe(0);
    await screenshot(page, '31-staff-catalog-file-check');
    expect({ violations: await seriousViolations(page) }).toEqual({ violations: [] });
    // Checked only: nothing changed.
    expect((await byBarcode('7610000000017'))[0].price).toBe(195);
    expect(await byBarcode('7610000000024')).toEqual([]);

    await panel.getByLabel('File').setInputFiles(
      excelFile([
        'barcode;name;price;taxCategory;category',
        '7610000000017;Bio Vollmilch 1l;2,10;2.6;Milchprodukte',
        '7610000000024;Bündner Bergkäse;12,50;2.6;Milchprodukte',
        '7610000000031;Zopf 500 g;4,50;2.6;Milchprodukte',
      ]),
    );
    await panel.getByRole('button', { name: 'Check the file' }).click();
    const confirm = panel.getByRole('button', { name: 'Import: 2 new and 1 changed products' });
    await confirm.waitFor();
    expect(await byBarcode('7610000000024')).toEqual([]);
    await confirm.click();
    await panel.getByText('Imported: 2 new and 1 changed products.').waitFor();

    expect((await byBarcode('7610000000017'))[0]).toMatchObject({ price: 210 });
    expect((await byBarcode('7610000000024'))[0]).toMatchObject({ name: 'Bündner Bergkäse', price: 1250, category: dairy });
    // The list shows what was imported.
    await page.locator('#catalog tr', { hasText: 'Bündner Bergkäse' }).waitFor();
  });

  it('offers the catalog as a file, and an empty template with the columns an import takes', async () => {
    const page = await signedIn();
    const panel = page.locator('#catalog-files');
    const exported = await downloaded(page, panel.getByRole('button', { name: 'Download the catalog (CSV)' }));
    const fromApi = await fetch(`${h.server.url}/catalog/export`, { headers: { authorization: `Bearer ${h.org.writeKey}` } });
    expect(exported.equals(Buffer.from(await fromApi.arrayBuffer()))).toBe(true);
    expect(exported.toString('utf8')).toContain('Bio Vollmilch 1l');
    // The template is the export's header line alone: the columns an import takes.
    const template = (await downloaded(page, panel.getByRole('button', { name: 'Download an empty template' }))).toString('utf8');
    const [header] = exported.toString('utf8').split('\r\n');
    expect(template).toBe(`${header}\r\n`);
    expect(template).toBe(`\uFEFF${CATALOG_COLUMNS.join(';')}\r\n`);
  });

  it('offers the workbook first, and checks and imports one written in Excel with German headers', async () => {
    const page = await signedIn();
    const panel = page.locator('#catalog-files');
    const buttons = await panel.locator('button[data-action^="export"]').allTextContents();
    expect(buttons[0]).toBe('Download the catalog (Excel)');
    const rows = await readSheet(await downloaded(page, panel.getByRole('button', { name: 'Download the catalog (Excel)' })));
    expect(rows[0]).toContain('barcode');
    expect(rows.find((row) => row.includes('Bio Vollmilch 1l'))).toContain('7610000000017');

    const workbook = await writeXlsxFile([
      [{ value: 'Strichcode' }, { value: 'Bezeichnung' }, { value: 'Preis' }, { value: 'MWST' }],
      [{ value: '7610000001056', type: String }, { value: 'Alpenbutter 250 g' }, { value: 'Fr. 4,20' }, { value: 2.6, type: Number }],
    ]).toBuffer();
    await panel.getByLabel('File').setInputFiles({ name: 'Sortiment 2026.xlsx', mimeType: 'application/octet-stream', buffer: workbook });
    await panel.getByRole('button', { name: 'Check the file' }).click();
    await expect.poll(() => panel.locator('[data-counts]').textContent()).toBe('1 new, 0 changed, 0 unchanged.');
    expect(await byBarcode('7610000001056')).toEqual([]);
    await panel.locator('[data-action="confirm-import"]').click();
    await expect.poll(async () => (await byBarcode('7610000001056'))[0]).toMatchObject({ name: 'Alpenbutter 250 g', price: 420, taxCategory: '2.6' });
  });
});
