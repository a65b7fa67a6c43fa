import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { offUpdateStatus, UpdateStatusSchema } from '../shared/api/update-status.js';
import { UpdateSettings } from '../shared/kiosk-config.js';
import { KIOSK_ACTIVITY_CHANNEL, KIOSK_JOURNAL_CHANNELS } from '../main/electron/kiosk-bridge.js';
import { installDecision, type KioskActivity } from '../main/electron/update-rules.js';
import { createUpdateSchedule } from '../main/electron/update-schedule.js';
import { VERSION } from '../main/version.js';
import { api } from './support/api.js';
import { standInApps } from './support/electron-stand-in.js';
import { InstallRecordingUpdater, startUpdateServer, type Release } from './support/update-server.js';

/**
 * Updates of the desktop app: the real electron-updater against a local
 * update server, driven by the schedule with a clock and timers the test steps.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'retail-updates-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function updateServer(release: Release) {
  const server = await startUpdateServer(release);
  cleanups.push(server.close);
  return server;
}

const AFTERNOON = new Date(2026, 10, 24, 14, 0);
const NIGHT = new Date(2026, 10, 24, 3, 15);
const IDLE: KioskActivity = { cartEmpty: true, saleInFlight: false, salesWaiting: 0 };
const SHOPPING: KioskActivity = { cartEmpty: false, saleInFlight: false, salesWaiting: 0 };
const PAYING: KioskActivity = { cartEmpty: false, saleInFlight: true, salesWaiting: 0 };
/**
 * The app reads the PC's own clock: a night hour twelve hours from now keeps
 * its night rule (install over a cart left on screen) out of the tests that
 * start the app, whatever the hour they run at.
 */
const NOT_NIGHT = (new Date().getHours() + 12) % 24;

/** A PC whose update schedule the test drives: `tick()` is a minute of the schedule's timer, `at()` sets the clock. */
function kioskPc(url: string, options: { now?: Date; activity?: KioskActivity; userData?: string } = {}) {
  const settings = UpdateSettings.parse({ url });
  const userData = options.userData ?? tempDir();
  const updater = new InstallRecordingUpdater(settings, userData);
  let now = options.now ?? AFTERNOON;
  let activity = options.activity ?? SHOPPING;
  let timer: (() => void) | undefined;
  const schedule = createUpdateSchedule({
    updater,
    settings,
    currentVersion: '0.1.0',
    clock: { now: () => now },
    activity: () => activity,
    logger: pino({ level: 'silent' }),
    timers: { setInterval: (callback) => ((timer = callback), 1), clearInterval: () => (timer = undefined) },
  });
  cleanups.push(() => schedule.stop());
  return {
    updater,
    schedule,
    status: () => schedule.status(),
    at(date: Date) {
      now = date;
    },
    set(next: KioskActivity) {
      activity = next;
      schedule.activityChanged();
    },
    async tick() {
      timer!();
      await schedule.settled();
    },
    async start() {
      schedule.start();
      await schedule.settled();
    },
  };
}

describe('when a downloaded update installs (pure rule)', () => {
  const cases: [string, KioskActivity, Date, boolean][] = [
    ['idle kiosk, afternoon', IDLE, AFTERNOON, true],
    ['items in the cart, afternoon', SHOPPING, AFTERNOON, false],
    ['items left in the cart at the night hour', SHOPPING, NIGHT, true],
    ['a sale in payment at the night hour', PAYING, NIGHT, false],
    ['a sale in payment with an empty cart', { ...IDLE, saleInFlight: true }, AFTERNOON, false],
    ['paid sales waiting to be recorded, empty cart', { ...IDLE, salesWaiting: 2 }, AFTERNOON, false],
    ['paid sales waiting to be recorded at the night hour', { ...SHOPPING, salesWaiting: 1 }, NIGHT, false],
  ];
  it.each(cases)('%s', (_name, activity, now, install) => {
    expect(installDecision(activity, now, 3).install).toBe(install);
  });
});

describe('the update schedule with electron-updater and a generic update server', () => {
  it('checks at start, downloads and verifies in the background, and installs once the cart is empty', async () => {
    const server = await updateServer({ version: '0.2.0' });
    const pc = kioskPc(server.url);
    await pc.start();

    expect(pc.status()).toEqual({ state: 'waiting', currentVersion: '0.1.0', availableVersion: '0.2.0', lastCheckAt: AFTERNOON.toISOString(), message: null });
    expect(UpdateStatusSchema.parse(pc.status())).toEqual(pc.status());
    expect(server.requests).toEqual(['/latest-linux.yml', '/store-server_0.2.0_amd64.deb']);
    await pc.tick();
    expect(pc.updater.installs).toEqual([]);

    pc.set(IDLE);
    expect(pc.updater.installs).toHaveLength(1);
    const [install] = pc.updater.installs;
    expect(install).toMatchObject({ silent: true, runAfter: true });
    expect(existsSync(install!.file!)).toBe(true);
    expect(pc.status().state).toBe('installing');
  });

  it('never installs during a sale, not even at the night hour; at the night hour a cart left behind does not hold it back', async () => {
    const server = await updateServer({ version: '0.2.0' });
    const pc = kioskPc(server.url, { now: NIGHT, activity: PAYING });
    await pc.start();
    expect(pc.status().state).toBe('waiting');
    await pc.tick();
    pc.set({ ...IDLE, salesWaiting: 1 });
    await pc.tick();
    expect(pc.updater.installs).toEqual([]);

    pc.set(SHOPPING);
    expect(pc.updater.installs).toHaveLength(1);
  });

  it('throws away a download that does not match the sha512 of the update metadata and installs nothing', async () => {
    const server = await updateServer({ version: '0.2.0', damaged: true });
    const pc = kioskPc(server.url, { activity: IDLE });
    await pc.start();

    expect(pc.status()).toMatchObject({ state: 'failed', availableVersion: '0.2.0' });
    expect(pc.status().message).toMatch(/^The downloaded update does not match the checksum in the update metadata and was thrown away; .*sha512 checksum mismatch/);
    await pc.tick();
    expect(pc.updater.installs).toEqual([]);
  });

  it('says when the update server cannot be reached, and asks again at the next regular check', async () => {
    const gone = await startUpdateServer({ version: '0.2.0' });
    await gone.close();
    const pc = kioskPc(gone.url, { activity: IDLE });
    await pc.start();

    expect(pc.status()).toMatchObject({ state: 'failed', availableVersion: null, lastCheckAt: AFTERNOON.toISOString() });
    // GET /update shows the message to anyone: the server's address and the updater's text stay in the log.
    expect(pc.status().message).toBe("The update server could not be asked for updates; the app tries again at the next check. The app's log names the server and the error.");
    pc.at(new Date(AFTERNOON.getTime() + 3_600_000));
    await pc.tick();
    expect(pc.status().lastCheckAt).toBe(AFTERNOON.toISOString());
    const later = new Date(AFTERNOON.getTime() + 4 * 3_600_000);
    pc.at(later);
    await pc.tick();
    expect(pc.status()).toMatchObject({ state: 'failed', lastCheckAt: later.toISOString() });
  });

  it('keeps running when the installer fails, and installs at a later check', async () => {
    const server = await updateServer({ version: '0.2.0' });
    const pc = kioskPc(server.url, { activity: IDLE });
    pc.updater.failInstall = true;
    await pc.start();
    expect(pc.status()).toMatchObject({ state: 'failed', availableVersion: '0.2.0' });
    expect(pc.status().message).toMatch(/^The update could not be installed; the app keeps running this version/);

    pc.updater.failInstall = false;
    pc.at(new Date(AFTERNOON.getTime() + 4 * 3_600_000));
    await pc.tick();
    expect(pc.updater.installs).toHaveLength(1);
    expect(pc.status().state).toBe('installing');
  });

  it('follows electron-updater\'s staged rollout: a PC sees the release once its stage includes it', async () => {
    // electron-updater places each PC by its stored id: this one sits at 25 %.
    const userData = tempDir();
    writeFileSync(join(userData, '.updaterId'), '12345678-1234-4234-8234-000040000000');

    const stage20 = await updateServer({ version: '0.2.0', stagingPercentage: 20 });
    const outside = kioskPc(stage20.url, { activity: IDLE, userData });
    await outside.start();
    expect(outside.status()).toMatchObject({ state: 'idle', availableVersion: null, message: null });
    expect(stage20.requests).toEqual(['/latest-linux.yml']);

    const stage30 = await updateServer({ version: '0.2.0', stagingPercentage: 30 });
    const inside = kioskPc(stage30.url, { activity: IDLE, userData });
    await inside.start();
    expect(inside.status().availableVersion).toBe('0.2.0');
    expect(inside.updater.installs).toHaveLength(1);
  });

  it('finds nothing to do when the server offers the running version', async () => {
    const server = await updateServer({ version: '0.1.0' });
    const pc = kioskPc(server.url, { activity: IDLE });
    await pc.start();
    expect(pc.status()).toMatchObject({ state: 'idle', availableVersion: null });
    expect(pc.updater.installs).toEqual([]);
  });
});

describe('updates in the desktop app (stand-in Electron)', () => {
  const { start: startApp } = standInApps();

  it('does not look for updates without an update server in kiosk.json: the status is off', async () => {
    const { main } = await startApp();
    expect(main.updateStatus()).toEqual(offUpdateStatus(VERSION));
  });

  it('reports why updates are off when kiosk.json cannot be used', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'kiosk.json'), JSON.stringify({ key: 'wk_x', storeId: 's1', update: { url: 'http://updates.example.com/' } }));
    const { main, logLines } = await startApp({ DATA_DIR: dataDir });
    expect(main.updateStatus()).toMatchObject({ state: 'off' });
    expect(main.updateStatus().message).toBe("kiosk.json in the data folder cannot be used, so the app does not look for updates: the app's log says what is wrong.");
    const update = await api(main.server.url).get('/update');
    expect(JSON.stringify(update.body)).not.toContain('wk_x');
    expect(JSON.stringify(update.body)).not.toContain('updates.example.com');
    expect(JSON.stringify((await api(main.server.url).get('/health')).body)).not.toContain('wk_x');
    const warning = logLines.find((l) => l.level === 40);
    expect(warning?.msg).toContain('update.url: must be an https:// address');
  });

  it('refuses an update address with a password in it when kiosk.json is read, and never shows it', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'kiosk.json'), JSON.stringify({ key: 'wk_x', storeId: 's1', update: { url: 'https://kiosk:s3cret-pw@updates.example.com/store/' } }));
    const { main, logLines } = await startApp({ DATA_DIR: dataDir });
    expect(main.updateStatus()).toMatchObject({ state: 'off', message: "kiosk.json in the data folder cannot be used, so the app does not look for updates: the app's log says what is wrong." });
    const update = await api(main.server.url).get('/update');
    expect({ status: update.status, password: JSON.stringify(update.body).includes('s3cret-pw') }).toEqual({ status: 200, password: false });
    const warning = logLines.find((l) => l.level === 40);
    expect(warning?.msg).toContain('update.url: must not hold a user name or password');
    expect(JSON.stringify(logLines)).not.toContain('s3cret-pw');
  });

  it('checks kiosk.json\'s update server at start and installs when the page reports an empty cart', async () => {
    const server = await updateServer({ version: '0.2.0' });
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'kiosk.json'), JSON.stringify({ key: 'wk_x', storeId: 's1', update: { url: server.url, nightHour: NOT_NIGHT } }));
    const updaters: InstallRecordingUpdater[] = [];
    const { main, ipcMain, origin } = await startApp({ DATA_DIR: dataDir }, {
      updaterFor: (settings) => {
        const updater = new InstallRecordingUpdater(settings, tempDir());
        updaters.push(updater);
        return updater;
      },
    });
    await expect.poll(() => main.updateStatus().state, { timeout: 10_000 }).toBe('waiting');
    const report = (url: string, activity: unknown) => ipcMain.emit(KIOSK_ACTIVITY_CHANNEL, { senderFrame: { url, parent: null } }, activity);

    report(`${origin}/`, { cartEmpty: false, saleInFlight: true });
    report('https://elsewhere.example/', { cartEmpty: true, saleInFlight: false });
    report(`${origin}/`, { cartEmpty: 'yes', saleInFlight: false });
    expect(updaters[0]!.installs).toEqual([]);

    report(`${origin}/`, { cartEmpty: true, saleInFlight: false });
    expect(updaters[0]!.installs).toHaveLength(1);
  });

  it('holds a downloaded update back while the sales journal holds a paid sale the server has not stored, and installs once it is stored', async () => {
    const server = await updateServer({ version: '0.2.0' });
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'kiosk.json'), JSON.stringify({ key: 'wk_x', storeId: 's1', update: { url: server.url, nightHour: NOT_NIGHT } }));
    const updaters: InstallRecordingUpdater[] = [];
    const { main, ipcMain, origin } = await startApp({ DATA_DIR: dataDir }, {
      updaterFor: (settings) => {
        const updater = new InstallRecordingUpdater(settings, tempDir());
        updaters.push(updater);
        return updater;
      },
    });
    const page = { url: `${origin}/` };
    const sale = { orderId: 'o-1', paidAt: new Date().toISOString(), sale: { orderId: 'o-1', store: 's1', products: [{ productId: 'p1', quantity: 1, title: 'Brot', price: 380, taxRate: 0.026, deposit: 0 }] } };
    await ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.put, page, sale);
    await expect.poll(() => main.updateStatus().state, { timeout: 10_000 }).toBe('waiting');
    // The page reports an idle screen (a reloaded page before it read its journal): the sale on disk still counts.
    ipcMain.emit(KIOSK_ACTIVITY_CHANNEL, { senderFrame: { ...page, parent: null } }, { cartEmpty: true, saleInFlight: false });
    expect(updaters[0]!.installs).toEqual([]);

    await ipcMain.invoke(KIOSK_JOURNAL_CHANNELS.put, page, { ...sale, storedId: 'order-1' });
    expect(updaters[0]!.installs).toHaveLength(1);
  });
});
