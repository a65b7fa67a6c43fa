import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KIOSK_CONFIG_FILE, KioskConfigFile, type KioskConfig, type UpdateSettings } from '../../shared/kiosk-config.js';

/**
 * What the desktop app takes from `DATA_DIR/kiosk.json`: the page's config and
 * the update settings, or nothing (the page shows its own set-up screen,
 * updates are off) with the reason when the file is there but unusable, so
 * the operator can fix it.
 */
export type KioskConfigReading =
  | { config: KioskConfig; update: UpdateSettings | undefined; problem?: undefined }
  | { config: undefined; update: undefined; problem: string | undefined };

/** Reads and validates `DATA_DIR/kiosk.json`; `apiBaseUrl` is the address the window uses. */
export function readKioskConfig(dataDir: string, apiBaseUrl: string): KioskConfigReading {
  const file = join(dataDir, KIOSK_CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { config: undefined, update: undefined, problem: undefined };
    return { config: undefined, update: undefined, problem: `${file} cannot be read: ${(err as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // JSON.parse quotes the text around the fault, which may be the key: only the position goes to the log.
    const at = /position \d+(?: \(line \d+ column \d+\))?/.exec((err as Error).message)?.[0];
    return { config: undefined, update: undefined, problem: `${file} is not valid JSON${at ? ` (at ${at})` : ''}` };
  }
  const parsed = KioskConfigFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ');
    return { config: undefined, update: undefined, problem: `${file} must be {"key": "<write key>", "storeId": "<store id>", "printer": {"type": "network", "id": "<printer id>"} (optional), "receiptUrl": "https://…/{orderId}" (optional), "update": {"url": "https://…"} (optional)} (${issues})` };
  }
  const { update, ...page } = parsed.data;
  return { config: { ...page, apiBaseUrl }, update };
}
