// @ts-check
// `npm run dist [-- <electron-builder options>]` on a release machine with network
// access: builds the installers for this platform (docs/desktop.md).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.env.npm_execpath;

/** @param {string[]} args */
const node = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

// electron-builder downloads Electron 45 and its headers, rebuilds better-sqlite3
// for Electron's ABI in node_modules (sharp's Node-API binaries need no rebuild),
// packs, flips the fuses and makes the installers.
const status = node([join(root, 'node_modules/electron-builder/cli.js'), '--config', 'electron-builder.yml', '--publish', 'never', ...process.argv.slice(2)]);

// The rebuild left better-sqlite3 built for Electron; npm start, the CLI and the tests need it built for Node.
const restored = npm ? node([npm, 'rebuild', 'better-sqlite3']) : 1;
if (restored !== 0) console.error('Run `npm rebuild better-sqlite3` before using npm start or npm test again.');
process.exit(status || restored);
