import electron from 'electron';
import { setupApp } from './electron/main-process.js';

setupApp(electron).catch((err: unknown) => {
  console.error('The store server could not start:', err);
  electron.app.exit(1);
});
