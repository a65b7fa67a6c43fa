import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appConfig } from '../main/electron/app-config.js';
import { KIOSK_CONFIG_CHANNEL } from '../main/electron/kiosk-bridge.js';
import { JS_FLAGS, PRELOAD_FILE, setupApp } from '../main/electron/main-process.js';
import { STARTUP_ERROR_TITLE } from '../main/electron/startup-error.js';
import { isAllowedNavigation, kioskWindowOptions, windowOrigin } from '../main/electron/window.js';
import { PROJECT_ROOT } from '../main/version.js';
import { api } from './support/api.js';
import { standInApps, standInContext, standInElectron } from './support/electron-stand-in.js';

const { start: startApp, tempDir: userDataDir, forget } = standInApps();

/** A synchronous IPC message as the preload of a frame at `url` sends it. */
function askForConfig(ipcMain: NodeJS.EventEmitter, url: string, parent: unknown = null) {
  const event = { senderFrame: { url, parent }, returnValue: undefined as unknown };
  ipcMain.emit(KIOSK_CONFIG_CHANNEL, event);
  return event.returnValue;
}

describe('kiosk window options', () => {
  it('isolate the page from Node and load only the preload', () => {
    const options = kioskWindowOptions({ kiosk: true, preload: '/app/preload.cjs' });
    expect(options).toMatchObject({ kiosk: true, fullscreen: true, show: false });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
    expect(kioskWindowOptions({ kiosk: false, preload: '' })).toMatchObject({ kiosk: false, fullscreen: false });
  });

  it.each([
    ['http://127.0.0.1:5000/', true],
    ['http://127.0.0.1:5000/api/v1/health', true],
    ['http://127.0.0.1:5001/', false],
    ['https://example.com/', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('navigation to %s allowed: %s', (url, allowed) => {
    expect(isAllowedNavigation(url, 'http://127.0.0.1:5000')).toBe(allowed);
  });

  it.each([
    ['127.0.0.1', 'http://127.0.0.1:8787'],
    ['0.0.0.0', 'http://127.0.0.1:8787'],
    ['::', 'http://127.0.0.1:8787'],
    ['::1', 'http://[::1]:8787'],
    ['192.168.1.20', 'http://192.168.1.20:8787'],
  ])('a server on %s is opened at %s', (host, origin) => {
    expect(windowOrigin(host, 8787)).toBe(origin);
  });
});

describe('Electron main process', () => {
  it('listens on 127.0.0.1:8787 by default, HOST and PORT override, data in the user-data folder', () => {
    const app = { getPath: () => '/home/kasse/.config/Store Server' };
    expect(appConfig(app, {})).toMatchObject({ host: '127.0.0.1', port: 8787, dataDir: '/home/kasse/.config/Store Server/data' });
    expect(appConfig(app, { HOST: '0.0.0.0', PORT: '9000', DATA_DIR: '/srv/store' })).toMatchObject({ host: '0.0.0.0', port: 9000, dataDir: '/srv/store' });
  });

  it('starts the API in the user-data folder and opens the window on it with the preload', async () => {
    const { main, window, app } = await startApp();
    expect(main.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect((await fetch(`${main.server.url}/health`)).status).toBe(200);
    expect(main.server.credentialsFile).toBe(join(main.config.dataDir, 'credentials.json'));
    expect(main.config.dataDir).toMatch(/retail-electron-.*[/\\]data$/);

    expect(window.options.webPreferences?.preload).toBe(PRELOAD_FILE);
    expect(PRELOAD_FILE).toMatch(/[/\\]preload\.cjs$/);
    expect(window.loaded).toBe(new URL(main.server.url).origin + '/');
    const page = await fetch(window.loaded!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Self-checkout</title>');
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);
    expect(app.exitCodes).toEqual([]);
  });

  it('opens the window over loopback when the server listens on every interface', async () => {
    const { main, window } = await startApp({ HOST: '0.0.0.0' });
    expect(window.loaded).toBe(`http://127.0.0.1:${main.server.port}/`);
    expect((await fetch(`http://127.0.0.1:${main.server.port}/api/v1/health`)).status).toBe(200);
  });

  it('shows an error window and logs when the port is taken, never moving to another port', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { main, dialog, app, windows, logLines } = await startApp({ PORT: String(port) });
      expect(main).toBeUndefined();
      expect(windows).toHaveLength(0);
      expect(dialog.errors).toHaveLength(1);
      expect(dialog.errors[0]!.title).toBe(STARTUP_ERROR_TITLE);
      expect(dialog.errors[0]!.message).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(dialog.errors[0]!.message).toContain('PORT');
      expect(app.exitCodes).toEqual([1]);
      expect(logLines).toContainEqual(expect.objectContaining({ level: 50, port, msg: expect.stringContaining('already in use') }));
    } finally {
      taken.close();
    }
  });

  it('shows an error window for an impossible PORT', async () => {
    const { dialog, app } = await startApp({ PORT: 'eighty' });
    expect(dialog.errors[0]!.message).toContain('PORT must be a whole number');
    expect(app.exitCodes).toEqual([1]);
  });

  it('passes the same V8 flags as npm start', async () => {
    const { app } = await startApp();
    expect(app.switches).toEqual([['js-flags', JS_FLAGS]]);
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toContain(`node ${JS_FLAGS} dist/main/start.js`);
  });

  it('quits when another instance already runs', async () => {
    const electron = standInElectron('/nonexistent');
    electron.app.lock = false;
    expect(await setupApp(electron.module, standInContext({}).context)).toBeUndefined();
    expect(electron.app.quitCalls).toBe(1);
    expect(electron.windows).toHaveLength(0);
  });

  it('relaunches itself at once after a flush to disk failed, without closing the database', async () => {
    const trigger = join(userDataDir(), 'fail-next-flush');
    // The test seam (main/storage/flush-fault.ts), armed for this test only.
    process.env.STORE_SERVER_FAIL_FLUSH_FILE = trigger;
    try {
      const { main, app } = await startApp();
      const { writeKey } = JSON.parse(readFileSync(main.server.credentialsFile!, 'utf8'));
      const sale = { name: 'Brot', price: 350, taxCategory: '2.6' };
      expect((await api(main.server.url, writeKey).post('/products', sale)).status).toBe(200);
      writeFileSync(trigger, 'wal');
      expect((await api(main.server.url, writeKey).post('/products', sale)).status).toBe(503);
      await expect.poll(() => app.exitCodes).toEqual([74]);
      expect(app.relaunches).toBe(1);
      expect(app.quitCalls).toBe(0);
    } finally {
      delete process.env.STORE_SERVER_FAIL_FLUSH_FILE;
    }
  });
});

describe('kiosk configuration from DATA_DIR/kiosk.json', () => {
  const kioskJson = (dataDir: string, content: string) => writeFileSync(join(dataDir, 'kiosk.json'), content);

  it('hands the store and API address, never the key, to the top frame of the local server only', async () => {
    const dataDir = userDataDir();
    kioskJson(dataDir, JSON.stringify({ key: 'wk_kiosk', storeId: 'store-1' }));
    const { main, ipcMain } = await startApp({ DATA_DIR: dataDir });
    const origin = new URL(main.server.url).origin;

    expect(askForConfig(ipcMain, `${origin}/`)).toEqual({ storeId: 'store-1', apiBaseUrl: `${origin}/api/v1` });
    expect(askForConfig(ipcMain, 'https://example.com/')).toBeNull();
    expect(askForConfig(ipcMain, `${origin}/`, { url: `${origin}/` })).toBeNull();
    const refused = { senderFrame: null, returnValue: undefined as unknown };
    ipcMain.emit(KIOSK_CONFIG_CHANNEL, refused);
    expect(refused.returnValue).toBeNull();
  });

  it('sends the key as the Authorization header of requests to the local server, and to nothing else', async () => {
    const dataDir = userDataDir();
    const credentials = () => JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8'));
    // The first start makes the organization; the kiosk is set up with its key afterwards.
    const first = await startApp({ DATA_DIR: dataDir });
    await first.main.server.close();
    forget(first.main);
    kioskJson(dataDir, JSON.stringify({ key: credentials().writeKey, storeId: 'store-1' }));
    const { window, origin } = await startApp({ DATA_DIR: dataDir });
    expect(window.session.requestFilter).toEqual({ urls: [`${origin}/*`] });
    const send = (url: string, requestHeaders: Record<string, string>) => {
      let result: { requestHeaders: Record<string, string> } | undefined;
      window.session.requestListener!({ url, requestHeaders }, (answer: typeof result) => (result = answer));
      return result!.requestHeaders;
    };
    const headers = send(`${origin}/api/v1/products`, { Accept: 'application/json', authorization: 'Bearer page-made-up' });
    expect(headers).toEqual({ Accept: 'application/json', Authorization: `Bearer ${credentials().writeKey}` });
    // What the page's request then gets from the server: the catalog, not a 401.
    expect((await fetch(`${origin}/api/v1/products`, { headers })).status).toBe(200);
    expect((await fetch(`${origin}/api/v1/products`)).status).toBe(403);
    expect(send('https://example.com/collect', { Accept: '*/*' })).toEqual({ Accept: '*/*' });
  });

  it('gives no config without the file, so the page shows its set-up screen', async () => {
    const { main, ipcMain, logLines } = await startApp();
    expect(askForConfig(ipcMain, new URL(main.server.url).origin + '/')).toBeNull();
    expect(logLines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it.each([
    ['{"key": "wk_kiosk"', 'is not valid JSON'],
    ['{"key": "wk_kiosk"}', 'storeId'],
    ['{"key": "wk_kiosk", "storeId": "s", "pin": "1234"}', 'pin'],
  ])('refuses %s and logs what is wrong', async (content, named) => {
    const dataDir = userDataDir();
    kioskJson(dataDir, content);
    const { main, ipcMain, logLines } = await startApp({ DATA_DIR: dataDir });
    expect(askForConfig(ipcMain, new URL(main.server.url).origin + '/')).toBeNull();
    const warning = logLines.find((l) => l.level === 40);
    expect(warning?.msg).toContain(join(dataDir, 'kiosk.json'));
    expect(warning?.msg).toContain(named);
    // Neither the log nor the keyless /update answer quotes the file: it holds the write key.
    expect(warning?.msg).not.toContain('wk_kiosk');
    expect(JSON.stringify((await api(main.server.url).get('/update')).body)).not.toContain('wk_kiosk');
  });
});
