import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import { join } from 'node:path';

/**
 * The practical limit for a Node process on this machine: node:http over the
 * same SQLite file, one prepared statement per answer, no framework, no auth.
 */
const dataDir = process.env.DATA_DIR!;
const db = new Database(join(dataDir, 'retail.sqlite'), { readonly: true });
const byId = db.prepare('SELECT * FROM products WHERE id = ?');
const byBarcode = db.prepare(
  `SELECT * FROM products WHERE id IN
     (SELECT id FROM products WHERE barcode = @code UNION SELECT product_id FROM product_alias_codes WHERE code = @code)`,
);
const PREFIX = '/api/v1/products';

const server = createServer((req, res) => {
  const url = req.url ?? '';
  let body: unknown;
  if (url.startsWith(`${PREFIX}?barcode=`)) {
    body = { data: byBarcode.all({ code: decodeURIComponent(url.slice(PREFIX.length + 9)).toLowerCase() }) };
  } else if (url.startsWith(`${PREFIX}/`)) {
    const row = byId.get(url.slice(PREFIX.length + 1));
    if (row) body = { data: row };
  }
  if (body === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
