import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JS_FLAGS, onReady, setupApp, type ElectronMain, type ElectronModule } from '../main/electron/main-process.js';
import { PROJECT_ROOT } from '../main/version.js';
import { isAllowedNavigation, kioskWindowOptions } from '../main/electron/window.js';

/** Stand-in for the `electron` module: records what the main process asks of it. */
function standInElectron(userData: string) {
  const app = Object.assign(new EventEmitter(), {
    quitCalls: 0,
    lock: true,
    whenReady: () => Promise.resolve(),
    getPath: (name: string) => (name === 'userData' ? userData : '/nonexistent'),
    quit() {
      app.quitCalls += 1;
    },
    requestSingleInstanceLock: () => app.lock,
    switches: [] as [string, string | undefined][],
    commandLine: {
      appendSwitch: (name: string, value?: string) => {
        app.switches.push([name, value]);
      },
    },
  });
  const windows: StandInWindow[] = [];
  class StandInWindow extends EventEmitter {
    loaded: string | undefined;
    shown = false;
    openHandler: (() => { action: string }) | undefined;
    webContents = Object.assign(new EventEmitter(), {
      setWindowOpenHandler: (handler: () => { action: string }) => {
        this.openHandler = handler;
      },
    });
    constructor(readonly options: unknown) {
      super();
      windows.push(this);
    }
    async loadURL(url: string) {
      this.loaded = url;
    }
    show() {
      this.shown = true;
    }
    focus() {}
  }
  const module = { app, BrowserWindow: StandInWindow } as unknown as ElectronModule;
  return { module, app, windows };
}

const started: ElectronMain[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const main of started.splice(0)) await main.server.close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('kiosk window options', () => {
  it('isolate the page from Node', () => {
    const options = kioskWindowOptions({ kiosk: true });
    expect(options.kiosk).toBe(true);
    expect(options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
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
});

describe('Electron main process', () => {
  it('starts the API on 127.0.0.1 in the user-data folder and opens the window on it', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'retail-electron-'));
    folders.push(userData);
    const electron = standInElectron(userData);
    const main = await onReady(electron.module, { LOG_LEVEL: 'silent' });
    started.push(main);

    expect(main.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const health = await fetch(`${main.server.url}/health`);
    expect(health.status).toBe(200);
    expect(main.server.credentialsFile).toBe(join(userData, 'data', 'credentials.json'));

    const [window] = electron.windows;
    expect(window?.loaded).toBe(new URL(main.server.url).origin + '/');
    const page = await fetch(window!.loaded!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Self-checkout</title>');
    expect(window?.openHandler?.()).toEqual({ action: 'deny' });

    const blocked = { prevented: false, preventDefault() { this.prevented = true; } };
    window?.webContents.emit('will-navigate', blocked, 'https://example.com/');
    expect(blocked.prevented).toBe(true);
    const local = { prevented: false, preventDefault() { this.prevented = true; } };
    window?.webContents.emit('will-navigate', local, `${new URL(main.server.url).origin}/index.html`);
    expect(local.prevented).toBe(false);

    window?.emit('ready-to-show');
    expect(window?.shown).toBe(true);
  });

  it('passes the same V8 flags as npm start', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'retail-electron-'));
    folders.push(userData);
    const electron = standInElectron(userData);
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'silent';
    try {
      const main = await setupApp(electron.module);
      if (main) started.push(main);
    } finally {
      if (previous === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = previous;
    }
    expect(electron.app.switches).toEqual([['js-flags', JS_FLAGS]]);
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toContain(`node ${JS_FLAGS} dist/main/start.js`);
  });

  it('quits when another instance already runs', async () => {
    const electron = standInElectron('/nonexistent');
    electron.app.lock = false;
    expect(await setupApp(electron.module)).toBeUndefined();
    expect(electron.app.quitCalls).toBe(1);
    expect(electron.windows).toHaveLength(0);
  });
});
