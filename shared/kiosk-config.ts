import { z } from 'zod';

/** File in `DATA_DIR` that configures the kiosk window of the desktop app. */
export const KIOSK_CONFIG_FILE = 'kiosk.json';

/** What an operator writes into `DATA_DIR/kiosk.json`. */
export const KioskConfigFile = z
  .object({
    key: z.string().min(1).describe('Write key of the organization the kiosk sells for.'),
    storeId: z.string().min(1).describe('Id of the store (`GET /stores/{id}`) whose settings the kiosk applies.'),
  })
  .strict();
export type KioskConfigFile = z.infer<typeof KioskConfigFile>;

/**
 * What the kiosk page receives: from the desktop app's preload
 * (`window.kioskBridge.config`), or from its own set-up screen in a plain browser.
 */
export const KioskConfig = KioskConfigFile.extend({
  apiBaseUrl: z.string().url().describe('Base URL of the local API, including /api/v1.'),
});
export type KioskConfig = z.infer<typeof KioskConfig>;

export { KIOSK_BRIDGE } from './kiosk-bridge.js';
