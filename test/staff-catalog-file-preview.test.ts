import iconv from 'iconv-lite';
import writeXlsxFile from 'write-excel-file/node';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { screenshot } from './support/kiosk.js';

const h = useBrowserHarness({ catalog: false });

beforeAll(async () => {
  await h.client.post('/products', { name: 'Mandelgipfel', price: 220, taxCategory: '2.6', barcode: '07612343' });
});

const signedIn = (locale = 'en-CH', width = 1280): Promise<Page> => h.staff('#catalog table[data-table="products"]', { locale, viewport: { width, height: 900 }, timeout: 20_000 });

/** A file as Excel in Switzerland saves "CSV (semicolon)": Windows-1252, `;`, CRLF. */
const excelFile = (name: string, lines: string[]) => ({ name, mimeType: 'text/csv', buffer: iconv.encode(lines.join('\r\n'), 'win1252') });

const byBarcode = async (code: string) => (await h.client.get(`/products?barcode=${code}`)).body.data;

/** Each select of the preview: the header it maps and the field chosen ("?" none yet, "" ignored). */
const chosenFields = (panel: Locator) =>
  panel.locator('table[data-table="file-preview"] select').evaluateAll((selects) => selects.map((s) => [s.getAttribute('data-column'), (s as unknown as { value: string }).value]));

/** Elements of the panel that reach past the window's right edge, outside a table that scrolls on its own. */
const overflowing = (page: Page) =>
  page.locator('#catalog-files').evaluate((root) => {
    const width = (root.ownerDocument.defaultView as unknown as { innerWidth: number }).innerWidth;
    type Box = { getBoundingClientRect(): { right: number }; tagName: string; textContent: string | null };
    return (Array.from(root.querySelectorAll('button, input, select, p, h4, .table-scroll')) as unknown as Box[])
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 30)}`);
  });

/** GS1's check digit over the digits before it. */
const checkDigit = (body: string) => String((10 - ([...body].reverse().reduce((sum, d, i) => sum + Number(d) * (i % 2 === 0 ? 3 : 1), 0) % 10)) % 10);

describe("the staff page's catalog file preview", () => {
  it('in German at 768 px: shows the first rows with a field per column, takes the fields chosen, and keeps them for the next file', async () => {
    const page = await signedIn('de-CH', 768);
    const panel = page.locator('#catalog-files');
    const rows = Array.from({ length: 8 }, (_, i) => `761000000${2000 + i}${checkDigit(`761000000${2000 + i}`)};Rüebli ${i};Fr. 2,${i}0;2,6;frisch;;`);
    await panel.getByLabel('Datei').setInputFiles(excelFile('preisliste.csv', ['Strichcode;Bezeichnung;VK CHF;MWST;Notiz;;', ...rows]));
    // Picking the file is enough: the check runs and shows the file.
    const preview = panel.locator('table[data-table="file-preview"]');
    await preview.waitFor();
    expect(await preview.locator('tbody tr').count()).toBe(5);
    expect(await preview.locator('thead th').allTextContents()).toEqual(['Strichcode', 'Bezeichnung', 'VK CHF', 'MWST', 'Notiz']);
    expect(await preview.locator('tbody tr').first().locator('td').allTextContents()).toEqual([rows[0]!.split(';')[0], 'Rüebli 0', 'Fr. 2,00', '2,6', 'frisch']);
    expect(await chosenFields(panel)).toEqual([
      ['Strichcode', 'barcode'],
      ['Bezeichnung', 'name'],
      ['VK CHF', '?'],
      ['MWST', 'taxCategory'],
      ['Notiz', '?'],
    ]);
    expect(await panel.locator('[data-errors]').textContent()).toBe('2 Probleme: nichts wird importiert, bevor sie behoben sind.');
    expect(await overflowing(page)).toEqual([]);
    await screenshot(page, '32-staff-catalog-file-preview-de-768');

    await panel.getByLabel('Feld der Spalte VK CHF').selectOption('price');
    await expect.poll(() => chosenFields(panel)).toContainEqual(['VK CHF', 'price']);
    await panel.getByLabel('Feld der Spalte Notiz').selectOption('');
    await expect.poll(() => panel.locator('[data-counts]').textContent()).toBe('8 neu, 0 geändert, 0 unverändert.');
    expect(await panel.locator('[data-errors]').count()).toBe(0);
    expect((await h.client.get('/catalog/columns')).body.data).toEqual({ 'VK CHF': 'price', Notiz: '' });
    expect({ violations: await seriousViolations(page) }).toEqual({ violations: [] });
    await panel.getByRole('button', { name: 'Importieren: 8 neu, 0 geändert' }).click();
    await panel.getByRole('status').waitFor();
    expect((await byBarcode(rows[3]!.split(';')[0]!))[0]).toMatchObject({ name: 'Rüebli 3', price: 230 });

    // The next file with these headers comes filled in, and checks without a problem.
    await panel.getByLabel('Datei').setInputFiles(excelFile('preisliste-2.csv', ['Strichcode;Bezeichnung;VK CHF;MWST;Notiz', `${rows[0]!.split(';')[0]};Rüebli 0;2,05;2,6;x`]));
    await expect.poll(() => panel.locator('h4').textContent()).toContain('preisliste-2.csv');
    await expect.poll(() => chosenFields(panel)).toEqual([
      ['Strichcode', 'barcode'],
      ['Bezeichnung', 'name'],
      ['VK CHF', 'price'],
      ['MWST', 'taxCategory'],
      ['Notiz', ''],
    ]);
    expect(await panel.locator('[data-counts]').textContent()).toBe('0 neu, 1 geändert, 0 unverändert.');
  });

  it('in French at 768 px: shows a workbook the page cannot read itself, and imports it with a column ignored', async () => {
    const page = await signedIn('fr-CH', 768);
    const panel = page.locator('#catalog-files');
    const workbook = await writeXlsxFile([
      [{ value: 'Code-barres' }, { value: 'Désignation' }, { value: 'Prix' }, { value: 'TVA' }, { value: 'Remarque' }],
      [{ value: '7610000003017', type: String }, { value: 'Beurre de cuisine 250 g' }, { value: 3.9, type: Number }, { value: 2.6, type: Number }, { value: 'Promo' }],
    ]).toBuffer();
    await panel.getByLabel('Fichier').setInputFiles({ name: 'Assortiment.xlsx', mimeType: 'application/octet-stream', buffer: workbook });
    const preview = panel.locator('table[data-table="file-preview"]');
    await preview.waitFor();
    expect(await preview.locator('tbody td').allTextContents()).toEqual(['7610000003017', 'Beurre de cuisine 250 g', '3.9', '2.6', 'Promo']);
    expect(await chosenFields(panel)).toEqual([
      ['Code-barres', 'barcode'],
      ['Désignation', 'name'],
      ['Prix', 'price'],
      ['TVA', 'taxCategory'],
      ['Remarque', '?'],
    ]);
    const remark = panel.getByLabel('Champ de la colonne Remarque');
    expect(await remark.locator('option').first().textContent()).toBe('Choisir un champ…');
    expect(await remark.locator('option[value="price"]').textContent()).toBe('Prix (price)');
    expect(await overflowing(page)).toEqual([]);
    await screenshot(page, '33-staff-catalog-file-preview-fr-768');
    await remark.selectOption({ label: 'Ignorer cette colonne' });
    const confirm = panel.getByRole('button', { name: /^Importer : 1 nouveau produit/ });
    await confirm.waitFor();
    await confirm.click();
    await panel.getByRole('status').waitFor();
    expect((await byBarcode('7610000003017'))[0]).toMatchObject({ name: 'Beurre de cuisine 250 g', price: 390 });
  });

  it('corrects the barcodes the warnings suggest in one click, so a dropped leading zero updates its product', async () => {
    const page = await signedIn();
    const panel = page.locator('#catalog-files');
    await panel.getByLabel('File').setInputFiles(excelFile('bakery.csv', ['barcode;name;price;taxCategory', '7612343;Mandelgipfel;2,40;2.6', '36000291452;Nussgipfel;2,60;2.6']));
    await expect.poll(() => panel.locator('[data-warnings]').textContent()).toBe('2 warnings: the file imports as written unless you correct it.');
    expect(await panel.locator('[data-counts]').textContent()).toBe('2 new, 0 changed, 0 unchanged.');
    await panel.getByRole('button', { name: 'Correct 2 barcodes as suggested' }).click();
    await panel.locator('[data-fixed]').waitFor();
    expect(await panel.locator('[data-fixed]').textContent()).toBe('2 barcodes corrected as suggested: the import writes them so; the file stays as it is.');
    expect(await panel.locator('[data-warnings]').count()).toBe(0);
    expect(await panel.locator('[data-counts]').textContent()).toBe('1 new, 1 changed, 0 unchanged.');
    await panel.getByRole('button', { name: 'Import: 1 new and 1 changed products' }).click();
    await panel.getByText('Imported: 1 new and 1 changed products.').waitFor();
    expect((await byBarcode('07612343')).map((p: { price: number }) => p.price)).toEqual([240]);
    expect(await byBarcode('7612343')).toEqual([]);
    expect((await byBarcode('036000291452'))[0]).toMatchObject({ name: 'Nussgipfel' });
  });
});

describe("the staff page's check of a file with 20,000 problems", () => {
  /** Elements the report holds: bounded, whatever the file's size. */
  const reportSize = (page: Page) => page.locator('#catalog-files [data-report]').evaluate((el) => el.querySelectorAll('*').length);
  /** A number as the page writes it in its language (en-CH groups thousands with an apostrophe). */
  const shown = (page: Page, n: number) => page.evaluate((value) => new Intl.NumberFormat('en-CH').format(value), n);

  it('shows 20,000 errors as their group, the first lines and the total, in a few hundred elements', async () => {
    const page = await signedIn();
    const panel = page.locator('#catalog-files');
    const lines = Array.from({ length: 20_000 }, (_, i) => `P-${i};Artikel ${i};gratis;2.6`);
    await panel.getByLabel('File').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(['externalId;name;price;taxCategory', ...lines].join('\r\n')) });
    await panel.locator('[data-errors]').waitFor({ timeout: 60_000 });
    expect(await panel.locator('[data-errors]').textContent()).toBe(`${await shown(page, 20_000)} problems: nothing is imported until they are fixed.`);
    const group = await panel.locator('table[data-table="error-groups"] tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(group).toEqual([['price', expect.stringMatching(/^"…" is not an amount in francs/), await shown(page, 20_000), '2, 3, 4, 5, 6, 7, 8, 9, 10, 11 …']]);
    expect(await panel.locator('table[data-table="import-errors"] tbody tr').count()).toBe(20);
    expect(await panel.locator('[data-more]').textContent()).toBe(`… and ${await shown(page, 19_980)} more`);
    expect(await reportSize(page)).toBeLessThan(400);
  });

  it('shows 20,000 warnings as their group, the first lines and the total, in a few hundred elements', async () => {
    const page = await signedIn();
    const panel = page.locator('#catalog-files');
    const codes = Array.from({ length: 20_000 }, (_, i) => String(200_000 + i)).map((body) => body + checkDigit(body));
    const lines = codes.map((code, i) => `${code};Artikel ${i};1,95;2.6`);
    await panel.getByLabel('File').setInputFiles({ name: 'zeros.csv', mimeType: 'text/csv', buffer: Buffer.from(['barcode;name;price;taxCategory', ...lines].join('\r\n')) });
    await panel.locator('[data-warnings]').waitFor({ timeout: 60_000 });
    expect(await panel.locator('[data-warnings]').textContent()).toBe(`${await shown(page, 20_000)} warnings: the file imports as written unless you correct it.`);
    expect(await panel.locator('[data-counts]').textContent()).toBe('20000 new, 0 changed, 0 unchanged.');
    const groups = await panel.locator('table[data-table="warning-groups"] tbody tr td:nth-child(3)').allTextContents();
    expect(groups).toEqual([await shown(page, 20_000)]);
    expect(await panel.locator('table[data-table="import-warnings"] tbody tr').count()).toBe(20);
    expect(await panel.locator('[data-more]').textContent()).toBe(`… and ${await shown(page, 19_980)} more`);
    expect(await panel.getByRole('button', { name: `Correct ${await shown(page, 20_000)} barcodes as suggested` }).count()).toBe(1);
    expect(await reportSize(page)).toBeLessThan(400);
  });
});
