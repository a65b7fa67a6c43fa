import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../main/version.js';
import { api } from './support/api.js';
import { seriousViolations } from './support/axe.js';
import { launchChromium, screenshot } from './support/kiosk.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

let pair: SyncPair;
let browser: Browser;
let device: string;

beforeAll(async () => {
  [pair, browser] = await Promise.all([startSyncPair({ pullIntervalSeconds: 1 }), launchChromium()]);
  device = pair.local.sqlite().prepare('SELECT id FROM installation').pluck().get() as string;
  const read = api(pair.upstream.url, pair.upOrg.readKey);
  for (let seen = false; !seen; await new Promise((r) => setTimeout(r, 25))) {
    seen = (await read.get('/fleet')).body.data.some((d: { device: string }) => d.device === device);
  }
  // A second PC, on an older version, whose sales have waited for days.
  const old = await pair.up.post('/fleet/heartbeat', {
    device: 'kasse2kasse2kasse2',
    name: 'Kasse Altstadt',
    version: '0.0.1',
    stores: [],
    lastPushAt: null,
    lastPullAt: null,
    pending: 4,
    parked: 0,
    oldestPendingAt: '2026-11-20T08:00:00.000Z',
    lastSaleAt: '2026-11-20T08:00:00.000Z',
    printers: [{ name: '192.168.1.40:9100', state: 'paperOut' }],
    diskFreeBytes: 2_000_000_000,
    databaseBytes: 50_000_000,
    alerts: [
      { store: 'altstadt', kind: 'terminal-unreachable', since: '2026-11-20T06:00:00.000Z', detail: 'Terminal Kasse 1: no answer' },
      // A condition of a newer version, which this page does not know by name.
      { store: 'altstadt', kind: 'scale-offline', since: '2026-11-20T06:30:00.000Z', detail: 'Waage 2' },
    ],
    mailsAlerts: true,
  });
  expect(old.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await pair?.destroy();
});

async function openUpstreamStaffPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale: 'en-US' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(new URL('/status', pair.upstream.url).href);
  await page.locator('#staff-key').fill(pair.upOrg.writeKey);
  await page.locator('#sign-in button[type="submit"]').click();
  await page.locator('[data-table="fleet"] tbody tr').nth(1).waitFor();
  return page;
}

const names = (page: Page) => page.locator('[data-table="fleet"] tbody tr summary').allTextContents();

describe('the fleet table on the staff page of head office', () => {
  it('lists the store PCs, sorts and filters them by state, and opens one for its details', async () => {
    const page = await openUpstreamStaffPage();
    const ours = page.locator(`tr[data-device="${device}"]`);
    expect(await ours.getAttribute('data-state')).toBe('ok');
    expect(await ours.locator('td').nth(2).textContent()).toBe(VERSION);
    const other = page.locator('tr[data-device="kasse2kasse2kasse2"]');
    // Sales waiting for days count before its older version.
    expect(await other.getAttribute('data-state')).toBe('behind');
    expect(await other.locator('td').nth(1).textContent()).toBe('sales waiting long');

    // Worst state first by default; the name column sorts by name, twice reverses.
    expect((await names(page))[0]).toBe('Kasse Altstadt');
    await page.locator('th[data-column="pending"] button').click();
    expect(await page.locator('th[data-column="pending"]').getAttribute('aria-sort')).toBe('ascending');
    expect((await names(page))[1]).toBe('Kasse Altstadt');
    await page.locator('th[data-column="pending"] button').click();
    expect((await names(page))[0]).toBe('Kasse Altstadt');

    await page.locator('#fleet-filter').selectOption('ok');
    expect(await page.locator('[data-table="fleet"] tbody tr[data-device]').count()).toBe(1);
    await page.locator('#fleet-filter').selectOption('offline');
    await page.getByText('No PC in this state.').waitFor();
    await page.locator('#fleet-filter').selectOption('all');

    await other.locator('summary').click();
    const details = other.locator('.fleet-details');
    expect(await details.textContent()).toContain('192.168.1.40:9100: out of paper');
    expect(await details.textContent()).toContain('kasse2kasse2kasse2');
    // The PC's open alerts: counted in its row, each named in its details.
    expect(await other.locator('td').nth(6).textContent()).toBe('2');
    expect(await ours.locator('td').nth(6).textContent()).toBe('0');
    expect(await details.textContent()).toMatch(/Card terminal unreachable \(altstadt, [^)]+\): Terminal Kasse 1: no answer; scale-offline \(altstadt, [^)]+\): Waage 2/);
    await page.locator('#fleet').scrollIntoViewIfNeeded();
    await screenshot(page, '27-staff-fleet');
    expect({ violations: await seriousViolations(page) }).toEqual({ violations: [] });
    await page.context().close();
  });

  it('is not shown on a store PC that nobody reports to', async () => {
    const context = await browser.newContext({ locale: 'de-CH' });
    const page = await context.newPage();
    await page.goto(new URL('/status', pair.local.url).href);
    await page.locator('#staff-key').fill(pair.org.writeKey);
    await page.locator('#sign-in button[type="submit"]').click();
    await page.locator('#sync [data-sync="state"]').waitFor();
    await page.waitForResponse((res) => res.url().endsWith('/fleet'));
    expect(await page.locator('#fleet').isHidden()).toBe(true);
    await context.close();
  });
});
