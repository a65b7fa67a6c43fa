import Database from 'better-sqlite3';
import express from 'express';
import { createServer } from 'node:http';
import { join } from 'node:path';

/**
 * The two ceilings our read routes are measured against, over the same SQLite
 * file with one prepared statement per answer, no auth: bare node:http
 * (`BASELINE=node`, the practical limit for a Node process) and a bare
 * Express 5 app answering the same bytes (`BASELINE=express`, the limit for
 * anything routed by Express).
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
/** The size and shape of the real `/health` answer. */
const HEALTH = JSON.stringify({ status: 'ok', version: process.env.VERSION ?? '0.0.0', search: 'ready' });
const JSON_TYPE = 'application/json; charset=utf-8';

const barcodeBody = (code: string) => JSON.stringify({ data: byBarcode.all({ orgId, code: code.toLowerCase() }) });
const byIdBody = (id: string) => {
  const row = byId.get(id, orgId);
  return row ? JSON.stringify({ data: row }) : undefined;
};

function bareNode() {
  return createServer((req, res) => {
    const url = req.url ?? '';
    let body: string | undefined;
    if (url === '/api/v1/health') body = HEALTH;
    else if (url.startsWith(`${PREFIX}?barcode=`)) body = barcodeBody(decodeURIComponent(url.slice(PREFIX.length + 9)));
    else if (url.startsWith(`${PREFIX}/`)) body = byIdBody(url.slice(PREFIX.length + 1));
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': JSON_TYPE }).end(body);
  });
}

function bareExpress() {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const send = (res: express.Response, body: string | undefined) => {
    if (body === undefined) res.status(404).end();
    else res.type(JSON_TYPE).send(body);
  };
  app.get('/api/v1/health', (_req, res) => send(res, HEALTH));
  app.get(PREFIX, (req, res) => send(res, barcodeBody(String(req.query.barcode ?? ''))));
  app.get(`${PREFIX}/:id`, (req, res) => send(res, byIdBody(req.params.id)));
  return createServer(app);
}

const server = process.env.BASELINE === 'express' ? bareExpress() : bareNode();
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
