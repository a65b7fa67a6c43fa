import { join } from 'node:path';
import { PROJECT_ROOT } from '../../main/version.js';

/**
 * The built server (`dist/`, as `npm start` runs it), with or without the
 * check of what each key kind may do (`PERMISSION_CHECK=off`), so that
 * `npm run bench` can measure what the check costs: both variants run the
 * same compiled code in the same kind of process.
 */
const { startServer } = (await import(join(PROJECT_ROOT, 'dist', 'main', 'server.js'))) as typeof import('../../main/server.js');
const running = await startServer(
  { host: '127.0.0.1', port: Number(process.env.PORT), dataDir: process.env.DATA_DIR!, logLevel: 'info' },
  { withoutPermissionCheck: process.env.PERMISSION_CHECK === 'off' },
);
process.once('SIGTERM', () => {
  void running.close().finally(() => process.exit(0));
});
