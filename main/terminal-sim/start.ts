import { isIPv4 } from 'node:net';
import { createInterface } from 'node:readline';
import { makeIdentity, POI_ID } from './identity.js';
import { startSimulator } from './simulator.js';

/**
 * `npm run -s terminal:sim -- [--port <p>] [--host 127.x.y.z] [--poi-id <model>-<serial>]`:
 * a simulated card terminal on a loopback address (several can take port 8443,
 * Adyen's fixed port, each on an address of its own). Prints one line of JSON,
 * ready for `POST /terminals`, once it listens.
 */
const args = process.argv.slice(2);
const valueOf = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : (args[at + 1] ?? '');
};
const refuse = (message: string): never => {
  console.error(message);
  process.exit(2);
};

const port = Number(valueOf('--port') ?? 8443);
if (!Number.isInteger(port) || port < 0 || port > 65535) refuse(`--port must be a port number from 0 to 65535, not ${JSON.stringify(valueOf('--port'))}`);
const host = valueOf('--host') ?? '127.0.0.1';
if (!isIPv4(host) || !host.startsWith('127.')) refuse(`--host must be a loopback address 127.x.y.z, not ${JSON.stringify(host)}`);
const poiId = valueOf('--poi-id');
if (poiId !== undefined && !POI_ID.test(poiId)) refuse(`--poi-id must be a terminal's POIID, <model>-<serial> (e.g. S1E2L-324688179), not ${JSON.stringify(poiId)}`);

const simulator = await startSimulator(await makeIdentity({ poiId }), port, host).catch((err: NodeJS.ErrnoException) =>
  refuse(err.code === 'EADDRINUSE' ? `${host}:${port} is taken: pick another --host 127.x.y.z or --port` : `the simulator could not listen on ${host}:${port}: ${err.message}`),
);
console.log(JSON.stringify(simulator.readyLine()));
// A line on standard input (Enter, where a person runs it) ends an absence of `POST /simulator/unreachable` at once.
createInterface({ input: process.stdin }).on('line', simulator.comeBack);
const stop = () => void simulator.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
