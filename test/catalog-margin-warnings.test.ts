import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let write: Api;
let gemuese: string;

const sendFile = (body: string, query = '') => write.request('POST', `/catalog/import${query}`, { body, headers: { 'content-type': 'text/csv' } });

beforeAll(async () => {
  server = await startTestServer();
  write = api(server.url, server.createOrg().writeKey);
  gemuese = (await write.post('/categories', { name: 'Gemüse', marginMinPercent: 20, marginMaxPercent: 40 })).body.id;
  await write.post('/categories', { name: 'Brot' });
});
afterAll(() => server.destroy());

describe('the catalog file check warns about margins outside the category’s range', () => {
  it('names the rows below the minimum and above the maximum, in a dry run and in the import’s answer, and imports them as written', async () => {
    const file = [
      'name;price;costPrice;category;taxCategory',
      'Rüebli;4.00;3.50;Gemüse;2.6',
      'Lauch;4.00;3.00;Gemüse;2.6',
      'Kürbis;5.00;2.00;Gemüse;2.6',
      'Zopf;5.00;4.90;Brot;2.6',
      'Sellerie;3.00;;Gemüse;2.6',
      'Randen;3.00;2.40;Gemüse;2.6',
    ].join('\r\n');
    const expected = [
      { line: 2, column: 'costPrice', message: 'the margin 12.5 % (price 4.00, cost price 3.50) is below the minimum 20 % of the category "Gemüse"; check the cost price and the price' },
      { line: 4, column: 'costPrice', message: 'the margin 60 % (price 5.00, cost price 2.00) is above the maximum 40 % of the category "Gemüse"; check the cost price and the price' },
    ];
    const dry = await sendFile(file, '?dryRun=true');
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ created: 6, errors: [], warnings: expected, warningsTotal: 2 });
    const imported = await sendFile(file);
    expect(imported.status).toBe(200);
    expect(imported.body.data).toMatchObject({ created: 6, warnings: expected, warningsTotal: 2 });
  });

  it('checks the product as the row leaves it: a new price in the file against the stored cost price and category', async () => {
    const id = (await write.post('/products', { name: 'Spinat', price: 500, costPrice: 350, category: gemuese, taxCategory: '2.6' })).body.id;
    const inside = await sendFile(`id;price\r\n${id};5.00`, '?dryRun=true');
    expect(inside.body.data).toMatchObject({ unchanged: 1, warnings: [] });
    const below = await sendFile(`id;price\r\n${id};4.00`, '?dryRun=true');
    expect(below.body.data).toMatchObject({
      updated: 1,
      warnings: [{ line: 2, column: 'price', message: 'the margin 12.5 % (price 4.00, cost price 3.50) is below the minimum 20 % of the category "Gemüse"; check the cost price and the price' }],
    });
  });
});
