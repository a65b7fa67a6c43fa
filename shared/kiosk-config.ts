import { z } from 'zod';
import { ReceiptUrlTemplateSchema } from './api/receipts.js';

/** File in `DATA_DIR` that configures the kiosk window of the desktop app. */
export const KIOSK_CONFIG_FILE = 'kiosk.json';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Where and when the desktop app updates itself. Without it the app never
 * checks for updates.
 */
export const UpdateSettings = z
  .object({
    url: z
      .url()
      .refine((url) => url.startsWith('https://') || (URL.canParse(url) && LOOPBACK_HOSTS.has(new URL(url).hostname)), 'must be an https:// address (plain http only on this PC itself)')
      .refine(
        (url) => !URL.canParse(url) || (new URL(url).username === '' && new URL(url).password === ''),
        'must not hold a user name or password: the address is shown on the status page and logged; protect the update folder by network or leave it public (installers are signed)',
      )
      .describe('Folder of the organization\'s update server that holds `latest.yml` (Windows) and `latest-linux.yml` (Linux) with the installers electron-builder wrote next to them.'),
    nightHour: z.int().min(0).max(23).default(3).describe('Hour of the PC\'s local day (0-23) at which a downloaded update installs even with a cart left on screen; never during a sale. Default 3 (03:00-03:59).'),
    checkEveryHours: z.number().min(1).max(168).default(4).describe('Hours between two checks; the app also checks when it starts. Default 4.'),
  })
  .strict();
export type UpdateSettings = z.infer<typeof UpdateSettings>;

/**
 * Where the kiosk prints its receipts: a network receipt printer staff
 * registered for the store (the local server sends ESC/POS to it), or
 * (desktop app only) the PC's own printer, for USB receipt printers with a
 * driver, as a silent print of an 80 mm page.
 */
export const ReceiptPrinterSetting = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('network'),
      id: z.string().min(1).describe('Id of the printer as staff registered it for the store (`GET /printers`, the staff page lists it).'),
    })
    .describe('`{"type": "network", "id": "<printer id>"}`: a printer registered for the kiosk\'s store.'),
  z
    .strictObject({
      type: z.literal('system'),
      deviceName: z.string().min(1).optional().describe("The printer's name in the operating system; default its default printer."),
    })
    .describe('`{"type": "system", "deviceName": "EPSON TM-T20III"}`: the desktop app prints the receipt page silently.'),
]);
export type ReceiptPrinterSetting = z.infer<typeof ReceiptPrinterSetting>;

/**
 * A staff PIN as kiosk.json keeps it: scrypt (node:crypto) over the PIN with
 * a random salt, so the file never holds the PIN itself. Set with the CLI
 * (`kiosk pin set`).
 */
export const StaffPinHash = z
  .strictObject({
    scheme: z.literal('scrypt'),
    N: z.int().min(1024),
    r: z.int().min(1),
    p: z.int().min(1),
    salt: z.base64().min(1),
    hash: z.base64().min(1),
  })
  .describe('Hash of the staff PIN that leaves kiosk mode; written by `kiosk pin set`.');
export type StaffPinHash = z.infer<typeof StaffPinHash>;

const KioskFileFields = z
  .object({
    kiosk: z.boolean().optional().describe('Kiosk mode (full screen, no menu, no developer tools, staff leave with the PIN). Kept here so that it survives restarts and updates; `--kiosk` and `KIOSK_MODE=1` set it to true.'),
    key: z.string().min(1).optional().describe('Key of the organization, in plain text as the operator writes it: a kiosk key for the store (a write key is exchanged for one at the next start). The app replaces it with `keyEncrypted` where the system can encrypt.'),
    keyEncrypted: z.base64().min(1).optional().describe('The key, encrypted by the app with the system\'s key store (Electron safeStorage); only this user on this PC can decrypt it.'),
    storeId: z.string().min(1).optional().describe('Id of the store (`GET /stores/{id}`) whose settings the kiosk applies.'),
    staffPin: StaffPinHash.optional(),
    printer: ReceiptPrinterSetting.optional().describe('Receipt printer; without it the receipt is only shown, for longer.'),
    receiptUrl: ReceiptUrlTemplateSchema.optional(),
    update: UpdateSettings.optional().describe('Self-update of the desktop app; read by the app, never handed to the page.'),
  })
  .strict();

/**
 * What `DATA_DIR/kiosk.json` holds: what an operator writes (key, store,
 * printer, updates) and what the app and the CLI keep there (kiosk mode, the
 * encrypted key, the staff PIN's hash). A key comes with a store and a store
 * with a key; a file with neither leaves the page's set-up screen on.
 */
export const KioskConfigFile = KioskFileFields.superRefine((file, ctx) => {
  if (file.key !== undefined && file.keyEncrypted !== undefined) ctx.addIssue({ code: 'custom', path: ['keyEncrypted'], message: 'give either key or keyEncrypted, not both' });
  const hasKey = file.key !== undefined || file.keyEncrypted !== undefined;
  if (hasKey && file.storeId === undefined) ctx.addIssue({ code: 'custom', path: ['storeId'], message: 'required with a key' });
  if (!hasKey && file.storeId !== undefined) ctx.addIssue({ code: 'custom', path: ['key'], message: 'required with a storeId' });
});
export type KioskConfigFile = z.infer<typeof KioskConfigFile>;

/**
 * What the kiosk page receives: from the desktop app's preload
 * (`window.kioskBridge.config`, without a key: the app adds the
 * Authorization header itself), or from its own set-up screen in a plain browser.
 */
export const KioskConfig = z
  .object({
    key: z.string().min(1).optional().describe('Key the page sends as `Authorization: Bearer`; only in a plain browser. The desktop app never hands the page its key.'),
    storeId: z.string().min(1).describe('Id of the store (`GET /stores/{id}`) whose settings the kiosk applies.'),
    printer: ReceiptPrinterSetting.optional(),
    receiptUrl: ReceiptUrlTemplateSchema.optional(),
    apiBaseUrl: z.string().url().describe('Base URL of the local API, including /api/v1.'),
  })
  .strict();
export type KioskConfig = z.infer<typeof KioskConfig>;
