import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { KIOSK_ACTIVITY_CHANNEL, KIOSK_CONFIG_CHANNEL, KIOSK_JOURNAL_CHANNELS } from '../main/electron/kiosk-bridge.js';
import { CONTENT_SECURITY_POLICY } from '../main/security/content-security-policy.js';
import { PROJECT_ROOT } from '../main/version.js';
import { cancellable, standInApps } from './support/electron-stand-in.js';

const { start: startApp } = standInApps();

describe('preload', () => {
  /** Runs preload.cts as Electron runs a sandboxed preload: a function of require, process, exports and module. */
  function runPreload(answer: unknown) {
    const source = readFileSync(join(PROJECT_ROOT, 'main/electron/preload.cts'), 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
    const exposed: [string, unknown][] = [];
    const sent: string[] = [];
    const reports: [string, unknown][] = [];
    const invoked: [string, ...unknown[]][] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (name: string, value: unknown) => exposed.push([name, value]) },
      ipcRenderer: {
        sendSync: (channel: string) => (sent.push(channel), answer),
        send: (channel: string, message: unknown) => reports.push([channel, message]),
        invoke: async (channel: string, ...args: unknown[]) => void invoked.push([channel, ...args]),
      },
    };
    const require = (name: string) => {
      if (name !== 'electron') throw new Error(`module not found: ${name}`);
      return electron;
    };
    const exports = {};
    runInNewContext(`(function (require, process, exports, module) {${outputText}\n})`)(require, {}, exports, { exports });
    return { exposed, sent, reports, invoked };
  }

  it('exposes kioskBridge.config, reportActivity, the sales journal and printReceipt, nothing else', () => {
    const config = { storeId: 'store-1', apiBaseUrl: 'http://127.0.0.1:8787/api/v1' };
    const { exposed, sent } = runPreload(config);
    expect(sent).toEqual([KIOSK_CONFIG_CHANNEL]);
    expect(exposed).toEqual([['kioskBridge', { config, reportActivity: expect.any(Function), journal: { list: expect.any(Function), put: expect.any(Function), remove: expect.any(Function) }, printReceipt: expect.any(Function) }]]);
    const bridge = exposed[0]![1] as { config: object; journal: object };
    expect(Object.keys(bridge)).toEqual(['config', 'reportActivity', 'journal', 'printReceipt']);
    expect(Object.isFrozen(bridge) && Object.isFrozen(bridge.config) && Object.isFrozen(bridge.journal)).toBe(true);
    expect(Object.values(bridge.config).every((v) => typeof v === 'string')).toBe(true);
  });

  it('exposes no config when the main process has none for the page', () => {
    const { exposed } = runPreload(null);
    expect(Object.keys(exposed[0]![1] as object)).toEqual(['reportActivity', 'journal', 'printReceipt']);
  });

  it('hands the journal\'s calls to the main process on their own channels, which check what they get', async () => {
    const { exposed, invoked } = runPreload(null);
    const { journal } = exposed[0]![1] as { journal: { list(): Promise<unknown>; put(entry: unknown): Promise<void>; remove(orderId: unknown): Promise<void> } };
    const entry = { orderId: 'o1', paidAt: '2026-11-24T10:00:00.000Z', sale: { orderId: 'o1', store: 's1', products: [] } };
    await journal.list();
    await journal.put(entry);
    await journal.remove({ toString: () => 'o1' });
    expect(invoked).toEqual([[KIOSK_JOURNAL_CHANNELS.list], [KIOSK_JOURNAL_CHANNELS.put, entry], [KIOSK_JOURNAL_CHANNELS.remove, 'o1']]);
  });

  it('sends the main process two booleans, whatever the page passes to reportActivity', () => {
    const { exposed, reports } = runPreload(null);
    const { reportActivity } = exposed[0]![1] as { reportActivity: (activity: unknown) => void };
    reportActivity({ cartEmpty: true, saleInFlight: false, extra: 'x'.repeat(1000) });
    reportActivity({ cartEmpty: 'yes', saleInFlight: 1 });
    reportActivity(undefined);
    expect(reports).toEqual([
      [KIOSK_ACTIVITY_CHANNEL, { cartEmpty: true, saleInFlight: false }],
      [KIOSK_ACTIVITY_CHANNEL, { cartEmpty: false, saleInFlight: false }],
      [KIOSK_ACTIVITY_CHANNEL, { cartEmpty: false, saleInFlight: false }],
    ]);
  });
});

describe('security of the window', () => {
  it('denies every permission request and check', async () => {
    const { window } = await startApp();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'usb', 'openExternal']) {
      const answers: boolean[] = [];
      window.session.permissionRequestHandler!({}, permission, (granted: boolean) => answers.push(granted), {});
      expect(answers).toEqual([false]);
      expect(window.session.permissionCheckHandler!({}, permission, 'http://127.0.0.1', {})).toBe(false);
    }
  });

  it('adds the Content-Security-Policy to local responses that lack one, and keeps the server\'s own', async () => {
    const { window, origin } = await startApp();
    expect(window.session.headerFilter).toEqual({ urls: [`${origin}/*`] });
    const answer = (responseHeaders: Record<string, string[]>) => {
      let result: unknown;
      window.session.headerListener!({ url: `${origin}/`, responseHeaders }, (response: unknown) => (result = response));
      return result;
    };
    expect(answer({ 'Content-Type': ['text/html'] })).toEqual({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
    const own = { 'content-security-policy': ["default-src 'self'"] };
    expect(answer(own)).toEqual({ responseHeaders: own });
  });

  it('keeps the window on the local server: no new windows, no navigation or redirect away, no webviews', async () => {
    const { window, origin } = await startApp();
    expect(window.openHandler?.()).toEqual({ action: 'deny' });
    for (const event of ['will-navigate', 'will-redirect']) {
      const away = cancellable();
      window.webContents.emit(event, away, 'https://example.com/');
      expect(away.prevented).toBe(true);
      const local = cancellable();
      window.webContents.emit(event, local, `${origin}/status`);
      expect(local.prevented).toBe(false);
    }
    const webview = cancellable();
    window.webContents.emit('will-attach-webview', webview, {}, {});
    expect(webview.prevented).toBe(true);
  });

  it('never hands a URL to the operating system (no shell.openExternal)', () => {
    const sources = readdirSync(join(PROJECT_ROOT, 'main'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.c?ts$/.test(f));
    expect(sources.length).toBeGreaterThan(20);
    for (const file of sources) expect(readFileSync(join(PROJECT_ROOT, 'main', file), 'utf8'), file).not.toMatch(/openExternal|openPath/);
  });
});
