import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isQRIBAN, isValidIBAN } from 'ibantools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { IBANS, buildShop, sellMonth, type SettlementShop } from './support/settlement-shop.js';

const run = promisify(execFile);
const SCHEMA = join(PROJECT_ROOT, 'resources', 'schemas', 'pain.001.001.09.xsd');
/** The Swiss Payment Standards' character set: Basic Latin, Latin-1 Supplement, Latin Extended-A, Ș ș Ț ț and €. */
const SPS_TEXT = /^[\u0020-\u007E\u00A0-\u017F\u0218-\u021B\u20AC]*$/u;

let server: TestServer;
let write: Api;
let writeKey: string;
let shop: SettlementShop;
let settlement: string;
const folder = mkdtempSync(join(tmpdir(), 'settlement-files-'));

beforeAll(async () => {
  server = await startTestServer();
  writeKey = server.createOrg().writeKey;
  write = api(server.url, writeKey);
  shop = await buildShop(write);
  await sellMonth(write, shop);
  settlement = (await write.post('/settlements', { to: new Date().toISOString() })).body.id;
});
afterAll(async () => {
  await server.destroy();
  rmSync(folder, { recursive: true, force: true });
});

/** Fails the test with xmllint's own words unless the file is valid against the ISO 20022 schema. */
async function validate(xml: string, name: string): Promise<void> {
  const file = join(folder, name);
  writeFileSync(file, xml);
  const result = await run('xmllint', ['--noout', '--schema', SCHEMA, file]).catch((error: { stderr: string }) => ({ stderr: error.stderr, failed: true }));
  expect(result, result.stderr).not.toHaveProperty('failed');
  expect(result.stderr).toContain('validates');
}

const all = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]!);
const unescape = (text: string) => text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'");

/** The SPS rules the schema does not check. */
function checkSwissRules(xml: string): void {
  const amounts = all(xml, 'InstdAmt');
  const cents = amounts.map((a) => Math.round(Number(a) * 100));
  expect(all(xml, 'NbOfTxs')).toEqual([String(amounts.length), String(amounts.length)]);
  const control = (cents.reduce((s, c) => s + c, 0) / 100).toFixed(2);
  expect(all(xml, 'CtrlSum')).toEqual([control, control]);
  for (const amount of amounts) expect(amount).toMatch(/^\d{1,9}\.\d{2}$/);
  expect([...xml.matchAll(/Ccy="([A-Z]+)"/g)].map((m) => m[1])).toEqual(amounts.map(() => 'CHF'));
  expect(all(xml, 'PmtMtd')).toEqual(['TRF']);
  for (const id of [...all(xml, 'MsgId'), ...all(xml, 'PmtInfId'), ...all(xml, 'InstrId'), ...all(xml, 'EndToEndId')]) expect(id).toMatch(/^[A-Za-z0-9-]{1,35}$/);
  expect(new Set(all(xml, 'EndToEndId')).size).toBe(amounts.length);
  for (const iban of all(xml, 'IBAN')) {
    expect(isValidIBAN(iban)).toBe(true);
    expect(isQRIBAN(iban)).toBe(false);
  }
  for (const name of all(xml, 'Nm')) {
    expect(unescape(name)).toMatch(SPS_TEXT);
    expect([...unescape(name)].length).toBeLessThanOrEqual(70);
  }
  for (const text of [...all(xml, 'Ustrd'), ...all(xml, 'TwnNm'), ...all(xml, 'StrtNm')]) expect(unescape(text)).toMatch(SPS_TEXT);
}

describe('GET /settlements/{id}/payout-file', () => {
  it('answers 409 while the organization has no payout account', async () => {
    const res = await write.get(`/settlements/${settlement}/payout-file`);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/POST \/payout-account/);
  });

  it('pays each supplier that can be paid from the payout account, valid against the schema and the SPS rules', async () => {
    expect((await write.post('/payout-account', { name: 'Hofladen Dorf AG', iban: IBANS.shop, street: 'Dorfplatz 2', zipCode: '3000', city: 'Bern', country: 'CH' })).status).toBe(200);
    expect((await write.get('/payout-account')).body.data).toEqual({ name: 'Hofladen Dorf AG', iban: 'CH9300762011623852957', street: 'Dorfplatz 2', zipCode: '3000', city: 'Bern', country: 'CH' });
    const res = await write.get(`/settlements/${settlement}/payout-file`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = res.body as string;
    await validate(xml, 'month.xml');
    checkSwissRules(xml);
    // Brunner 48.64 and Müller 11.47, by name; Eggli's payouts are off.
    expect(all(xml, 'InstdAmt')).toEqual(['48.64', '11.47']);
    expect(all(xml, 'CtrlSum')[0]).toBe('60.11');
    expect(all(xml, 'Nm').map(unescape)).toEqual(['Hofladen Dorf AG', 'Hofladen Dorf AG', 'Hof Brunner', 'Müller & Söhne']);
    expect(all(xml, 'IBAN')).toEqual(['CH9300762011623852957', IBANS.brunner, IBANS.mueller]);
  });

  it('transliterates what the SPS do not allow, and leaves out a supplier with a QR-IBAN', async () => {
    await write.post(`/suppliers/${shop.suppliers.brunner}`, { name: '“Bio” Hof – Nguyễn' });
    await write.post(`/suppliers/${shop.suppliers.mueller}`, { iban: IBANS.qr });
    const data = (await write.get(`/settlements/${settlement}`)).body.data;
    expect(data.suppliers.find((s: { supplier: string }) => s.supplier === shop.suppliers.mueller).payoutProblem).toBe('invalid-iban');
    const xml = (await write.get(`/settlements/${settlement}/payout-file`)).body as string;
    await validate(xml, 'transliterated.xml');
    checkSwissRules(xml);
    expect(all(xml, 'Nm').slice(2)).toEqual(['"Bio" Hof - Nguyen']);
    expect(all(xml, 'InstdAmt')).toEqual(['48.64']);
    await write.post(`/suppliers/${shop.suppliers.brunner}`, { name: 'Hof Brunner' });
    await write.post(`/suppliers/${shop.suppliers.mueller}`, { iban: IBANS.mueller });
  });
});

/** A statement as bytes, as a browser downloads it. */
async function download(path: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${writeKey}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('GET /settlements/{id}/statements/{supplier}', () => {
  it("answers the supplier's statement as a PDF whose text says what it sold and is paid, umlauts included", async () => {
    const res = await download(`/settlements/${settlement}/statements/${shop.suppliers.brunner}`);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    const file = join(folder, 'brunner.pdf');
    writeFileSync(file, res.bytes);
    const text = (await run('pdftotext', ['-layout', file, '-'])).stdout.replace(/\u00A0|\u202F/g, ' ');
    expect(text).toMatch(/Abrechnung Nr\. 1/);
    expect(text).toMatch(/Laden: Hofladen Dorf, Marktstand/);
    expect(text).toMatch(/Lieferant: Hof Brunner/);
    expect(text).toMatch(/Bergkäse \(kg\)\s+1\.855\s+CHF 53\.61/);
    expect(text).toMatch(/Honig\s+1\s+CHF 9\.90/);
    expect(text).toMatch(/Total Umsatz\s+CHF 63\.51/);
    expect(text).toMatch(/Marge 20 % \(Hofladen Dorf\)\s+CHF-4\.03/);
    expect(text).toMatch(/Marge 25 % \(Marktstand\)\s+CHF-10\.84/);
    expect(text).toMatch(/Auszahlung\s+CHF 48\.64/);
    expect(text).toContain('Auf Konto: CH39 0870 4016 0754 7300 7');
    const info = (await run('pdfinfo', [file])).stdout;
    expect(info).toMatch(/Pages:\s+1\n/);
    const fonts = (await run('pdffonts', [file])).stdout;
    expect(fonts).toMatch(/DejaVuSans\S*\s+.*\byes\b/);
    expect(fonts).not.toMatch(/\bno\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/m);
  });

  it('says why a supplier gets no payout, and speaks the store’s language', async () => {
    await write.post(`/stores/${shop.stores.dorf}`, { languageMain: 'fr' });
    const file = join(folder, 'eggli.pdf');
    writeFileSync(file, (await download(`/settlements/${settlement}/statements/${shop.suppliers.eggli}`)).bytes);
    const text = (await run('pdftotext', ['-layout', file, '-'])).stdout.replace(/\u00A0|\u202F/g, ' ');
    expect(text).toMatch(/Décompte n° 1/);
    expect(text).toMatch(/Fournisseur: Käserei Eggli/);
    expect(text).toMatch(/Pas de versement \(payouts-disabled\)/);
    await write.post(`/stores/${shop.stores.dorf}`, { languageMain: 'de' });
  });

  it('answers the lines as CSV for a spreadsheet', async () => {
    const res = await write.get(`/settlements/${settlement}/statements/${shop.suppliers.mueller}?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = (res.body as string).replace(/^\uFEFF/, '').trim().split('\n').map((row) => row.split(';'));
    expect(rows[0]).toEqual(['Datum', 'Laden', 'Artikel ID', 'Artikel', 'Art', 'Menge', 'Umsatz CHF']);
    expect(rows.slice(1).map((r) => [r[1], r[3], r[4], r[5], r[6]])).toEqual([
      [shop.stores.dorf, 'Apfelsaft', 'Verkauf', '2', '9.00'],
      [shop.stores.markt, 'Apfelsaft', 'Verkauf', '1', '4.50'],
    ]);
  });

  it('answers 404 for a supplier the settlement does not hold and 400 for an unknown format', async () => {
    expect((await write.get(`/settlements/${settlement}/statements/nobody`)).status).toBe(404);
    expect((await write.get(`/settlements/${settlement}/statements/${shop.suppliers.mueller}?format=xls`)).status).toBe(400);
    expect((await write.get('/settlements/nothing/statements/nobody')).status).toBe(404);
  });
});
