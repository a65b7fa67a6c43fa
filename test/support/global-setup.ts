import { buildRenderer } from '../../scripts/build-renderer.js';

/** The server serves the kiosk screen from dist/renderer/: bundle it once before any suite starts a server. */
export default async function setup(): Promise<void> {
  await buildRenderer();
}
