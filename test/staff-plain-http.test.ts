import { networkInterfaces } from 'node:os';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';

/** The staff page opened from another computer of the store network, over plain HTTP. */

const h = useBrowserHarness({ catalog: false, server: { host: '0.0.0.0' } });

/** This PC's address on the store network, as a till or a laptop reaches it. */
const lanAddress = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .find((entry) => !entry.internal && entry.family === 'IPv4')!.address;

/** Every request the page makes that carries a key. */
function keyedRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.headers().authorization !== undefined) seen.push(request.url());
  });
  return seen;
}

describe('the staff page over plain HTTP from another computer', () => {
  it('refuses to send a typed write key, and says how to turn on HTTPS', async () => {
    const address = `http://${lanAddress}:${h.server.running.port}/status`;
    const page = await h.open(address);
    const keyed = keyedRequests(page);
    await page.locator('#status', { hasText: 'running' }).waitFor();
    await page.locator('#staff-key').fill(h.org.writeKey);
    await page.locator('#sign-in button[type="submit"]').click();
    const message = page.locator('#message');
    await message.filter({ hasText: 'TLS=self-signed' }).waitFor();
    expect(await message.textContent()).toContain(`open https://${lanAddress}:${h.server.running.port}/status`);
    expect({ keyed, signedIn: await page.locator('[data-action="sign-out"]').count() }).toEqual({ keyed: [], signedIn: 0 });
  });

  it('signs in as before on this PC itself (loopback)', async () => {
    const page = await h.open(`http://127.0.0.1:${h.server.running.port}/status`);
    await page.locator('#status', { hasText: 'running' }).waitFor();
    expect(await page.locator('#message').isHidden()).toBe(true);
    await page.locator('#staff-key').fill(h.org.writeKey);
    await page.locator('#sign-in button[type="submit"]').click();
    await page.locator('[data-action="sign-out"]').waitFor();
  });
});
