import { buildClient } from '../../scripts/build-client.js';
import { buildRenderer } from '../../scripts/build-renderer.js';
import { compileProduct } from './compiled-product.js';

/**
 * The server serves the kiosk screen from dist/renderer/, the example scripts
 * import the typed client from client/dist/, and the CLI and child servers run
 * compiled: build all three once before any suite runs.
 */
export default async function setup(): Promise<() => void> {
  const [, , removeCompiled] = await Promise.all([buildRenderer(), buildClient(), compileProduct()]);
  return removeCompiled;
}
