import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../main/version.js';
import type { Api } from './api.js';

// The page's globals, as the functions handed to page.evaluate see them (the tests compile without DOM types).
declare const document: { activeElement: { dispatchEvent(e: unknown): boolean } | null; body: { dispatchEvent(e: unknown): boolean } };
declare const KeyboardEvent: new (type: string, init: { key: string; bubbles: boolean }) => unknown;

/** Debian's Chromium, or the Chromium or Chrome named by `CHROMIUM_PATH` (npm test's first step checks it is there). */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium; playwright gives every launch a fresh temporary profile (user data dir). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface KioskSetup {
  key: string;
  storeId: string;
  /** kiosk.json's receipt printer and e-receipt address. */
  printer?: { type: 'network'; id: string } | { type: 'system'; deviceName?: string };
  receiptUrl?: string;
}

/**
 * Opens the kiosk the way the desktop app does: the configuration arrives as
 * `window.kioskBridge.config` before the page's own script runs.
 */
export async function openKiosk(
  browser: Browser,
  apiUrl: string,
  setup: KioskSetup,
  viewport = { width: 1920, height: 1080 },
  beforeLoad?: (page: Page) => Promise<void>,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  // Waits for what the page shows, not timings: three test files share two cores with Chromium.
  context.setDefaultTimeout(15_000);
  await context.addInitScript((config) => {
    (globalThis as unknown as { kioskBridge: unknown }).kioskBridge = { config };
  }, { ...setup, apiBaseUrl: apiUrl });
  const page = await context.newPage();
  await beforeLoad?.(page);
  await page.goto(new URL('/', apiUrl).href);
  await page.locator('[data-screen="shop"]').waitFor();
  return { context, page };
}

/** A keyboard-wedge scanner: the code's keys and Enter in one burst, wherever the focus is. */
export async function scan(page: Page, code: string): Promise<void> {
  await page.evaluate((keys) => {
    const target = document.activeElement ?? document.body;
    for (const key of keys) target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  }, [...code, 'Enter']);
}

const SCREENS_DIR = join(PROJECT_ROOT, 'docs', 'screens');

/** With KIOSK_SCREENSHOTS=1 the tests refresh the pictures in docs/screens/ that the README shows. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.KIOSK_SCREENSHOTS !== '1') return;
  await mkdir(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENS_DIR, `${name}.png`) });
}

/** ICAO 9303 check digit (weights 7, 3, 1; `<` counts 0, letters 10 to 35). */
export function mrzCheck(field: string): string {
  const value = (c: string) => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
  return String([...field].reduce((acc, c, i) => acc + value(c) * ([7, 3, 1][i % 3] as number), 0) % 10);
}

/** The three 30-character lines of a Swiss ID card (TD1) with valid check digits. */
export function td1(lastName: string, firstName: string, birthYymmdd: string): string[] {
  const docNumber = 'C1234567<';
  const line1 = `IDCHE${docNumber}${mrzCheck(docNumber)}`.padEnd(30, '<');
  const expiry = '341231';
  const line2Start = `${birthYymmdd}${mrzCheck(birthYymmdd)}M${expiry}${mrzCheck(expiry)}CHE`.padEnd(29, '<');
  const composite = line1.slice(5, 30) + line2Start.slice(0, 7) + line2Start.slice(8, 15) + line2Start.slice(18, 29);
  const line2 = line2Start + mrzCheck(composite);
  const line3 = `${lastName}<<${firstName.replace(/ /g, '<')}`.padEnd(30, '<');
  return [line1, line2, line3];
}

/** Every order of the organization recorded today or later, read back through the API. */
export async function ordersSince(client: Api, since: Date) {
  const res = await client.get(`/orders?start=${since.toISOString()}&end=${new Date(Date.now() + 60_000).toISOString()}&limit=100`);
  return res.body.data as { id: string; orderId: string; price: number; paymentMethod?: string; products: Record<string, unknown>[] }[];
}

/** The two lines of a TD2 ID card (36 characters) or a TD3 passport (44), with valid check digits. */
export function td2or3(format: 'TD2' | 'TD3', lastName: string, firstName: string, birthYymmdd: string): string[] {
  const width = format === 'TD2' ? 36 : 44;
  const line1 = `${format === 'TD2' ? 'I<' : 'P<'}CHE${lastName}<<${firstName.replace(/ /g, '<')}`.padEnd(width, '<');
  const doc = 'X1234567<';
  const expiry = '341231';
  const optional = format === 'TD2' ? '<'.repeat(7) : '<'.repeat(14);
  const personal = format === 'TD3' ? optional + mrzCheck(optional) : optional;
  const body = `${doc}${mrzCheck(doc)}CHE${birthYymmdd}${mrzCheck(birthYymmdd)}F${expiry}${mrzCheck(expiry)}${personal}`;
  const composite = body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 28) + (format === 'TD3' ? personal : optional);
  return [line1, body + mrzCheck(composite)];
}

/** Staff hold the logo (or the store's name) until their code entry opens. */
export async function holdStaffGesture(page: Page): Promise<void> {
  const box = await page.locator('[data-staff-gesture]').boundingBox();
  if (!box) throw new Error('the header shows no logo to hold');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.locator('[data-dialog="staff"]').waitFor();
  await page.mouse.up();
}

/** Date of birth `years` years before today, moved by `days`, as the kiosk's form takes it. */
export function birthDate(years: number, days = 0) {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  d.setDate(d.getDate() + days);
  return { day: String(d.getDate()), month: String(d.getMonth() + 1), year: String(d.getFullYear()) };
}

/** Types a birth date into the German age check and submits it. */
export async function enterBirthDate(page: Page, date: { day: string; month: string; year: string }) {
  await page.getByLabel('Tag').fill(date.day);
  await page.getByLabel('Monat').fill(date.month);
  await page.getByLabel('Jahr').fill(date.year);
  await page.getByRole('button', { name: 'Prüfen' }).click();
}
