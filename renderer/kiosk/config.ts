import { KIOSK_BRIDGE } from '../../shared/kiosk-bridge.js';
import type { KioskConfig } from '../../shared/kiosk-config.js';

const STORAGE_KEY = 'kiosk.config';

/** Where the configuration came from: the desktop app's preload, or this browser's set-up screen. */
export type ConfigSource = 'bridge' | 'browser';

/** The API of the server that sent this page; a plain browser always talks to it. */
export function sameOriginApi(): string {
  return new URL('/api/v1', window.location.href).href;
}

/** The desktop app's config comes without a key (the app adds the Authorization header itself); a browser's set-up always has one. */
function isConfig(value: unknown, keyRequired: boolean): value is KioskConfig {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const keyOk = v.key === undefined ? !keyRequired : typeof v.key === 'string' && v.key !== '';
  return keyOk && typeof v.storeId === 'string' && v.storeId !== '' && typeof v.apiBaseUrl === 'string';
}

/** The kiosk's configuration, or undefined when a plain browser has not been set up yet. */
export function loadConfig(): { config: KioskConfig; source: ConfigSource } | undefined {
  const bridge = (window as unknown as Record<string, { config?: unknown } | undefined>)[KIOSK_BRIDGE];
  if (bridge && isConfig(bridge.config, false)) return { config: bridge.config, source: 'bridge' };
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (isConfig(stored, true)) return { config: { ...stored, apiBaseUrl: sameOriginApi() }, source: 'browser' };
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
