import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { runProcess } from './support/processes.js';

/**
 * `npm test`'s first step, run as a child process on a machine made of a
 * PATH of small programs standing in for `id`, `sudo` and `apt-get`, so each
 * case (root, passwordless sudo, neither) is what the script sees.
 */

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Machine {
  uid: number;
  sudo: 'none' | 'passwordless' | 'asks-password';
  chromiumPresent: boolean;
  /** Whether strace (which the WAL flush test reads the server with) is installed; it is unless said. */
  stracePresent?: boolean;
  /** Whether xmllint and pdftotext (payout files, statements) are installed; they are unless said. */
  documentToolsPresent?: boolean;
}

function machine({ uid, sudo, chromiumPresent, stracePresent = true, documentToolsPresent = true }: Machine) {
  const dir = mkdtempSync(join(tmpdir(), 'retail-tools-'));
  folders.push(dir);
  const bin = join(dir, 'bin');
  const chromium = join(dir, 'chromium');
  const log = join(dir, 'commands.log');
  const program = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  mkdirSync(bin);
  program('id', `echo ${uid}`);
  if (sudo === 'passwordless') program('sudo', `[ "$1" = -n ] && shift; echo "sudo $*" >> '${log}'; "$@"`);
  if (sudo === 'asks-password') program('sudo', `echo 'sudo: a password is required' >&2; exit 1`);
  // apt-get "installs" chromium by creating the browser the tests look for, and strace as a program that answers -V.
  program('apt-get', [
    `[ "$1" = --version ] && { echo 'apt 2.6.1'; exit 0; }`,
    `echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> '${log}'`,
    `[ "$1" = install ] && case " $* " in *" chromium "*) printf '#!/bin/sh\\n' > '${chromium}'; /bin/chmod 755 '${chromium}';; esac`,
    `[ "$1" = install ] && case " $* " in *" libxml2-utils "*) printf '#!/bin/sh\\nexit 0\\n' > '${join(bin, 'xmllint')}'; /bin/chmod 755 '${join(bin, 'xmllint')}';; esac`,
    `[ "$1" = install ] && case " $* " in *" poppler-utils "*) printf '#!/bin/sh\\nexit 0\\n' > '${join(bin, 'pdftotext')}'; /bin/chmod 755 '${join(bin, 'pdftotext')}';; esac`,
    `[ "$1" = install ] && case " $* " in *" strace "*) printf '#!/bin/sh\\nexit 0\\n' > '${join(bin, 'strace')}'; /bin/chmod 755 '${join(bin, 'strace')}';; esac`,
    'exit 0',
  ].join('\n'));
  if (stracePresent) program('strace', 'exit 0');
  if (documentToolsPresent) program('xmllint', 'exit 0');
  if (documentToolsPresent) program('pdftotext', 'exit 0');
  if (chromiumPresent) writeFileSync(chromium, '#!/bin/sh\n', { mode: 0o755 });
  return {
    run: () => runProcess(process.execPath, [join(PROJECT_ROOT, 'scripts/ensure-test-tools.mjs')], { env: { PATH: bin, CHROMIUM_PATH: chromium } }),
    commands: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []),
    chromium,
  };
}

describe('scripts/ensure-test-tools.mjs (first step of npm test)', () => {
  it('stops at once with one line saying what to install when Chromium is missing and nothing may be installed', async () => {
    const pc = machine({ uid: 1000, sudo: 'asks-password', chromiumPresent: false });
    const result = await pc.run();
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`npm test: the kiosk tests need Chromium at ${pc.chromium}: run \`sudo apt-get install chromium\` (or set CHROMIUM_PATH to a Chromium or Chrome), then npm test again.\n`);
    expect(pc.commands()).toEqual([]);
  });

  it('stops the same way without sudo at all', async () => {
    const pc = machine({ uid: 1000, sudo: 'none', chromiumPresent: false });
    const result = await pc.run();
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('sudo apt-get install chromium');
    expect(pc.commands()).toEqual([]);
  });

  it('installs Debian\'s chromium with apt-get as root, without questions, then lets the tests run', async () => {
    const pc = machine({ uid: 0, sudo: 'none', chromiumPresent: false });
    const result = await pc.run();
    expect(result.status, result.stderr).toBe(0);
    expect(pc.commands()).toEqual(['apt-get update DEBIAN_FRONTEND=noninteractive', 'apt-get install -y chromium DEBIAN_FRONTEND=noninteractive']);
    expect(existsSync(pc.chromium)).toBe(true);
  });

  it('installs through sudo when sudo needs no password', async () => {
    const pc = machine({ uid: 1000, sudo: 'passwordless', chromiumPresent: false });
    const result = await pc.run();
    expect(result.status, result.stderr).toBe(0);
    expect(pc.commands()).toEqual([
      'sudo true',
      'sudo apt-get update',
      'apt-get update DEBIAN_FRONTEND=noninteractive',
      'sudo apt-get install -y chromium',
      'apt-get install -y chromium DEBIAN_FRONTEND=noninteractive',
    ]);
  });

  it('installs strace alone when only strace is missing', async () => {
    const pc = machine({ uid: 0, sudo: 'none', chromiumPresent: true, stracePresent: false });
    const result = await pc.run();
    expect(result.status, result.stderr).toBe(0);
    expect(pc.commands()).toEqual(['apt-get update DEBIAN_FRONTEND=noninteractive', 'apt-get install -y strace DEBIAN_FRONTEND=noninteractive']);
  });

  it('installs both in one apt-get when both are missing, and says both in one line when it may not', async () => {
    const root = machine({ uid: 0, sudo: 'none', chromiumPresent: false, stracePresent: false });
    expect((await root.run()).status).toBe(0);
    expect(root.commands()).toEqual(['apt-get update DEBIAN_FRONTEND=noninteractive', 'apt-get install -y chromium strace DEBIAN_FRONTEND=noninteractive']);
    const user = machine({ uid: 1000, sudo: 'none', chromiumPresent: false, stracePresent: false });
    const result = await user.run();
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('sudo apt-get install chromium strace');
    expect(user.commands()).toEqual([]);
  });

  it('installs xmllint and pdftotext for the payout file and statement tests, and names them when it may not', async () => {
    const root = machine({ uid: 0, sudo: 'none', chromiumPresent: true, documentToolsPresent: false });
    expect((await root.run()).status).toBe(0);
    expect(root.commands()).toEqual(['apt-get update DEBIAN_FRONTEND=noninteractive', 'apt-get install -y libxml2-utils poppler-utils DEBIAN_FRONTEND=noninteractive']);
    const user = machine({ uid: 1000, sudo: 'none', chromiumPresent: true, documentToolsPresent: false });
    const result = await user.run();
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('npm test: the payout file tests need xmllint and the statement tests pdftotext: run `sudo apt-get install libxml2-utils poppler-utils`, then npm test again.\n');
  });

  it('proceeds silently, installing nothing, when Chromium is there', async () => {
    const pc = machine({ uid: 1000, sudo: 'none', chromiumPresent: true });
    const result = await pc.run();
    expect(result).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(pc.commands()).toEqual([]);
  });
});
