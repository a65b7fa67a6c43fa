import { buildClient } from '../../scripts/build-client.js';
import { buildRenderer } from '../../scripts/build-renderer.js';

/**
 * The server serves the kiosk screen from dist/renderer/, and the example scripts
 * import the typed client from client/dist/: build both once before any suite runs.
 */
export default async function setup(): Promise<void> {
  await Promise.all([buildRenderer(), buildClient()]);
}
