import Database from 'better-sqlite3';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAFF_EXIT_KEYS } from '../main/electron/kiosk-behaviour.js';
import { setupApp } from '../main/electron/main-process.js';
import { runCli } from './support/cli.js';
import { cancellable, standInApps, standInContext, standInElectron } from './support/electron-stand-in.js';

const { start: startApp, tempDir, forget } = standInApps();

const key = (key: string, mods: { control?: boolean; alt?: boolean; shift?: boolean }) =>
  ({ type: 'keyDown', key, control: false, alt: false, shift: false, ...mods });

/** The administration CLI as the installed app runs it (`store-server --cli …`), in this process. */
async function appCli(dataDir: string, args: string[]) {
  const electron = standInElectron(tempDir());
  const run = standInContext({ DATA_DIR: dataDir }, ['store-server', '--cli', ...args]);
  await setupApp(electron.module, run.context);
  return { code: electron.app.exitCodes, stdout: run.stdout(), stderr: run.stderr() };
}

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

  it(`outside kiosk mode ${STAFF_EXIT_KEYS} quits at once, and no other key does`, async () => {
    const { window, app } = await startApp();
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

  it('comes back in kiosk mode after a restart without the switch, as the updater restarts it', async () => {
    const dataDir = tempDir();
    const first = await startApp({ DATA_DIR: dataDir }, { argv: ['store-server', '--kiosk'] });
    expect(JSON.parse(readFileSync(join(dataDir, 'kiosk.json'), 'utf8'))).toEqual({ kiosk: true });
    await first.main.server.close();
    forget(first.main);
    // electron-updater starts the new version with no arguments (AppImage, deb and NSIS alike).
    const updated = await startApp({ DATA_DIR: dataDir }, { argv: ['store-server'] });
    expect(updated.window.options).toMatchObject({ kiosk: true, fullscreen: true, webPreferences: { devTools: false } });
    expect(updated.menu.applicationMenu).toBeNull();
    expect(updated.powerSaveBlocker.active.size).toBe(1);
  });

  it('keeps the rest of kiosk.json when the switch turns kiosk mode on, and `kiosk mode off` turns it off for the next start', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'kiosk.json'), JSON.stringify({ storeId: 'store-1', key: 'rk_x', printer: { type: 'system' } }));
    const first = await startApp({ DATA_DIR: dataDir, KIOSK_MODE: '1' }, { keyStore: { available: false } });
    expect(JSON.parse(readFileSync(join(dataDir, 'kiosk.json'), 'utf8'))).toEqual({ storeId: 'store-1', key: 'rk_x', printer: { type: 'system' }, kiosk: true });
    await first.main.server.close();
    forget(first.main);
    const off = await appCli(dataDir, ['kiosk', 'mode', 'off', '--json']);
    expect(JSON.parse(off.stdout)).toEqual({ kiosk: false, file: join(dataDir, 'kiosk.json') });
    const desk = await startApp({ DATA_DIR: dataDir }, { keyStore: { available: false } });
    expect(desk.window.options).toMatchObject({ kiosk: false, webPreferences: { devTools: true } });
  });

  it('blocks reload, developer tools, zoom, print and navigation keys in kiosk mode, and leaves typing alone', async () => {
    const { window } = await startApp({ KIOSK_MODE: '1' });
    const press = (input: ReturnType<typeof key>) => {
      const event = cancellable();
      window.webContents.emit('before-input-event', event, input);
      return event.prevented;
    };
    const blocked = [
      key('r', { control: true }),
      key('R', { control: true, shift: true }),
      key('F5', {}),
      key('F5', { control: true }),
      key('I', { control: true, shift: true }),
      key('J', { control: true, shift: true }),
      key('F12', {}),
      key('F11', {}),
      key('+', { control: true }),
      key('0', { control: true }),
      key('p', { control: true }),
      key('w', { control: true }),
      key('ArrowLeft', { alt: true }),
      key('BrowserBack', {}),
      { ...key('r', {}), meta: true },
    ];
    for (const input of blocked) expect(press(input), JSON.stringify(input)).toBe(true);
    // Typing, editing a search, a scanner's digits and Enter, and AltGr (Ctrl+Alt) for @ and €.
    const allowed = [key('r', {}), key('R', { shift: true }), key('4', {}), key('Enter', {}), key('Backspace', {}), key('v', { control: true }), key('a', { control: true }), key('@', { control: true, alt: true }), key('€', { control: true, alt: true })];
    for (const input of allowed) expect(press(input), JSON.stringify(input)).toBe(false);

    const desk = await startApp();
    const event = cancellable();
    desk.window.webContents.emit('before-input-event', event, key('r', { control: true }));
    expect(event.prevented).toBe(false);
  });
});

describe(`leaving kiosk mode: ${STAFF_EXIT_KEYS} and the staff PIN`, () => {
  const exitKeys = () => key('Q', { control: true, alt: true, shift: true });
  const type = (contents: NodeJS.EventEmitter, text: string) => {
    for (const k of text === '' ? [] : text.split('')) contents.emit('before-input-event', cancellable(), key(k, {}));
  };

  async function kioskWithPin(pin: string | undefined) {
    const dataDir = tempDir();
    if (pin !== undefined) expect((await appCli(dataDir, ['kiosk', 'pin', 'set', '--pin', pin])).code).toEqual([0]);
    return startApp({ DATA_DIR: dataDir }, { argv: ['store-server', '--kiosk'] });
  }

  it('the CLI keeps the PIN, read from standard input, as a salted scrypt hash in kiosk.json, readable by its owner only', async () => {
    const dataDir = tempDir();
    const set = await runCli(dataDir, ['kiosk', 'pin', 'set', '--json'], {}, '4711\n');
    expect(set.status, set.stderr).toBe(0);
    expect(set.json).toEqual({ staffPin: 'set', file: join(dataDir, 'kiosk.json') });
    const file = join(dataDir, 'kiosk.json');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('4711');
    expect(JSON.parse(text).staffPin).toEqual({ scheme: 'scrypt', N: 16384, r: 8, p: 1, salt: expect.any(String), hash: expect.any(String) });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await appCli(dataDir, ['kiosk', 'pin', 'set', '--pin', '4711'])).code).toEqual([0]);
    expect(JSON.parse(readFileSync(file, 'utf8')).staffPin.salt).not.toBe(JSON.parse(text).staffPin.salt);
    const tooShort = await appCli(dataDir, ['kiosk', 'pin', 'set', '--pin', '12', '--json']);
    expect(tooShort.code).toEqual([2]);
    expect(JSON.parse(tooShort.stdout)).toEqual({ error: expect.stringContaining('4 to 12 digits') });
    expect((await appCli(dataDir, ['kiosk', 'pin', 'clear'])).code).toEqual([0]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
  });

  it('asks for the PIN and quits once it is right; the digits never reach the kiosk page', async () => {
    const { window, windows, app, logLines } = await kioskWithPin('4711');
    const exit = cancellable();
    window.webContents.emit('before-input-event', exit, exitKeys());
    expect(exit.prevented).toBe(true);
    expect(app.quitCalls).toBe(0);
    const prompt = windows[1]!;
    expect(prompt.options).toMatchObject({ modal: true, parent: window, webPreferences: { javascript: false, devTools: false } });
    expect(decodeURIComponent(prompt.loaded!)).toContain('Staff PIN');

    const digit = cancellable();
    window.webContents.emit('before-input-event', digit, key('4', {}));
    expect(digit.prevented).toBe(true);
    type(prompt.webContents, '711');
    expect(decodeURIComponent(prompt.loaded!).match(/&#9679;/g)).toHaveLength(4);
    prompt.webContents.emit('before-input-event', cancellable(), key('Enter', {}));
    expect(app.quitCalls).toBe(1);
    expect(prompt.destroyed).toBe(true);
    expect(logLines).toContainEqual(expect.objectContaining({ level: 30, msg: 'staff left kiosk mode with the PIN' }));
    expect(JSON.stringify(logLines)).not.toContain('4711');
  });

  it('a wrong PIN does not quit; Escape closes the prompt; after 5 wrong PINs the keyboard no longer leaves', async () => {
    const { window, windows, app, logLines } = await kioskWithPin('4711');
    window.webContents.emit('before-input-event', cancellable(), exitKeys());
    const prompt = windows[1]!;
    type(prompt.webContents, '1234');
    prompt.webContents.emit('before-input-event', cancellable(), key('Enter', {}));
    expect(app.quitCalls).toBe(0);
    expect(prompt.destroyed).toBe(false);
    expect(decodeURIComponent(prompt.loaded!)).toContain('Wrong PIN');
    expect(logLines).toContainEqual(expect.objectContaining({ level: 40, attempt: 1, msg: 'a wrong staff PIN was entered; kiosk mode stays' }));
    prompt.webContents.emit('before-input-event', cancellable(), key('Escape', {}));
    expect(prompt.destroyed).toBe(true);

    // The page gets its keys again once the prompt is closed.
    const typing = cancellable();
    window.webContents.emit('before-input-event', typing, key('4', {}));
    expect(typing.prevented).toBe(false);

    window.webContents.emit('before-input-event', cancellable(), exitKeys());
    const second = windows[2]!;
    for (let attempt = 2; attempt <= 5; attempt++) {
      type(second.webContents, '0000');
      second.webContents.emit('before-input-event', cancellable(), key('Enter', {}));
    }
    expect(second.destroyed).toBe(true);
    window.webContents.emit('before-input-event', cancellable(), exitKeys());
    expect(windows).toHaveLength(3);
    expect(app.quitCalls).toBe(0);
    expect(logLines.at(-1)?.msg).toContain('refused until the app starts again');
  });

  it('without a PIN set the keyboard does not leave kiosk mode, and the log says how to set one', async () => {
    const { window, windows, app, logLines } = await kioskWithPin(undefined);
    const exit = cancellable();
    window.webContents.emit('before-input-event', exit, exitKeys());
    expect(exit.prevented).toBe(true);
    expect(windows).toHaveLength(1);
    expect(app.quitCalls).toBe(0);
    expect(logLines.at(-1)).toMatchObject({ level: 40, msg: expect.stringContaining('kiosk pin set') });
  });

  it('a packaged kiosk starts at login: an autostart entry on Linux', async () => {
    const configHome = tempDir();
    await startApp({ XDG_CONFIG_HOME: configHome, APPIMAGE: '/opt/Store "Server".AppImage' }, { isPackaged: true, argv: ['store-server', '--kiosk'] });
    expect(readFileSync(join(configHome, 'autostart', 'store-server.desktop'), 'utf8')).toBe(
      '[Desktop Entry]\nType=Application\nName=Store Server\nExec="/opt/Store \\"Server\\".AppImage" --at-login\n' +
        'X-GNOME-Autostart-enabled=true\nNoDisplay=true\n',
    );
  });

  it('`kiosk mode off` holds at the next login: start at login lets kiosk.json decide', async () => {
    const dataDir = tempDir();
    const kiosk = await startApp({ DATA_DIR: dataDir, KIOSK_MODE: '1' }, { isPackaged: true, platform: 'win32' });
    const [loginItem] = kiosk.app.loginItems as { args: string[] }[];
    await kiosk.main.server.close();
    forget(kiosk.main);
    await appCli(dataDir, ['kiosk', 'mode', 'off', '--json']);
    // Windows starts the login item with the arguments it was registered with.
    const atLogin = await startApp({ DATA_DIR: dataDir }, { isPackaged: true, platform: 'win32', argv: ['store-server', ...loginItem!.args] });
    expect(atLogin.window.options).toMatchObject({ kiosk: false, webPreferences: { devTools: true } });
    expect(JSON.parse(readFileSync(join(dataDir, 'kiosk.json'), 'utf8'))).toEqual({ kiosk: false });
  });

  it('a kiosk.json that cannot be read at login keeps the kiosk locked', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'kiosk.json'), '{"kiosk": true, "key": ');
    const { window } = await startApp({ DATA_DIR: dataDir }, { argv: ['store-server', '--at-login'] });
    expect(window.options).toMatchObject({ kiosk: true, webPreferences: { devTools: false } });
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
    expect(windows.app.loginItems).toEqual([{ openAtLogin: true, path: '/opt/Store Server/store-server', args: ['--at-login'] }]);
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
    expect(JSON.parse(created.stdout)).toEqual({ id: expect.any(String), kind: 'write', store: null, key: expect.stringMatching(/^wk_/) });
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
