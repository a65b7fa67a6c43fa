import Database from 'better-sqlite3';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAFF_EXIT_KEYS } from '../main/electron/kiosk-behaviour.js';
import { setupApp } from '../main/electron/main-process.js';
import { cancellable, standInApps, standInContext, standInElectron } from './support/electron-stand-in.js';

const { start: startApp, tempDir, forget } = standInApps();

const key = (key: string, mods: { control?: boolean; alt?: boolean; shift?: boolean }) =>
  ({ type: 'keyDown', key, control: false, alt: false, shift: false, ...mods });

describe('kiosk behaviour', () => {
  it('KIOSK_MODE=1 opens full screen without menu or developer tools and keeps the display on; without it none of this', async () => {
    const kiosk = await startApp({ KIOSK_MODE: '1' });
    expect(kiosk.window.options).toMatchObject({ kiosk: true, fullscreen: true, webPreferences: { devTools: false } });
    expect(kiosk.menu.applicationMenu).toBeNull();
    expect([...kiosk.powerSaveBlocker.active.values()]).toEqual(['prevent-display-sleep']);
    const desk = await startApp();
    expect(desk.window.options).toMatchObject({ kiosk: false, fullscreen: false, webPreferences: { devTools: true } });
    expect(desk.menu.applicationMenu).toBe('default');
    expect(desk.powerSaveBlocker.active.size).toBe(0);
  });

  it('--kiosk on the command line is the same as KIOSK_MODE=1', async () => {
    const { window, powerSaveBlocker } = await startApp({}, { argv: ['store-server', '--kiosk'] });
    expect(window.options).toMatchObject({ kiosk: true, fullscreen: true });
    expect(powerSaveBlocker.active.size).toBe(1);
  });

  it('reloads a page whose renderer is gone or hangs, and leaves a clean exit alone', async () => {
    const { window, logLines } = await startApp();
    window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    expect(window.reloads).toBe(1);
    window.webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(window.reloads).toBe(1);
    window.destroyed = true;
    window.webContents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 });
    expect(window.reloads).toBe(1);
    window.destroyed = false;
    window.webContents.emit('unresponsive');
    expect(window.crashes).toBe(1);
    expect(window.reloads).toBe(2);
    expect(logLines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      'the kiosk page stopped; loading it again',
      'the kiosk page does not respond; restarting it',
    ]);
  });

  it(`lets staff quit with ${STAFF_EXIT_KEYS} and no other key`, async () => {
    const { window, app } = await startApp({ KIOSK_MODE: '1' });
    for (const input of [key('q', { control: true, alt: true }), key('Q', { control: true, shift: true }), key('w', { control: true, alt: true, shift: true })]) {
      const event = cancellable();
      window.webContents.emit('before-input-event', event, input);
      expect(event.prevented).toBe(false);
    }
    expect(app.quitCalls).toBe(0);
    const exit = cancellable();
    window.webContents.emit('before-input-event', exit, key('Q', { control: true, alt: true, shift: true }));
    expect(exit.prevented).toBe(true);
    expect(app.quitCalls).toBe(1);
  });

  it('a packaged kiosk starts at login: an autostart entry on Linux', async () => {
    const configHome = tempDir();
    await startApp({ XDG_CONFIG_HOME: configHome, APPIMAGE: '/opt/Store "Server".AppImage' }, { isPackaged: true, argv: ['store-server', '--kiosk'] });
    expect(readFileSync(join(configHome, 'autostart', 'store-server.desktop'), 'utf8')).toBe(
      '[Desktop Entry]\nType=Application\nName=Store Server\nExec="/opt/Store \\"Server\\".AppImage" --kiosk\n' +
        'X-GNOME-Autostart-enabled=true\nNoDisplay=true\n',
    );
  });

  it('a kiosk whose autostart entry cannot be written still runs, and says so in the log', async () => {
    const configHome = join(tempDir(), 'not-a-folder');
    writeFileSync(configHome, '');
    const { main, app, logLines } = await startApp({ KIOSK_MODE: '1', XDG_CONFIG_HOME: configHome }, { isPackaged: true });
    expect((await fetch(`${main.server.url}/health`)).status).toBe(200);
    expect(app.exitCodes).toEqual([]);
    expect(logLines).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringContaining('start at login') }));
  });

  it('a packaged kiosk starts at login: a login item on Windows; a development run registers nothing', async () => {
    const windows = await startApp({ KIOSK_MODE: '1' }, { isPackaged: true, platform: 'win32' });
    expect(windows.app.loginItems).toEqual([{ openAtLogin: true, path: '/opt/Store Server/store-server', args: ['--kiosk'] }]);
    const configHome = tempDir();
    const dev = await startApp({ KIOSK_MODE: '1', XDG_CONFIG_HOME: configHome });
    expect(dev.app.loginItems).toEqual([]);
    expect(readdirSync(configHome)).toEqual([]);
  });
});

describe('graceful shutdown', () => {
  it('holds the quit until the display may sleep, the server is closed and the WAL is checkpointed', async () => {
    const { main, app, powerSaveBlocker, window } = await startApp({ KIOSK_MODE: '1' });
    const credentials = JSON.parse(readFileSync(main.server.credentialsFile!, 'utf8'));
    const created = await fetch(`${main.server.url}/products`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${credentials.writeKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Brot', price: 350, taxCategory: '2.6' }),
    });
    expect(created.status).toBe(200);
    // A second connection (as the CLI holds one) keeps SQLite from removing the WAL on close: only a checkpoint empties it.
    const file = join(main.config.dataDir, 'retail.sqlite');
    const other = new Database(file, { readonly: true });
    try {
      expect(other.prepare('SELECT count(*) AS n FROM products').get()).toEqual({ n: 1 });
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
      app.quit();
      expect(app.quitted).toBe(false);
      await expect.poll(() => app.quitted).toBe(true);
      expect(app.quitCalls).toBe(2);
      expect(powerSaveBlocker.active.size).toBe(0);
      await expect(fetch(`${main.server.url}/health`)).rejects.toThrow();
      expect(statSync(`${file}-wal`).size).toBe(0);
      expect(other.prepare('SELECT count(*) AS n FROM products').get()).toEqual({ n: 1 });
      expect(window.reloads).toBe(0);
    } finally {
      other.close();
      forget(main);
    }
  });
});

describe('administration CLI through the app (store-server --cli)', () => {
  async function cli(dataDir: string, args: string[]) {
    const electron = standInElectron(tempDir());
    const run = standInContext({ DATA_DIR: dataDir }, ['store-server', '--cli', ...args]);
    expect(await setupApp(electron.module, run.context)).toBeUndefined();
    expect(electron.windows).toHaveLength(0);
    expect(electron.app.lockRequests).toBe(0);
    return { code: electron.app.exitCodes, stdout: run.stdout(), stderr: run.stderr() };
  }

  it('runs a command on the app\'s data folder, prints to the terminal and exits with its code', async () => {
    const dataDir = tempDir();
    const org = await cli(dataDir, ['org', 'create', '--name', 'Filiale', '--json']);
    expect(org.code).toEqual([0]);
    const { id } = JSON.parse(org.stdout);
    const created = await cli(dataDir, ['key', 'create', id, '--kind', 'write', '--json']);
    expect(created.code).toEqual([0]);
    expect(JSON.parse(created.stdout)).toEqual({ id: expect.any(String), kind: 'write', key: expect.stringMatching(/^wk_/) });
    const listed = await cli(dataDir, ['key', 'list', id]);
    expect(listed.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('names the installed program in its usage, and exits 2 on a mistake', async () => {
    const help = await cli(tempDir(), ['--help']);
    expect(help.code).toEqual([0]);
    expect(help.stdout).toContain('Usage: store-server --cli <command> [options] [--json]');
    const wrong = await cli(tempDir(), ['org', 'frobnicate']);
    expect(wrong.code).toEqual([2]);
    expect(wrong.stderr).toContain('Unknown command: org frobnicate');
  });
});
