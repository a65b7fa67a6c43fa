// @ts-check
// Release runners only (.github/workflows/release.yml), after `npm run dist`:
//   node packaging/check-packaged-app.mjs <packaged executable> <screenshot.png>
// checks the fuses of the packaged binary, starts the app with an empty data
// folder, waits until its in-process server answers /api/v1/health, and takes
// a screenshot of the screen with its window. Needs a graphical session (Xvfb
// on Linux, the runner's desktop on Windows).
import fuses from '@electron/fuses';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { FUSES } from './flip-fuses.mjs';

const [executable, screenshot] = process.argv.slice(2);
if (!executable || !screenshot) {
  console.error('usage: node packaging/check-packaged-app.mjs <packaged executable> <screenshot.png>');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const HEALTH = 'http://127.0.0.1:8787/api/v1/health';
// The window paints after the server answers; give it time before the screenshot.
const PAINT_MS = 5_000;

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`check-packaged-app: ${message}`);
  process.exit(1);
}

// The fuse wire as the binary carries it must be the one flip-fuses.mjs wrote.
const wire = /** @type {Record<number, number>} */ (/** @type {unknown} */ (await fuses.getCurrentFuseWire(executable)));
const ON = 49;
const OFF = 48;
for (const [option, wanted] of Object.entries(FUSES)) {
  if (option === 'version') continue;
  const actual = wire[Number(option)];
  if (actual !== (wanted ? ON : OFF)) fail(`fuse ${fuses.FuseV1Options[Number(option)]} is ${actual === ON ? 'on' : 'off'}, should be ${wanted ? 'on' : 'off'}`);
}
console.log('fuses: as packaging/flip-fuses.mjs sets them');

const dataDir = mkdtempSync(join(tmpdir(), 'store-server-smoke-'));
// Linux runners do not let Chromium's sandbox helper run from an unpacked folder (the deb installs it setuid).
const args = process.platform === 'linux' ? ['--no-sandbox'] : [];
const app = spawn(executable, args, { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' }, stdio: ['ignore', 'inherit', 'inherit'] });
let exited = false;
app.on('exit', (code) => {
  exited = true;
  if (code !== 0 && code !== null) console.error(`the app exited with ${code}`);
});

try {
  /** @type {{ status?: string, version?: string } | undefined} */
  let health;
  for (let attempt = 0; attempt < 120 && !health; attempt++) {
    if (exited) throw new Error('the app exited before its server answered');
    health = /** @type {typeof health} */ (await fetch(HEALTH).then((r) => (r.ok ? r.json() : undefined), () => undefined));
    if (!health) await sleep(1_000);
  }
  if (!health) throw new Error(`${HEALTH} did not answer within 2 minutes`);
  if (health.status !== 'ok' || health.version !== version) throw new Error(`health answered ${JSON.stringify(health)}, expected status ok and version ${version}`);
  console.log(`health: ${JSON.stringify(health)}`);

  await sleep(PAINT_MS);
  const shot = process.platform === 'win32'
    ? spawnSync('powershell', ['-NoProfile', '-Command', [
      'Add-Type -AssemblyName System.Windows.Forms, System.Drawing',
      '$b = [System.Windows.Forms.Screen]::PrimaryScreen.Bounds',
      '$bmp = New-Object System.Drawing.Bitmap $b.Width, $b.Height',
      '[System.Drawing.Graphics]::FromImage($bmp).CopyFromScreen($b.Location, [System.Drawing.Point]::Empty, $b.Size)',
      `$bmp.Save('${screenshot}', [System.Drawing.Imaging.ImageFormat]::Png)`,
    ].join('; ')], { stdio: 'inherit' })
    : spawnSync('import', ['-window', 'root', screenshot], { stdio: 'inherit' });
  if (shot.status !== 0) throw new Error(`the screenshot failed (${shot.error?.message ?? `exit ${shot.status}`})`);
  console.log(`screenshot: ${screenshot}`);
} catch (err) {
  console.error(`check-packaged-app: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  app.kill();
  await sleep(2_000);
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
}
