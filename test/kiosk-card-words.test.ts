import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { CODES } from './support/kiosk-catalog.js';
import { scan } from './support/kiosk.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

// What a German-speaking customer reads at the card step, in Chromium against
// the terminal simulator: the kiosk's own words for every outcome, never the
// terminal's or the server's technical text.

const h = useBrowserHarness({ server: { terminalNetwork: TEST_TERMINAL_NETWORK } });
let sim: TerminalSimulator;
/** A store whose terminal never answers. */
let deadStore: string;

beforeAll(async () => {
  sim = await startTerminalSimulator();
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  const terminal = { protocol: 'nexo-local', host, poiId, keyIdentifier, keyVersion, passphrase, certificate };
  expect((await h.client.post('/terminals', { ...terminal, store: h.seed.store, name: 'Terminal 1', port })).status).toBe(201);
  deadStore = (await h.client.post('/stores', { name: 'Hofladen Ohne Terminal', paymentCash: true, paymentProviderA: true })).body.id;
  await h.client.post('/terminals', { ...terminal, store: deadStore, name: 'Terminal aus', port: 9 });
});

afterAll(async () => {
  await sim?.stop();
});

const headline = (page: Page) => page.locator('[data-screen="card"] [data-headline]');
const cardText = async (page: Page) => (await page.locator('[data-screen="card"]').textContent()) ?? '';

async function payByCard(page: Page): Promise<string> {
  await scan(page, CODES.milk);
  await expect.poll(() => page.locator('.cart li.line').count()).toBe(1);
  await page.locator('[data-action="pay"]').click();
  await page.locator('[data-method="providerA"]').click();
  const display = page.locator('[data-screen="card"] [data-payment]');
  await display.waitFor();
  return (await display.getAttribute('data-payment')) as string;
}

/** The simulator listens again after `unreachable`. */
const simulatorBack = () => expect.poll(() => sim.transactions().then(() => true, () => false), { timeout: 30_000 }).toBe(true);

// A test that took the simulator off the network leaves it back for the next.
afterEach(simulatorBack);

const stateOf = async (id: string) => ((await h.client.get(`/payments/${id}`)).body.data as { state: string; message: string | null; reference: string });

describe('every outcome in the kiosk\'s own words (de)', () => {
  it.each([
    ['decline', 'declined', 'Die Zahlung wurde abgelehnt. Es wurde nichts belastet.'],
    ['busy', 'busy', 'Das Zahlterminal ist mit einer anderen Zahlung beschäftigt. Es wurde nichts belastet. Bitte versuchen Sie es gleich noch einmal.'],
    ['cancel', 'cancelled', 'Die Zahlung wurde abgebrochen. Es wurde nichts belastet.'],
  ])('%s: the customer reads the German words, and the terminal\'s text is only in the log', async (outcome, shown, words) => {
    await sim.next({ outcome });
    const page = await h.kiosk();
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    const id = await payByCard(page);
    await expect.poll(() => page.locator('[data-screen="card"] [data-outcome]').getAttribute('data-outcome')).toBe(shown);
    expect(await headline(page).textContent()).toBe(words);
    const { message } = await stateOf(id);
    expect(message).toBeTruthy();
    expect(await cardText(page)).not.toContain(message!);
    expect(logged.some((line) => line.includes(message!))).toBe(true);
  });

  it('terminal away during the payment: "Kartenterminal nicht erreichbar", not the connection error', async () => {
    const page = await h.kiosk();
    await scan(page, CODES.milk);
    await page.locator('[data-action="pay"]').click();
    await page.locator('[data-method="providerA"]:not([disabled])').waitFor();
    await sim.unreachable(8000);
    await page.locator('[data-method="providerA"]').click();
    await expect.poll(() => page.locator('[data-screen="card"] [data-outcome]').getAttribute('data-outcome'), { timeout: 15_000 }).toBe('unreachable');
    expect(await headline(page).textContent()).toBe('Kartenterminal nicht erreichbar. Es wurde nichts belastet.');
    expect(await cardText(page)).not.toMatch(/ECONN|could not be reached|127\.0\.0\.1/);
  });

  it('an answer lost at the terminal: "still confirming" while the server asks the terminal', async () => {
    await sim.next({ outcome: 'lose-answer', delayMs: 4000 });
    const page = await h.kiosk();
    await payByCard(page);
    await expect.poll(() => page.locator('[data-screen="card"] [data-outcome]').getAttribute('data-outcome'), { timeout: 15_000 }).toBe('confirming');
    expect(await headline(page).textContent()).toBe('Das Zahlterminal bestätigt die Zahlung…');
    await page.locator('[data-screen="receipt"]').waitFor({ timeout: 20_000 });
  });
});

describe('Card while the terminal does not answer', () => {
  it('stays on the payment screen, greyed, with the reason', async () => {
    const page = await h.kiosk({ storeId: deadStore });
    await scan(page, CODES.milk);
    await page.locator('[data-action="pay"]').click();
    const card = page.locator('[data-method="providerA"]');
    await card.waitFor();
    expect(await card.isDisabled()).toBe(true);
    expect(await card.textContent()).toBe('KarteKartenterminal nicht erreichbar');
    expect(await page.locator('[data-method="cash"]').isEnabled()).toBe(true);
  });
});

describe('a cancel the terminal cannot hear', () => {
  it('says so before the terminal answers, and offers Personal rufen', async () => {
    await sim.next({ outcome: 'approve', delayMs: 15_000 });
    const page = await h.kiosk();
    const id = await payByCard(page);
    await expect.poll(() => page.locator('[data-screen="card"] [data-payment-state]').getAttribute('data-payment-state')).toBe('pending');
    await sim.unreachable(20_000);
    await page.locator('[data-action="cancel-payment"]').click();
    const callStaff = page.locator('[data-action="call-staff"]');
    await callStaff.waitFor({ timeout: 10_000 });
    // Said while the payment was still open at the terminal: the customer is not left waiting for it.
    expect(['pending', 'unknown']).toContain((await stateOf(id)).state);
    expect(await headline(page).textContent()).toBe('Das Zahlterminal antwortet nicht, die Zahlung kann gerade nicht abgebrochen werden. Bitte rufen Sie das Personal.');
    expect(await callStaff.textContent()).toBe('Personal rufen');
    await callStaff.click();
    await page.locator('[data-screen="staff"]').waitFor();
    // The terminal comes back and approves: the sale is recorded, the receipt shows.
    await page.locator('[data-screen="receipt"]').waitFor({ timeout: 40_000 });
  });
});

describe('after the terminal approved', () => {
  it('never again asks the customer to follow the terminal, also while the kiosk\'s network is down', async () => {
    await sim.next({ outcome: 'approve', delayMs: 2000 });
    const page = await h.kiosk();
    const id = await payByCard(page);
    await expect.poll(() => headline(page).getAttribute('data-headline')).toBe('cardFollowTerminal');
    // Every headline the card step shows from now on, in the page, so none is missed between two looks.
    await page.evaluate(`(() => {
      const seen = (window.headlines = []);
      new MutationObserver(() => {
        const key = document.querySelector('[data-screen="card"] [data-headline]')?.getAttribute('data-headline');
        if (key && seen.at(-1) !== key) seen.push(key);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    })()`);
    await page.route(/\/api\/v1\//, (route) => route.abort('internetdisconnected'));
    await page.locator('[data-screen="card"] [data-waiting]').waitFor();
    const { reference } = await stateOf(id);
    await expect.poll(async () => (await sim.transactions()).find((t) => t.reference === reference)?.state, { timeout: 15_000 }).toBe('approved');
    expect(await headline(page).getAttribute('data-headline')).toBe('cardChecking');
    await page.unroute(/\/api\/v1\//);
    await page.locator('[data-screen="receipt"]').waitFor({ timeout: 20_000 });
    const seen = (await page.evaluate('window.headlines')) as string[];
    expect(seen).not.toContain('cardFollowTerminal');
    expect(seen).toContain('cardChecking');
  });
});

describe('the receipt of a card sale', () => {
  it('names the brand, not its code, and gives the terminal\'s time in the store\'s time zone', async () => {
    await sim.next({ outcome: 'approve', brand: 'mc' });
    const page = await h.kiosk();
    const id = await payByCard(page);
    await page.locator('[data-card-receipt]').waitFor();
    const rows = await page.locator('[data-card-receipt] tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toContainEqual(['Brand', 'Mastercard']);
    const { reference } = (await h.client.get(`/payments/${id}`)).body.data as { reference: string };
    const approvedAt = new Date((await sim.transactions()).find((t) => t.reference === reference)!.decidedAt);
    const zurich = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Zurich', dateStyle: 'short', timeStyle: 'medium' }).format(approvedAt).split(' ');
    expect(rows).toContainEqual(['Date', zurich[0]]);
    expect(rows).toContainEqual(['Time', zurich[1]]);
    const receipt = (await page.locator('[data-screen="receipt"]').textContent()) ?? '';
    expect(receipt).toContain('Mastercard');
    expect(receipt).not.toMatch(/\bmc\b/);
  });
});
