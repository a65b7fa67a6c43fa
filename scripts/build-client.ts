import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Compiles the typed client to client/dist, as `npm pack` in client/ does; scripts that import the package run that code. */
export function buildClient(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', join(ROOT, 'client', 'tsconfig.json')], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`compiling client/ failed with exit code ${code}`))));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildClient();
