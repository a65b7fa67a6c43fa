import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Marks the fuse wire in an Electron binary (@electron/fuses looks for it). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's own defaults: RunAsNode, NODE_OPTIONS, inspector and file:// privileges on; the rest off. */
export const DEFAULT_FUSE_WIRE = '10110001';

/**
 * A stand-in for the unpacked Electron that electron-builder would download:
 * a small executable carrying a fuse wire like the real binary's, so the
 * packaging (copy, rename, ASAR, afterPack fuse flipping) runs for real.
 */
export function makeStandInElectronDist(dir: string): string {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const wire = Buffer.concat([
    Buffer.from(`#!/bin/sh\n# ${FUSE_SENTINEL}`),
    Buffer.from([1, DEFAULT_FUSE_WIRE.length]),
    Buffer.from(`${DEFAULT_FUSE_WIRE}\necho "stand-in for Electron"\n`),
  ]);
  writeFileSync(join(dir, 'electron'), wire, { mode: 0o755 });
  writeFileSync(join(dir, 'LICENSE'), 'stand-in\n');
  writeFileSync(join(dir, 'version'), '45.4.1');
  return dir;
}
