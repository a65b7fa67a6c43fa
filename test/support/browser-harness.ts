import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { api, type Api } from './api.js';
import { seedKioskCatalog } from './kiosk-catalog.js';
import { launchChromium, openKiosk, type KioskSetup } from './kiosk.js';
import { startTestServer, type TestOrg, type TestServer, type TestServerOptions } from './server.js';
import { startSyncPair, type SyncPair } from './sync-pair.js';

export type KioskCatalog = Awaited<ReturnType<typeof seedKioskCatalog>>;

export interface HarnessOptions {
  /** Features of the test organization. */
  features?: string[];
  /** Seeds the kiosk catalog (a store and its products); default true. */
  catalog?: boolean;
  /** The server is the store PC of a sync pair, with a real upstream (`pair`). */
  upstream?: boolean;
  /** Settings of the server (without `upstream`), such as where printers may be. */
  server?: TestServerOptions;
}

export interface KioskPageOptions extends Partial<KioskSetup> {
  viewport?: { width: number; height: number };
  /** The base URL the page talks to; default the server's (a proxy in front of it, say). */
  apiUrl?: string;
  beforeLoad?: (page: Page) => Promise<void>;
}

export interface PageOptions {
  locale?: string;
  viewport?: { width: number; height: number };
  timeout?: number;
  /** Runs in the page before its own script. */
  initScript?: () => void;
}

/**
 * One server, organization, catalog and Chromium per test file; the pages a
 * test opens are closed after it, and an uncaught error in one fails it.
 */
export interface BrowserHarness {
  server: TestServer;
  /** Set with `upstream: true`. */
  pair: SyncPair;
  org: TestOrg;
  /** The organization's write client. */
  client: Api;
  /** Set unless `catalog: false`. */
  seed: KioskCatalog;
  browser: Browser;
  /** Uncaught errors of the pages opened with `kiosk`: a test ends without any. */
  pageErrors: Error[];
  /** The kiosk key of the store (default the seeded one), made once with POST /keys: kiosks hold no write key. */
  kioskKey(storeId?: string): Promise<string>;
  /** The kiosk of a store (default the seeded one) with its kiosk key (or `key`), configured the way the desktop app does. */
  kiosk(options?: KioskPageOptions): Promise<Page>;
  /** A page at `path` of the server in a fresh browser context, closed after the test. */
  open(path: string, options?: PageOptions): Promise<Page>;
  /** The staff page signed in with the organization's write key, once `until` (a selector of what the test needs first) shows. */
  staff(until: string, options?: PageOptions): Promise<Page>;
  /** Closes the context after the test. */
  track(context: BrowserContext): BrowserContext;
}

export function useBrowserHarness(options: HarnessOptions = {}): BrowserHarness {
  const contexts: BrowserContext[] = [];
  const h = { pageErrors: [] as Error[] } as unknown as BrowserHarness;
  h.track = (context) => (contexts.push(context), context);
  const kioskKeys = new Map<string, Promise<string>>();
  h.kioskKey = (storeId = h.seed.store) => {
    let key = kioskKeys.get(storeId);
    if (!key) {
      key = h.client.post('/keys', { kind: 'kiosk', store: storeId, name: `Kiosk of ${storeId}` }).then((res) => {
        if (res.status !== 201) throw new Error(`POST /keys answered ${res.status}: ${JSON.stringify(res.body)}`);
        return res.body.key as string;
      });
      kioskKeys.set(storeId, key);
    }
    return key;
  };
  h.kiosk = async ({ viewport, apiUrl, beforeLoad, key, ...setup } = {}) => {
    const storeId = setup.storeId ?? h.seed.store;
    const { context, page } = await openKiosk(h.browser, apiUrl ?? h.server.url, { ...setup, key: key ?? (await h.kioskKey(storeId)), storeId }, viewport, beforeLoad);
    h.track(context);
    page.on('pageerror', (err) => h.pageErrors.push(err));
    return page;
  };
  h.open = async (path, { locale, viewport = { width: 1280, height: 1000 }, timeout, initScript } = {}) => {
    const context = h.track(await h.browser.newContext({ viewport, ...(locale ? { locale } : {}) }));
    if (timeout) context.setDefaultTimeout(timeout);
    if (initScript) await context.addInitScript(initScript);
    const page = await context.newPage();
    await page.goto(new URL(path, h.server.url).href);
    return page;
  };
  h.staff = async (until, pageOptions) => {
    const page = await h.open('/status', pageOptions);
    await page.locator('#staff-key').fill(h.org.writeKey);
    await page.locator('#sign-in button[type="submit"]').click();
    await page.locator(until).first().waitFor();
    return page;
  };

  beforeAll(async () => {
    const features = options.features ?? [];
    if (options.upstream) {
      [h.pair, h.browser] = await Promise.all([startSyncPair({ features }), launchChromium()]);
      h.server = h.pair.local;
      h.org = h.pair.org;
    } else {
      [h.server, h.browser] = await Promise.all([startTestServer(options.server), launchChromium()]);
      h.org = h.server.createOrg(features);
    }
    h.client = api(h.server.url, h.org.writeKey);
    if (options.catalog !== false) h.seed = await seedKioskCatalog(h.client);
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    expect(h.pageErrors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    kioskKeys.clear();
    await h.browser?.close();
    await (h.pair ?? h.server)?.destroy();
  });
  return h;
}
