import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';

/**
 * The floor for durable creates: node:http storing each POSTed body as one row
 * and one outbox row, in a transaction of its own committed with an fsync
 * (WAL, `synchronous = FULL`, as the product), no framework, no checks.
 */
const db = new Database(join(process.env.DATA_DIR!, 'bare-writer.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS products (id TEXT PRIMARY KEY, body TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY, product_id TEXT NOT NULL, body TEXT NOT NULL)`);
const insert = db.prepare('INSERT INTO products (id, body) VALUES (?, ?)');
const queue = db.prepare('INSERT INTO outbox (product_id, body) VALUES (?, ?)');
const create = db.transaction((id: string, body: string) => {
  insert.run(id, body);
  queue.run(id, body);
});

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    const id = randomBytes(15).toString('base64url');
    create(id, body);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ id }));
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
