import { createInterface } from 'node:readline';
import { makeIdentity } from './identity.js';
import { startSimulator } from './simulator.js';

/**
 * `npm run -s terminal:sim -- --port <p>`: a simulated card terminal on
 * 127.0.0.1. Prints one line of JSON, ready for `POST /terminals`, once it listens.
 */
const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt === -1 ? 8443 : Number(args[portAt + 1]);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number from 0 to 65535, not ${JSON.stringify(args[portAt + 1])}`);
  process.exit(2);
}
const simulator = await startSimulator(await makeIdentity(), port);
console.log(JSON.stringify(simulator.readyLine()));
// A line on standard input (Enter, where a person runs it) ends an absence of `POST /simulator/unreachable` at once.
createInterface({ input: process.stdin }).on('line', simulator.comeBack);
const stop = () => void simulator.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
