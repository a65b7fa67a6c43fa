import asar from '@electron/asar';
import fuses from '@electron/fuses';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../main/version.js';
import { makeStandInElectronDist } from './support/electron-dist.js';
import { runProcess } from './support/processes.js';

/**
 * Packaging smoke test (`npm run test:package`, run by .ci/run): electron-builder
 * packages the compiled app around a stand-in Electron, exactly as
 * `npm run dist` would up to the installers, without downloading anything.
 */

const { FuseV1Options, getCurrentFuseWire } = fuses;
const ENABLE = 49;
const DISABLE = 48;

let work: string;
let unpacked: string;
let files: string[];

async function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  const { status, stdout, stderr } = await runProcess(command, args, { cwd: PROJECT_ROOT, env });
  return { code: status, output: stdout + stderr };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'retail-package-'));
  const electronDist = makeStandInElectronDist(join(work, 'electron-dist'));
  const built = await run(process.execPath, [
    join(PROJECT_ROOT, 'node_modules/electron-builder/cli.js'),
    '--dir', '--linux', '--x64',
    `-c.electronDist=${electronDist}`,
    // Native modules stay built for Node here, so the packaged server can run under Node below.
    '-c.npmRebuild=false',
    `-c.directories.output=${join(work, 'release')}`,
  ]);
  expect(built.code, built.output).toBe(0);
  unpacked = join(work, 'release', 'linux-unpacked');
  files = asar.listPackage(join(unpacked, 'resources', 'app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'));
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('packaged app (electron-builder --dir)', () => {
  it('is the executable store-server with its fuses flipped', async () => {
    const wire = await getCurrentFuseWire(join(unpacked, 'store-server'));
    expect(wire).toMatchObject({
      [FuseV1Options.RunAsNode]: DISABLE,
      [FuseV1Options.EnableCookieEncryption]: ENABLE,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: DISABLE,
      [FuseV1Options.EnableNodeCliInspectArguments]: DISABLE,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: ENABLE,
      [FuseV1Options.OnlyLoadAppFromAsar]: ENABLE,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: DISABLE,
    });
  });

  it('carries the update configuration electron-updater reads (generic provider, its cache folder)', () => {
    const updateConfig = parse(readFileSync(join(unpacked, 'resources', 'app-update.yml'), 'utf8'));
    expect(updateConfig).toMatchObject({ provider: 'generic', updaterCacheDirName: expect.stringMatching(/updater$/) });
    expect(files).toContain('/node_modules/electron-updater/package.json');
  });

  it('holds the compiled app, its pages and runtime dependencies', () => {
    for (const file of ['/package.json', '/dist/main/electron.js', '/dist/main/electron/preload.cjs', '/dist/main/start.js', '/dist/main/cli.js', '/dist/shared/kiosk-config.js']) {
      expect(files).toContain(file);
    }
    for (const dependency of ['express', 'zod', 'pino', 'minisearch', 'busboy', 'better-sqlite3', 'sharp', '@adyen/api-library', 'csv-parse', 'csv-stringify', 'iconv-lite']) {
      expect(files).toContain(`/node_modules/${dependency}/package.json`);
    }
  });

  it('holds no sources, tests, maps or development dependencies', () => {
    const offending = files.filter((f) =>
      /^\/(main|shared|test|packaging|\.ci|docs|release)\//.test(f) ||
      /\.(map|tsbuildinfo)$/.test(f) ||
      (/\.[cm]?ts$/.test(f) && !f.startsWith('/node_modules/')) ||
      /^\/node_modules\/(typescript|tsx|vitest|vite|esbuild|electron|electron-builder|app-builder-lib|@electron|@types|ajv|fast-check|autocannon)\//.test(f) ||
      /^\/node_modules\/better-sqlite3\/(deps|src)\//.test(f) ||
      /^\/(tsconfig.*|vitest.*|electron-builder\.yml|package-lock\.json|README\.md)$/.test(f),
    );
    expect(offending).toEqual([]);
  });

  it('unpacks the native modules from the ASAR', () => {
    const native = join(unpacked, 'resources', 'app.asar.unpacked', 'node_modules');
    expect(existsSync(join(native, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    expect(existsSync(join(native, 'better-sqlite3', 'build', 'Release', 'obj.target'))).toBe(false);
    expect(existsSync(join(native, 'sharp', 'lib', 'sharp.js'))).toBe(true);
    expect(existsSync(join(native, '@img', `sharp-linux-${process.arch}`, 'lib', `sharp-linux-${process.arch}.node`))).toBe(true);
  });

  it('runs: the packaged server answers /health and the packaged CLI works', async () => {
    const app = join(work, 'app');
    asar.extractAll(join(unpacked, 'resources', 'app.asar'), app);
    const dataDir = join(work, 'data');

    const help = await run(process.execPath, [join(app, 'dist/main/cli.js'), '--help'], { DATA_DIR: dataDir });
    expect(help.code, help.output).toBe(0);
    expect(help.output).toContain('key create <orgId> --kind read|write');

    const server = spawn(process.execPath, [join(app, 'dist/main/start.js')], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (chunk) => (output += chunk));
    server.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    try {
      await expect.poll(() => output, { timeout: 20_000 }).toMatch(/listening on http:\/\/\S+/);
      const url = /listening on (http:\/\/\S+)/.exec(output)![1]!;
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      // The window's page, from the pages packaged with the server.
      const page = await fetch(new URL('/', url));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited, output).toBe(0);
  });
});
