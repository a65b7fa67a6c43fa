// @ts-check
// First step of `npm test`: makes sure the browser the kiosk tests drive,
// strace (which the WAL flush test reads the server's system calls with),
// xmllint (payout files against their schema) and pdftotext (statements) are
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

/**
 * Debian's packages the tests run besides the browser: each with the command
 * that proves it is there, and which tests need it for what.
 * @type {{ pkg: string, present: () => boolean, who: string, what: string }[]}
 */
const TOOLS = [
  { pkg: 'strace', present: () => succeeds('strace', ['-V']), who: 'the WAL flush test', what: 'strace' },
  { pkg: 'libxml2-utils', present: () => succeeds('xmllint', ['--version']), who: 'the payout file tests', what: 'xmllint' },
  { pkg: 'poppler-utils', present: () => succeeds('pdftotext', ['-v']), who: 'the statement tests', what: 'pdftotext' },
];
const missingTools = process.platform === 'linux' ? TOOLS.filter((tool) => !tool.present()) : [];
const missing = [...(isExecutable(chromium) ? [] : ['chromium']), ...missingTools.map((tool) => tool.pkg)];

/** What is missing and how to get it, in one line: "the kiosk tests need Chromium at … and the WAL flush test strace: run …". */
function whatToInstall() {
  const needs = [...(missing.includes('chromium') ? [{ who: 'the kiosk tests', what: `Chromium at ${chromium}` }] : []), ...missingTools];
  const said = needs.map(({ who, what }, i) => (i > 0 ? `${who} ${what}` : `${who} ${who.endsWith('tests') ? 'need' : 'needs'} ${what}`));
  const orChrome = missing.includes('chromium') ? ` (or set CHROMIUM_PATH to a Chromium or Chrome${needs.length > 1 ? ' for the first' : ''})` : '';
  return `${said.join(' and ')}: run \`sudo apt-get install ${missing.join(' ')}\`${orChrome}, then npm test again.`;
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
  for (const tool of missingTools) if (!tool.present()) stop(`apt-get installed ${tool.pkg}, but it still does not run; install ${tool.pkg}, then run npm test again.`);
}
