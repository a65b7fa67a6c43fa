import { KIOSK_BRIDGE } from '../../shared/kiosk-bridge.js';
import type { KioskConfig } from '../../shared/kiosk-config.js';

const STORAGE_KEY = 'kiosk.config';

/** Where the configuration came from: the desktop app's preload, or this browser's set-up screen. */
export type ConfigSource = 'bridge' | 'browser';

/** The API of the server that sent this page; a plain browser always talks to it. */
export function sameOriginApi(): string {
  return new URL('/api/v1', window.location.href).href;
}

/**
 * What the page starts with. The desktop app may send the key itself (then
 * the config has none), and a kiosk key names its store (then `storeId` may
 * be left out and `GET /keys/current` tells it).
 */
export type PageConfig = Omit<KioskConfig, 'key' | 'storeId'> & { key?: string; storeId?: string };

const optionalText = (value: unknown) => value === undefined || (typeof value === 'string' && value !== '');

function isBridgeConfig(value: unknown): value is PageConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.apiBaseUrl === 'string' && optionalText(v.key) && optionalText(v.storeId);
}

function isConfig(value: unknown): value is KioskConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.key === 'string' && v.key !== '' && typeof v.storeId === 'string' && v.storeId !== '' && typeof v.apiBaseUrl === 'string';
}

/** The kiosk's configuration, or undefined when a plain browser has not been set up yet. */
export function loadConfig(): { config: PageConfig; source: ConfigSource } | undefined {
  const bridge = (window as unknown as Record<string, { config?: unknown } | undefined>)[KIOSK_BRIDGE];
  if (bridge && isBridgeConfig(bridge.config)) return { config: bridge.config, source: 'bridge' };
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (isConfig(stored)) return { config: { ...stored, apiBaseUrl: sameOriginApi() }, source: 'browser' };
  } catch {
    // A damaged entry means set-up runs again.
  }
  return undefined;
}

/** The receipt settings of a kiosk in a plain browser: only a network printer, which the local server prints on. */
export type BrowserReceiptSettings = Pick<KioskConfig, 'printer' | 'receiptUrl'>;

export function saveBrowserConfig(key: string, storeId: string, receipts: BrowserReceiptSettings = {}): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ key, storeId, ...receipts, apiBaseUrl: sameOriginApi() }));
}

export function forgetBrowserConfig(): void {
  localStorage.removeItem(STORAGE_KEY);
}
