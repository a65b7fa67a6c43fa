import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKBOOK_TYPE } from '../shared/api/catalog.js';
import { api, collectPages, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { zipFile } from './support/zip-file.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const xml = (body: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);

/** Days from Excel's day 0 to 1 December and 30 November 2026, in its 1900 date system. */
const DEC_1 = 46357;
const NOV_30 = 46356;
const DAYS_1900_TO_1904 = 1462;

const SHARED = [
  '<si><t>Strichcode</t></si>',
  '<si><t>Bezeichnung</t></si>',
  '<si><t>Preis</t></si>',
  '<si><t>MWST</t></si>',
  '<si><t>Beschreibung</t></si>',
  '<si><t>Aktion ab</t></si>',
  '<si><t>Aktionspreis</t></si>',
  '<si><t>Verkaufsstopp</t></si>',
  '<si><t>7610000000103</t></si>',
  // Rich text: two runs, the first in bold, make one text.
  '<si><r><rPr><b val="true"/><sz val="10"/><rFont val="Arial"/></rPr><t xml:space="preserve">Bio </t></r><r><rPr><sz val="10"/><rFont val="Arial"/></rPr><t>Rüebli</t></r></si>',
  // A phonetic reading is not part of the text.
  '<si><t>Zopf</t><rPh sb="0" eb="4"><t>ツォプフ</t></rPh></si>',
  '<si><t>7610000000301</t></si>',
  // `_x0026_` is how a workbook escapes a character (here "&").
  '<si><t xml:space="preserve">  Zopf _x0026_ Butter  </t></si>',
  '<si><t>gratis</t></si>',
];

/**
 * A workbook as LibreOffice Calc writes one, byte by byte: shared strings,
 * styles with custom number formats, and two sheets whose first in the
 * workbook's order is the archive's second file. Row 4 is missing, cells
 * missing within a row are left out, and `withBadRow` adds row 7 with a
 * price that is not one; `sheetXml` replaces the first sheet's part.
 */
function calcWorkbook(options: { epoch1904?: boolean; withBadRow?: boolean; sheetXml?: string } = {}): Buffer {
  const shift = options.epoch1904 ? DAYS_1900_TO_1904 : 0;
  const row = (r: number, cells: string) => `<row r="${r}" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">${cells}</row>`;
  const header = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((column, i) => `<c r="${column}1" s="0" t="s"><v>${i}</v></c>`).join('');
  const rows = [
    row(1, header),
    row(
      2,
      '<c r="A2" s="0" t="s"><v>8</v></c><c r="B2" s="0" t="s"><v>9</v></c><c r="C2" s="2" t="n"><v>1.95</v></c><c r="D2" s="0" t="n"><v>2.6</v></c>' +
        `<c r="E2" s="0" t="e"><f>NA()</f><v>#N/A</v></c><c r="F2" s="1" t="n"><v>${DEC_1 - shift}</v></c><c r="G2" s="4" t="n"><v>1.5</v></c><c r="H2" s="0" t="b"><v>0</v></c>`,
    ),
    row(
      3,
      '<c r="A3" s="0" t="inlineStr"><is><t>7610000000202</t></is></c><c r="B3" s="0" t="str"><f>&quot;Apfelwein &amp; &quot;&amp;&quot;Most&quot;</f><v>Apfelwein &amp; Most</v></c>' +
        `<c r="C3" s="2" t="n"><v>6.9</v></c><c r="D3" s="0" t="n"><v>8.1</v></c><c r="F3" s="3" t="n"><v>${NOV_30 - shift}</v></c><c r="G3" s="4" t="n"><v>5.9</v></c><c r="H3" s="0" t="b"><v>1</v></c>`,
    ),
    row(5, '<c r="A5" s="0" t="s"><v>11</v></c><c r="B5" s="0" t="s"><v>10</v></c><c r="C5" s="2" t="n"><v>4.2</v></c><c r="D5" s="0" t="n"><v>2.6</v></c><c r="E5" s="0" t="s"><v>12</v></c>'),
    ...(options.withBadRow ? [row(7, '<c r="A7" s="0" t="inlineStr"><is><t>7610000000400</t></is></c><c r="B7" s="0" t="inlineStr"><is><t>Muster</t></is></c><c r="C7" s="0" t="s"><v>13</v></c><c r="D7" s="0" t="n"><v>2.6</v></c>')] : []),
  ];
  const sheet = (data: string) =>
    xml(`<worksheet ${MAIN}><sheetPr filterMode="false"><pageSetUpPr fitToPage="false"/></sheetPr><dimension ref="A1:H7"/><sheetFormatPr defaultColWidth="11.53515625" defaultRowHeight="12.8"/><sheetData>${data}</sheetData><pageMargins left="0.7875" right="0.7875" top="1.05277777777778" bottom="1.05277777777778" header="0.7875" footer="0.7875"/></worksheet>`);
  return zipFile(
    [
      { name: '[Content_Types].xml', data: xml('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>') },
      { name: '_rels/.rels', data: xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`) },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: xml(
          `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELS}/styles" Target="styles.xml"/>` +
            `<Relationship Id="rId2" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId3" Type="${RELS}/worksheet" Target="worksheets/sheet2.xml"/>` +
            `<Relationship Id="rId4" Type="${RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
        ),
      },
      {
        name: 'xl/workbook.xml',
        data: xml(
          `<workbook ${MAIN}><fileVersion appName="Calc"/><workbookPr backupFile="false" showObjects="all" date1904="${options.epoch1904 ? 'true' : 'false'}"/><workbookProtection/>` +
            '<sheets><sheet name="Artikel" sheetId="2" state="visible" r:id="rId3"/><sheet name="Notizen" sheetId="1" state="visible" r:id="rId2"/></sheets><calcPr iterateCount="100" refMode="A1" iterate="false" iterateDelta="0.001"/></workbook>',
        ),
      },
      {
        name: 'xl/styles.xml',
        data: xml(
          `<styleSheet ${MAIN}><numFmts count="3"><numFmt numFmtId="164" formatCode="DD.MM.YYYY"/><numFmt numFmtId="165" formatCode="#,##0.00\\ &quot;CHF&quot;"/><numFmt numFmtId="166" formatCode="[$CHF-807]\\ #,##0.00;[RED]\\-[$CHF-807]\\ #,##0.00"/></numFmts>` +
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
            '<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="true"/>' +
            '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="true"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="true"/>' +
            '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="true"/></cellXfs></styleSheet>',
        ),
      },
      { name: 'xl/sharedStrings.xml', data: xml(`<sst ${MAIN.split(' ')[0]} count="${SHARED.length}" uniqueCount="${SHARED.length}">${SHARED.join('')}</sst>`) },
      { name: 'xl/worksheets/sheet1.xml', data: sheet(row(1, '<c r="A1" s="0" t="inlineStr"><is><t>Notizen, nicht zu lesen</t></is></c><c r="C1" s="0" t="n"><v>1</v></c>')) },
      { name: 'xl/worksheets/sheet2.xml', data: options.sheetXml === undefined ? sheet(rows.join('')) : xml(options.sheetXml) },
    ].map((entry) => ({ ...entry, deflate: true })),
  );
}

const sendWorkbook = (client: Api, body: Buffer, query = '') => client.request('POST', `/catalog/import${query}`, { body, headers: { 'content-type': WORKBOOK_TYPE } });

const ROWS_AS_READ = [
  { line: 2, cells: ['7610000000103', 'Bio Rüebli', '1.95', '2.6', '', '2026-12-01', '1.5', 'false'] },
  { line: 3, cells: ['7610000000202', 'Apfelwein & Most', '6.9', '8.1', '', '2026-11-30', '5.9', 'true'] },
  { line: 5, cells: ['7610000000301', 'Zopf', '4.2', '2.6', 'Zopf & Butter', '', '', ''] },
];

describe('POST /catalog/import of a workbook as LibreOffice Calc writes it', () => {
  it('reads the first sheet of the workbook, cells by their reference, rows by their number, text, numbers, dates and booleans as typed', async () => {
    const org = server.createOrg();
    const write = api(server.url, org.writeKey);
    const checked = await sendWorkbook(write, calcWorkbook(), '?dryRun=true');
    expect(checked.status).toBe(200);
    expect(checked.body.data).toMatchObject({ created: 3, errorsTotal: 0, preview: ROWS_AS_READ });
    expect(checked.body.data.header.map((column: { name: string; field: string }) => [column.name, column.field])).toEqual([
      ['Strichcode', 'barcode'],
      ['Bezeichnung', 'name'],
      ['Preis', 'price'],
      ['MWST', 'taxCategory'],
      ['Beschreibung', 'description'],
      ['Aktion ab', 'salePriceDateFrom'],
      ['Aktionspreis', 'salePrice'],
      ['Verkaufsstopp', 'saleStop'],
    ]);

    expect((await sendWorkbook(write, calcWorkbook())).status).toBe(200);
    const byBarcode = Object.fromEntries((await collectPages(api(server.url, org.readKey), '/products?limit=100')).items.map((p) => [p.barcode, p]));
    expect(Object.keys(byBarcode).sort()).toEqual(['7610000000103', '7610000000202', '7610000000301']);
    expect(byBarcode['7610000000103']).toMatchObject({ name: 'Bio Rüebli', price: 195, taxCategory: '2.6', salePrice: 150, salePriceDateFrom: '2026-12-01T00:00:00.000Z' });
    expect(byBarcode['7610000000202']).toMatchObject({ name: 'Apfelwein & Most', price: 690, taxCategory: '8.1', salePrice: 590, salePriceDateFrom: '2026-11-30T00:00:00.000Z', saleStop: true });
    expect(byBarcode['7610000000301']).toMatchObject({ name: 'Zopf', price: 420, description: 'Zopf & Butter' });
    expect(byBarcode['7610000000301'].salePrice).toBeUndefined();
  });

  it('reads dates of a workbook in the 1904 date system (older Excel for Mac) as the same days', async () => {
    const org = server.createOrg();
    const checked = await sendWorkbook(api(server.url, org.writeKey), calcWorkbook({ epoch1904: true }), '?dryRun=true');
    expect(checked.status).toBe(200);
    expect(checked.body.data).toMatchObject({ created: 3, errorsTotal: 0, preview: ROWS_AS_READ });
  });

  it('names the line of a problem by the sheet\'s row number, rows left out included', async () => {
    const org = server.createOrg();
    const checked = await sendWorkbook(api(server.url, org.writeKey), calcWorkbook({ withBadRow: true }), '?dryRun=true');
    expect(checked.status).toBe(200);
    expect(checked.body.data.errorsTotal).toBe(1);
    expect(checked.body.data.errors).toEqual([expect.objectContaining({ line: 7, column: 'Preis' })]);
    expect(checked.body.data.preview.map((row: { line: number }) => row.line)).toEqual([2, 3, 5, 7]);
  });

  it('refuses a sheet that is not well-formed XML, a number cell that holds no number, a cell past the last column or too many cells, naming what to fix', async () => {
    const org = server.createOrg();
    const write = api(server.url, org.writeKey);
    const cases: [string, RegExp][] = [
      [`<worksheet ${MAIN}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></row></sheetData></worksheet>`, /^The workbook cannot be read \(xl\/worksheets\/sheet2\.xml is not well-formed XML \(.+\)\); open it in Excel, save it again/],
      [`<worksheet ${MAIN}><sheetData><row r="1"><c r="A1" t="s"><v>2</v></c></row><row r="2"><c r="A2"><v>1,95</v></c></row></sheetData></worksheet>`, /^The workbook cannot be read \(cell A2 holds "1,95" where a number belongs\)/],
      [`<worksheet ${MAIN}><sheetData><row r="1"><c r="ZZZZZZ1"><v>1</v></c></row></sheetData></worksheet>`, /^The workbook cannot be read \(cell ZZZZZZ1 is past the last column a sheet has \(XFD\)\)/],
      [
        `<worksheet ${MAIN}><sheetData><row r="1"><c r="XFD1"><v>1</v></c></row>${Array.from({ length: 400 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>1</v></c></row>`).join('')}</sheetData></worksheet>`,
        /^The workbook cannot be read \(its first sheet reaches column 16384 over more than 305 rows, more than the 5,000,000 cells an import reads; delete the columns and rows/,
      ],
    ];
    for (const [sheetXml, message] of cases) {
      const res = await sendWorkbook(write, calcWorkbook({ sheetXml }), '?dryRun=true');
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });
});
