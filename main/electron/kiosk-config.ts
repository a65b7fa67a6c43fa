import { chmodSync } from 'node:fs';
import type { Logger } from 'pino';
import { KioskConfigFile, type KioskConfig, type UpdateSettings } from '../../shared/kiosk-config.js';
import { kioskFilePath, readKioskFile, writeKioskFile, type KioskFileContent } from '../kiosk/kiosk-file.js';
import type { KeyProtection } from './key-protection.js';

/**
 * What the desktop app takes from `DATA_DIR/kiosk.json`: whether it runs as
 * a kiosk, the page's config (never its key), the key the main process sends
 * for the page, and the update settings; or the reason the file is unusable
 * (the page shows its own set-up screen, updates are off), so the operator can fix it.
 */
export interface KioskConfigReading {
  kiosk: boolean;
  config: KioskConfig | undefined;
  key: string | undefined;
  update: UpdateSettings | undefined;
  problem: string | undefined;
}

export interface KioskFileOptions {
  /** `--kiosk` or `KIOSK_MODE=1`: turns kiosk mode on in the file, so that a restart without them (an update) keeps it. */
  kioskSwitch: boolean;
  /** Started by the kiosk's start at login: a kiosk.json that cannot be read keeps kiosk mode on. */
  startedAtLogin?: boolean;
  protection: KeyProtection;
  logger: Logger;
  /** Exchanges a key that must not stay on the kiosk (a write key) for one that may; undefined keeps the key. */
  exchangeKey?: (key: string, storeId: string) => string | undefined;
}

const SHAPE = '{"key": "<kiosk key>", "storeId": "<store id>", "kiosk": true (optional), "printer": {"type": "network", "id": "<printer id>"} (optional), "receiptUrl": "https://…/{orderId}" (optional), "update": {"url": "https://…"} (optional)}';

/**
 * Reads `DATA_DIR/kiosk.json` at start and brings it up to date: kiosk mode
 * from the switch is kept in it, a key in plain text is exchanged when it is
 * a write key and encrypted where the system can (otherwise left readable by
 * its owner only, with a warning).
 */
export function readKioskConfig(dataDir: string, apiBaseUrl: string, options: KioskFileOptions): KioskConfigReading {
  const file = kioskFilePath(dataDir);
  const { logger, protection } = options;
  const unusable = (kiosk: boolean, problem: string): KioskConfigReading => ({ kiosk, config: undefined, key: undefined, update: undefined, problem });
  let content: KioskFileContent | undefined;
  try {
    content = readKioskFile(dataDir);
  } catch (err) {
    return unusable(options.kioskSwitch || options.startedAtLogin === true, (err as Error).message);
  }
  if (options.kioskSwitch && content?.kiosk !== true) {
    content = { ...(content ?? {}), kiosk: true };
    writeKioskFile(dataDir, content);
    logger.info({ file }, 'kiosk mode is on and kept in kiosk.json, so the app comes back as a kiosk after a restart or an update');
  }
  const kiosk = options.kioskSwitch || content?.kiosk === true;
  if (content === undefined) return { kiosk, config: undefined, key: undefined, update: undefined, problem: undefined };

  const parsed = KioskConfigFile.safeParse(content);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ');
    return unusable(kiosk, `${file} must be ${SHAPE} (${issues})`);
  }
  const { storeId, printer, receiptUrl, update } = parsed.data;
  let key = parsed.data.key;
  if (parsed.data.keyEncrypted !== undefined) {
    try {
      key = protection.decrypt(parsed.data.keyEncrypted);
    } catch {
      return unusable(kiosk, `${file}: keyEncrypted cannot be decrypted by this user on this PC (was the data folder copied from another PC or user?); write the key again as "key" and the app encrypts it at its next start`);
    }
  }
  if (key !== undefined) {
    const exchanged = options.exchangeKey?.(key, storeId!);
    // A key in plain text, or one just exchanged, is stored anew; an encrypted key that stays is left alone.
    if (exchanged !== undefined || parsed.data.key !== undefined) {
      const { keyEncrypted: _old, ...rest } = content;
      storePlainKey(dataDir, { ...rest, key: exchanged ?? key }, exchanged !== undefined, protection, logger);
    }
    key = exchanged ?? key;
  }
  const config = storeId === undefined ? undefined : { storeId, ...(printer && { printer }), ...(receiptUrl && { receiptUrl }), apiBaseUrl };
  return { kiosk, config, key, update, problem: undefined };
}

/** A key an operator wrote in plain text: encrypted where the system can, otherwise left as it is but readable by the owner only. */
function storePlainKey(dataDir: string, content: KioskFileContent, exchanged: boolean, protection: KeyProtection, logger: Logger): void {
  const file = kioskFilePath(dataDir);
  if (protection.available) {
    const { key, ...rest } = content;
    writeKioskFile(dataDir, { ...rest, keyEncrypted: protection.encrypt(key as string) });
    logger.info({ file }, 'kiosk.json: the key is now stored encrypted (keyEncrypted) with the system\'s key store');
    return;
  }
  if (exchanged) writeKioskFile(dataDir, content);
  else chmodSync(file, 0o600);
  logger.warn({ file }, `kiosk.json: the key stays in plain text, readable by this user only, because ${protection.reason}; see docs/desktop.md (Keys on the PC)`);
}
