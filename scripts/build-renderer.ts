import { build } from 'esbuild';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the server finds the pages it serves at `/` and `/status`. */
export const RENDERER_OUT = join(ROOT, 'dist', 'renderer');

/** Bundles the kiosk screen and the staff page, and copies their pages and styles: everything the pages load ships here, nothing from a CDN. */
export async function buildRenderer(): Promise<void> {
  await mkdir(RENDERER_OUT, { recursive: true });
  await build({
    entryPoints: {
      kiosk: join(ROOT, 'renderer/kiosk/main.ts'),
      'kiosk-style': join(ROOT, 'renderer/kiosk/kiosk.css'),
      // The staff page at /status.
      status: join(ROOT, 'renderer/staff/main.ts'),
    },
    outdir: RENDERER_OUT,
    entryNames: '[name]',
    bundle: true,
    format: 'esm',
    target: 'chrome120',
    minify: true,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // The staff page's HTML and style are plain files beside the sources: every page and style there ships as it is.
  const statusFiles = (await readdir(join(ROOT, 'renderer'))).filter((f) => /\.(html|css)$/.test(f) && f !== 'kiosk.html');
  await Promise.all([
    copyFile(join(ROOT, 'renderer/kiosk.html'), join(RENDERER_OUT, 'index.html')),
    ...statusFiles.map((f) => copyFile(join(ROOT, 'renderer', f), join(RENDERER_OUT, f))),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildRenderer();
