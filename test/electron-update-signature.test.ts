import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { UpdateSettings } from '../shared/kiosk-config.js';
import { createUpdateSchedule } from '../main/electron/update-schedule.js';
import { UPDATE_SIGNING_PUBLIC_KEY } from '../main/electron/update-public-key.js';
import { signedUpdates } from '../main/electron/update-signature.js';
import { PROJECT_ROOT } from '../main/version.js';
import { runProcess } from './support/processes.js';
import { InstallRecordingUpdater, startUpdateServer } from './support/update-server.js';

/**
 * Linux updates install only with the release key's signature: the real
 * electron-updater downloads from a local update server, the file is signed
 * by packaging/sign-update.mjs with a key pair made here, and the app's check
 * runs before the schedule may install.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'retail-signature-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A release key pair as `sign-update.mjs keygen` makes it. */
async function releaseKey() {
  const dir = tempDir();
  const privateKey = join(dir, 'update-signing-key.pem');
  const keygen = await runProcess(process.execPath, [join(PROJECT_ROOT, 'packaging/sign-update.mjs'), 'keygen', privateKey]);
  expect(keygen.status, keygen.stderr).toBe(0);
  return { privateKey: readFileSync(privateKey, 'utf8'), publicKey: keygen.stdout };
}

/** `<file>.sig` as the release workflow makes it with the private key from its secret, for release `version`. */
async function signed(bytes: Buffer, privateKey: string, version = '0.2.0'): Promise<string> {
  const file = join(tempDir(), `store-server_${version}_amd64.deb`);
  writeFileSync(file, bytes);
  const sign = await runProcess(process.execPath, [join(PROJECT_ROOT, 'packaging/sign-update.mjs'), 'sign', '--version', version, file], {
    env: { UPDATE_SIGNING_KEY: privateKey },
  });
  expect(sign.status, sign.stderr).toBe(0);
  return readFileSync(`${file}.sig`, 'utf8');
}

async function kioskPc(release: { installer: Buffer; signature?: string; version?: string }, publicKey: string, options: { allowDowngrade?: boolean } = {}) {
  const server = await startUpdateServer({ version: '0.2.0', ...release });
  cleanups.push(server.close);
  const settings = UpdateSettings.parse({ url: server.url });
  const updater = new InstallRecordingUpdater(settings, tempDir());
  updater.allowDowngrade = options.allowDowngrade ?? false;
  const logLines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  const downloaded: string[] = [];
  updater.on('update-downloaded', (event: { downloadedFile: string }) => downloaded.push(event.downloadedFile));
  const schedule = createUpdateSchedule({
    updater: signedUpdates(updater, { settings, currentVersion: '0.1.0', publicKey, logger }),
    settings,
    currentVersion: '0.1.0',
    clock: { now: () => new Date(2026, 10, 24, 14, 0) },
    activity: () => ({ cartEmpty: true, saleInFlight: false, salesWaiting: 0 }),
    logger,
    timers: { setInterval: () => 1, clearInterval: () => {} },
  });
  schedule.start();
  await schedule.settled();
  return { server, updater, schedule, logLines, downloaded };
}

describe('signed Linux updates', () => {
  it('installs a file whose signature matches the pinned key', async () => {
    const key = await releaseKey();
    const installer = randomBytes(64 * 1024);
    const pc = await kioskPc({ installer, signature: await signed(installer, key.privateKey) }, key.publicKey);
    expect(pc.server.requests).toEqual(['/latest-linux.yml', '/store-server_0.2.0_amd64.deb', '/store-server_0.2.0_amd64.deb.sig']);
    expect(pc.schedule.status()).toMatchObject({ state: 'installing', availableVersion: '0.2.0' });
    expect(pc.updater.installs).toHaveLength(1);
    expect(existsSync(pc.updater.installs[0]!.file!)).toBe(true);
  });

  it('refuses, deletes and logs a tampered file (its metadata rewritten to match), and this version keeps running', async () => {
    const key = await releaseKey();
    const released = randomBytes(64 * 1024);
    const tampered = Buffer.concat([released.subarray(0, 1000), Buffer.from('#!/bin/sh\nrm -rf ~\n'), released.subarray(1019)]);
    const pc = await kioskPc({ installer: tampered, signature: await signed(released, key.privateKey) }, key.publicKey);
    expect(pc.schedule.status()).toMatchObject({ state: 'failed', availableVersion: '0.2.0' });
    expect(pc.schedule.status().message).toContain('does not match the release key');
    expect(pc.schedule.status().message).toContain('This version keeps running');
    expect(pc.updater.installs).toEqual([]);
    expect(pc.downloaded).toHaveLength(1);
    expect(existsSync(pc.downloaded[0]!)).toBe(false);
    expect(pc.logLines).toContainEqual(expect.objectContaining({ level: 50, msg: expect.stringContaining('refused the downloaded update') }));
  });

  it('refuses a file without a signature, and one signed with another key', async () => {
    const key = await releaseKey();
    const installer = randomBytes(64 * 1024);
    const unsigned = await kioskPc({ installer }, key.publicKey);
    expect(unsigned.schedule.status()).toMatchObject({ state: 'failed' });
    expect(unsigned.schedule.status().message).toContain('no signature was found next to it');
    expect(unsigned.updater.installs).toEqual([]);

    const stranger = await releaseKey();
    const foreign = await kioskPc({ installer, signature: await signed(installer, stranger.privateKey) }, key.publicKey);
    expect(foreign.schedule.status().message).toContain('does not match the release key');
    expect(foreign.updater.installs).toEqual([]);
  });

  it('refuses an older signed build offered as a newer version: the signature covers the version', async () => {
    const key = await releaseKey();
    const oldBuild = randomBytes(64 * 1024);
    // The update folder's owner puts last year's signed build under this year's version in latest-linux.yml.
    const pc = await kioskPc({ installer: oldBuild, signature: await signed(oldBuild, key.privateKey, '0.0.9'), version: '0.2.0' }, key.publicKey);
    expect(pc.schedule.status()).toMatchObject({ state: 'failed', availableVersion: '0.2.0' });
    expect(pc.schedule.status().message).toContain('its signature does not match the release key for version 0.2.0');
    expect(pc.updater.installs).toEqual([]);
  });

  it('refuses a version older than the running one, even with its own valid signature', async () => {
    const key = await releaseKey();
    const oldBuild = randomBytes(64 * 1024);
    // An updater set to allow downgrades (or one that would not check) still gets no older version past the app.
    const pc = await kioskPc({ installer: oldBuild, signature: await signed(oldBuild, key.privateKey, '0.0.9'), version: '0.0.9' }, key.publicKey, { allowDowngrade: true });
    expect(pc.schedule.status()).toMatchObject({ state: 'failed' });
    expect(pc.schedule.status().message).toContain('The update server offers version 0.0.9, older than the running 0.1.0: it is refused');
    expect(pc.updater.installs).toEqual([]);
    expect(pc.server.requests).toEqual(['/latest-linux.yml']);
  });

  it('the app pins an Ed25519 public key, and sign-update.mjs verify checks against it', async () => {
    const key = await releaseKey();
    const file = join(tempDir(), 'store-server-0.2.0-x86_64.AppImage');
    writeFileSync(file, randomBytes(1024));
    const signing = await runProcess(process.execPath, [join(PROJECT_ROOT, 'packaging/sign-update.mjs'), 'sign', file], { env: { UPDATE_SIGNING_KEY: key.privateKey } });
    expect(signing.status).toBe(0);
    const pinned = await runProcess(process.execPath, [join(PROJECT_ROOT, 'packaging/sign-update.mjs'), 'verify', file]);
    expect(pinned.status).toBe(1);
    expect(pinned.stdout).toContain('does NOT match the release key pinned in the app');
    const publicKeyFile = join(tempDir(), 'public.pem');
    writeFileSync(publicKeyFile, key.publicKey);
    expect((await runProcess(process.execPath, [join(PROJECT_ROOT, 'packaging/sign-update.mjs'), 'verify', '--public-key', publicKeyFile, file])).status).toBe(0);
    expect(UPDATE_SIGNING_PUBLIC_KEY).toMatch(/^-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA/);
  });
});
