import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import { join } from 'node:path';

/**
 * The practical limit for a Node process on this machine: node:http over the
 * same SQLite file, one prepared statement per answer, no framework, no auth.
 */
const dataDir = process.env.DATA_DIR!;
const db = new Database(join(dataDir, 'retail.sqlite'), { readonly: true });
const orgId = process.env.ORG_ID!;
const byId = db.prepare('SELECT * FROM products WHERE id = ? AND org_id = ?');
const byBarcode = db.prepare(
  `SELECT * FROM products WHERE org_id = @orgId AND barcode = @code
   UNION ALL SELECT p.* FROM product_alias_codes a CROSS JOIN products p ON p.id = a.product_id
    WHERE a.org_id = @orgId AND a.code = @code`,
);
const PREFIX = '/api/v1/products';

const server = createServer((req, res) => {
  const url = req.url ?? '';
  let body: unknown;
  if (url.startsWith(`${PREFIX}?barcode=`)) {
    body = { data: byBarcode.all({ orgId, code: decodeURIComponent(url.slice(PREFIX.length + 9)).toLowerCase() }) };
  } else if (url.startsWith(`${PREFIX}/`)) {
    const row = byId.get(url.slice(PREFIX.length + 1), orgId);
    if (row) body = { data: row };
  }
  if (body === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
