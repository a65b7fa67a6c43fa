import iconv from 'iconv-lite';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startTestServer, type TestServer } from './support/server.js';
import { catalogReport } from './support/catalog-report.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

describe('catalog import and catalog export on the command line', () => {
  it('checks with --dry-run, imports, refuses a bad file with the same JSON, and exports what the import takes', async () => {
    const org = server.createOrg();
    const read = api(server.url, org.readKey);
    const file = join(server.dataDir, 'preisliste.csv');
    writeFileSync(file, iconv.encode('barcode;name;price;taxCategory\r\n7610000000707;Schoggi dunkel;2,95;2.6\r\n7610000000714;Bündner Nusstorte;14,50;2.6\r\n', 'win1252'));

    const checked = await runCli(server.dataDir, ['catalog', 'import', org.id, file, '--dry-run', '--json']);
    expect(checked.status).toBe(0);
    expect(checked.json).toEqual(catalogReport({ created: 2 }));
    expect((await read.get('/products')).body.data).toEqual([]);

    const imported = await runCli(server.dataDir, ['catalog', 'import', org.id, file, '--json']);
    expect(imported.json).toEqual(catalogReport({ created: 2 }));
    expect((await read.get('/products?barcode=7610000000714')).body.data.map((p: { name: string; price: number }) => [p.name, p.price])).toEqual([['Bündner Nusstorte', 1450]]);

    const bad = join(server.dataDir, 'falsch.csv');
    writeFileSync(bad, 'barcode;name;price;taxCategory\n7610000000721;Biber;zwei;2.6\n');
    const refused = await runCli(server.dataDir, ['catalog', 'import', org.id, bad, '--json']);
    expect(refused.status).toBe(1);
    expect(refused.json).toEqual(
      catalogReport({
        errors: [{ line: 2, column: 'price', message: expect.stringMatching(/^"zwei" is not an amount in francs/), kind: 'francs-invalid', params: { value: 'zwei' } }],
        errorGroups: [{ column: 'price', message: expect.stringMatching(/^"…" is not an amount in francs/), kind: 'francs-invalid', params: {}, count: 1, lines: [2] }],
      }),
    );
    const text = await runCli(server.dataDir, ['catalog', 'import', org.id, bad]);
    expect(text.stdout).toContain('line 2, price: "zwei" is not an amount in francs');

    const exported = await runCli(server.dataDir, ['catalog', 'export', org.id]);
    expect(exported.status).toBe(0);
    // The same bytes as over HTTP, byte order mark included (fetch's text() drops it).
    const overHttp = Buffer.from(await (await fetch(`${server.url}/catalog/export`, { headers: { authorization: `Bearer ${org.readKey}` } })).arrayBuffer());
    expect(Buffer.from(exported.stdout)).toEqual(overHttp);
    expect(overHttp.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const copy = join(server.dataDir, 'export.csv');
    writeFileSync(copy, exported.stdout);
    expect((await runCli(server.dataDir, ['catalog', 'import', org.id, copy, '--json'])).json).toEqual(catalogReport({ unchanged: 2 }));
  });

  it('writes the barcodes the warnings suggest with --fix-barcodes', async () => {
    const org = server.createOrg();
    const read = api(server.url, org.readKey);
    const file = join(server.dataDir, 'ohne-null.csv');
    writeFileSync(file, 'barcode;name;price;taxCategory\r\n7612343;Mandelgipfel;2,20;2.6\r\n');
    const imported = await runCli(server.dataDir, ['catalog', 'import', org.id, file, '--fix-barcodes', '--json']);
    expect(imported.json).toMatchObject({ created: 1, warningsTotal: 0, barcodesFixed: 1 });
    expect((await read.get('/products?barcode=07612343')).body.data.map((p: { name: string }) => p.name)).toEqual(['Mandelgipfel']);
  });

  it('leaves the running server searching what it imported, without a restart', async () => {
    const org = server.createOrg();
    const read = api(server.url, org.readKey);
    const names = async (q: string) => (await read.get(`/products?q=${encodeURIComponent(q)}`)).body.data.map((p: { name: string }) => p.name);
    // The organization's index exists before the import: the server built it for this search.
    expect(await names('Nusstorte')).toEqual([]);

    const file = join(server.dataDir, 'sortiment.csv');
    writeFileSync(file, 'externalId;barcode;name;price;taxCategory\nA1;7610000000738;Engadiner Nusstorte;14,50;2.6\nA2;7610000000745;Basler Läckerli;6,90;2.6\n');
    expect((await runCli(server.dataDir, ['catalog', 'import', org.id, file, '--json'])).json).toMatchObject({ created: 2, errors: [] });
    expect(await names('Nusstorte')).toEqual(['Engadiner Nusstorte']);
    expect(await names('Läckerli')).toEqual(['Basler Läckerli']);

    writeFileSync(file, 'externalId;barcode;name;price;taxCategory\nA1;7610000000738;Bündner Nusstorte;14,50;2.6\n');
    expect((await runCli(server.dataDir, ['catalog', 'import', org.id, file, '--json'])).json).toMatchObject({ updated: 1, errors: [] });
    expect(await names('Engadiner')).toEqual([]);
    expect(await names('Bündner')).toEqual(['Bündner Nusstorte']);
  });

  it('names an organization that does not exist', async () => {
    const res = await runCli(server.dataDir, ['catalog', 'export', 'nope', '--json']);
    expect(res.status).toBe(1);
    expect(res.json).toEqual({ error: 'Organization "nope" not found' });
  });
});
