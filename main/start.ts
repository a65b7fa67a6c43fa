import { readConfig } from './config.js';
import { startServer } from './server.js';
import { DataFolderInUse } from './storage/data-folder-lock.js';
import { DatabaseFromNewerRelease } from './storage/migrate.js';
import { SecretKeyUnavailable } from './security/secret-box.js';
import { PRIVATE_UMASK } from './security/private-files.js';

process.umask(PRIVATE_UMASK);

const config = (() => {
  try {
    return readConfig();
  } catch (err) {
    // A setting that cannot be read is the operator's to fix: its message, not a stack trace.
    console.error(`Not started: ${(err as Error).message}`);
    process.exit(1);
  }
})();
const server = await startServer(config).catch((err: unknown) => {
  if (!(err instanceof DataFolderInUse || err instanceof DatabaseFromNewerRelease || err instanceof SecretKeyUnavailable)) throw err;
  console.error(`Not started: ${err.message}`);
  process.exit(1);
});
console.log(`Retail API listening on ${server.url} (data in ${config.dataDir})`);
if (server.credentialsFile) {
  console.log(`First start: created the organization "Local store"; its read and write keys are in ${server.credentialsFile}`);
}

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing`);
  server.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
