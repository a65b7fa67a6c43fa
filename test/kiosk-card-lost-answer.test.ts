import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { CODES } from './support/kiosk-catalog.js';
import { scan } from './support/kiosk.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

// The kiosk in Chromium against the terminal simulator: the server takes the
// first POST /payments of each sale, its answer never reaches the kiosk, and
// the kiosk's network then drops for 2.5 s. The kiosk must find the payment
// the server started rather than start a second one.

const SALES = 10;
const DROP_MS = 2500;
const h = useBrowserHarness({ server: { terminalNetwork: TEST_TERMINAL_NETWORK } });
let sim: TerminalSimulator;

beforeAll(async () => {
  sim = await startTerminalSimulator();
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  const registered = await h.client.post('/terminals', { store: h.seed.store, name: 'Terminal 1', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate });
  expect(registered.status).toBe(201);
});

afterAll(async () => {
  await sim?.stop();
});

/**
 * Loses the answer to the first POST /payments of each sale (the server got
 * it), then fails every request of the kiosk to its server for DROP_MS from
 * the next one on.
 */
async function loseFirstStartAnswer(page: Page): Promise<{ lost: string[] }> {
  const lost: string[] = [];
  const seen = new Set<string>();
  let droppedUntil = 0;
  let dropNext = false;
  await page.route(/\/api\/v1\//, async (route: Route) => {
    const request = route.request();
    if (dropNext) {
      dropNext = false;
      droppedUntil = Date.now() + DROP_MS;
    }
    if (Date.now() < droppedUntil) return route.abort('internetdisconnected');
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/payments')) {
      const reference = (request.postDataJSON() as { reference: string }).reference;
      if (!seen.has(reference)) {
        seen.add(reference);
        await route.fetch();
        lost.push(reference);
        dropNext = true;
        return route.abort('connectionreset');
      }
    }
    return route.continue();
  });
  return { lost };
}

describe('a lost answer to the start of a card payment, then a network drop', () => {
  it(`charges each of ${SALES} sales once and records each once`, async () => {
    const page = await h.kiosk();
    const faults = await loseFirstStartAnswer(page);
    for (let sale = 0; sale < SALES; sale += 1) {
      await sim.next({ outcome: 'approve' });
      await scan(page, CODES.milk);
      await expect.poll(() => page.locator('.cart li.line').count()).toBe(1);
      await page.locator('[data-action="pay"]').click();
      await page.locator('[data-method="providerA"]').click();
      await page.locator('[data-screen="receipt"]').waitFor({ timeout: 30_000 });
      await page.locator('[data-action="done"]').click();
      await page.locator('[data-screen="receipt"]').waitFor({ state: 'detached' });
    }
    expect(faults.lost).toHaveLength(SALES);
    const transactions = await sim.transactions();
    const charges = faults.lost.map((reference) => transactions.filter((t) => t.reference === reference && t.state === 'approved').length);
    expect(charges).toEqual(faults.lost.map(() => 1));
    for (const reference of faults.lost) {
      const payments = (await h.client.get(`/payments?reference=${encodeURIComponent(reference)}`)).body.data as { state: string; order: string | null }[];
      expect(payments.map((p) => [p.state, p.order !== null])).toEqual([['approved', true]]);
    }
  }, 240_000);
});
