import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../shared/api/update-status.js';
import { api } from './support/api.js';
import { launchChromium } from './support/kiosk.js';
import { startTestServer, type TestServer } from './support/server.js';

/** Staff read on the status page which version runs, which one is available and where the update stands. */

let headless: TestServer;
let desktop: TestServer;
let browser: Browser;
let update: UpdateStatus = {
  state: 'waiting',
  currentVersion: '0.1.0',
  availableVersion: '0.2.0',
  lastCheckAt: '2026-11-24T06:00:00.000Z',
  message: null,
};

beforeAll(async () => {
  [headless, desktop, browser] = await Promise.all([
    startTestServer(),
    startTestServer({ updateStatus: () => update }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await Promise.all([headless.destroy(), desktop.destroy(), browser.close()]);
});

describe('GET /update', () => {
  it('answers without a key; the headless server does not update itself', async () => {
    const res = await api(headless.url).get('/update');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { state: 'off', currentVersion: expect.any(String), availableVersion: null, lastCheckAt: null, message: null },
    });
  });

  it("reports the desktop app's update as it stands at each request", async () => {
    expect((await api(desktop.url).get('/update')).body).toEqual({ data: update });
    update = { ...update, state: 'failed', message: 'The update server did not answer.' };
    expect((await api(desktop.url).get('/update')).body.data.state).toBe('failed');
  });
});

describe('the status page', () => {
  it('shows the version running, the version available and the update state', async () => {
    update = { ...update, state: 'waiting', message: null };
    const page = await browser.newPage();
    try {
      await page.goto(`${new URL(desktop.url).origin}/status`);
      const shown = page.locator('#update');
      await shown.filter({ hasText: '0.2.0' }).waitFor();
      expect(await shown.textContent()).toContain('installs when the kiosk is idle');
      expect(await page.locator('#version').textContent()).toMatch(/\d+\.\d+\.\d+/);
    } finally {
      await page.close();
    }
  });
});
