// @ts-check
// First step of `npm test`: makes sure the browser the kiosk tests drive and
// strace (which the WAL flush test reads the server's system calls with) are
// there, installing Debian's packages where this user may install them, and
// otherwise stops before any test runs with one line saying what to do.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** Debian's Chromium; `CHROMIUM_PATH` points the kiosk tests at another Chromium or Chrome (a CI runner's own). */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const chromium = process.env.CHROMIUM_PATH || DEBIAN_CHROMIUM;

/** @param {string} file */
function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** @param {string} command @param {string[]} args */
function succeeds(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return result.error === undefined && result.status === 0;
}

/** @param {string} command @param {string[]} args */
function commandOutput(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return result.error === undefined && result.status === 0 ? result.stdout.trim() : undefined;
}

/** @param {string} message @returns {never} */
function stop(message) {
  console.error(`npm test: ${message}`);
  process.exit(1);
}

/**
 * How this user may run apt-get: directly as root, through sudo without a
 * password prompt (a test run must never wait for one), or not at all.
 * @returns {string[] | undefined} the command prefix, or undefined
 */
function packageInstaller() {
  if (process.platform !== 'linux' || !succeeds('apt-get', ['--version'])) return undefined;
  if (commandOutput('id', ['-u']) === '0') return [];
  if (succeeds('sudo', ['-n', 'true'])) return ['sudo', '-n'];
  return undefined;
}

/** @param {string[]} prefix @param {string[]} packages */
function install(prefix, packages) {
  console.error(`npm test: installing Debian's ${packages.join(' and ')} for the tests`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['apt-get', 'update'], ['apt-get', 'install', '-y', ...packages]]) {
    const [command, ...rest] = [...prefix, ...args];
    const result = spawnSync(/** @type {string} */ (command), rest, { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (result.error !== undefined || result.status !== 0) {
      stop(`\`${args.join(' ')}\` failed; install them yourself (\`sudo apt-get install ${packages.join(' ')}\`), then run npm test again.`);
    }
  }
}

const missing = [
  ...(isExecutable(chromium) ? [] : ['chromium']),
  ...(process.platform === 'linux' && !succeeds('strace', ['-V']) ? ['strace'] : []),
];
/** What is missing and how to get it, in one line. */
function whatToInstall() {
  const chromiumNeed = `Chromium at ${chromium}`;
  if (!missing.includes('strace')) {
    return `the kiosk tests need ${chromiumNeed}: run \`sudo apt-get install chromium\` (or set CHROMIUM_PATH to a Chromium or Chrome), then npm test again.`;
  }
  if (!missing.includes('chromium')) return 'the WAL flush test needs strace: run `sudo apt-get install strace`, then npm test again.';
  return `the kiosk tests need ${chromiumNeed} and the WAL flush test strace: run \`sudo apt-get install chromium strace\` (or set CHROMIUM_PATH to a Chromium or Chrome for the first), then npm test again.`;
}

if (missing.length > 0) {
  const prefix = packageInstaller();
  if (prefix === undefined) {
    stop(process.platform === 'linux'
      ? whatToInstall()
      : `the kiosk tests need Chromium or Chrome: set CHROMIUM_PATH to its executable, then run npm test again.`);
  }
  install(prefix, missing);
  if (!isExecutable(chromium)) stop(`apt-get installed chromium, but there is still no browser at ${chromium}; install it there or set CHROMIUM_PATH to a Chromium or Chrome, then run npm test again.`);
  if (process.platform === 'linux' && !succeeds('strace', ['-V'])) stop('apt-get installed strace, but `strace -V` still fails; install strace, then run npm test again.');
}
