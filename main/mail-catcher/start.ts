import { startMailCatcher } from './catcher.js';

/**
 * `npm run -s mail:catch -- --port <p>`: a local SMTP server on 127.0.0.1:<p>
 * that prints each mail it receives as one line of JSON and answers the
 * newest ones on http://127.0.0.1:<p+1>/mails. Point the store server at it
 * with SMTP_URL=smtp://127.0.0.1:<p>.
 */
const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt === -1 ? 2525 : Number(args[portAt + 1]);
if (!Number.isInteger(port) || port < 1 || port > 65534) {
  console.error(`--port must be a port number from 1 to 65534 (the next one serves GET /mails), not ${JSON.stringify(args[portAt + 1])}`);
  process.exit(2);
}
try {
  const catcher = await startMailCatcher(port, (mail) => console.log(JSON.stringify(mail)));
  console.error(`mail catcher: SMTP on 127.0.0.1:${catcher.smtpPort}, the newest mails on http://127.0.0.1:${catcher.httpPort}/mails`);
  const stop = () => void catcher.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  console.error(`mail catcher: cannot listen on 127.0.0.1:${port} and ${port + 1}: ${(err as Error).message}`);
  process.exit(1);
}
