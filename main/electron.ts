import electron from 'electron';
import { setupApp } from './electron/main-process.js';
import { PRIVATE_UMASK } from './security/private-files.js';

process.umask(PRIVATE_UMASK);

// setupApp reports its own failures in a window; this catches only what is left (a bug).
setupApp(electron).catch((err: unknown) => {
  console.error('Store Server stopped:', err);
  electron.app.exit(1);
});
