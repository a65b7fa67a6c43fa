import electron from 'electron';
import { setupApp } from './electron/main-process.js';

// setupApp reports its own failures in a window; this catches only what is left (a bug).
setupApp(electron).catch((err: unknown) => {
  console.error('Store Server stopped:', err);
  electron.app.exit(1);
});
