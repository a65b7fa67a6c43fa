import { createServer } from 'node:http';

/**
 * The machine's floor for the chain simulation: bare node:http answering the
 * simulated stores' calls at once (an empty page for a pull, an id for a
 * sale), no database, no framework. Its p99 under the same simulator is what
 * the cores' other tenants and the simulator itself cost every request.
 */
const EMPTY_PAGE = JSON.stringify({ data: [], meta: {} });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = req.method === 'POST' ? JSON.stringify({ id: 'baseline' }) : EMPTY_PAGE;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', date: new Date().toUTCString() }).end(body);
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
