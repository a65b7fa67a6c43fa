import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payment } from '../shared/api/payments.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

/**
 * A refused approval whose reversal the terminal has not confirmed is money
 * taken: the staff page lists it among the open payments as charged, reversal
 * pending, with what the terminal charged, and staff reverse it in one step.
 * The server waits ten minutes before it tries the reversal again, so the page
 * shows the state in between.
 */
const h = useBrowserHarness({ server: { terminalNetwork: TEST_TERMINAL_NETWORK, paymentPace: { firstMs: 600_000, maxMs: 600_000 } } });
let sim: TerminalSimulator;

beforeAll(async () => {
  sim = await startTerminalSimulator();
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  expect((await h.client.post('/terminals', { store: h.seed.store, name: 'Terminal 1', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate })).status).toBe(201);
});
afterAll(async () => {
  await sim?.stop();
});

const paymentOf = async (id: string): Promise<Payment> => (await h.client.get(`/payments/${id}`)).body.data as Payment;

describe('the staff page', () => {
  it('flags a refused approval as charged, reversal pending, and reverses it whole', async () => {
    await sim.next({ outcome: 'approve', amount: 4200 });
    await sim.next({ outcome: 'busy' });
    const id = (await h.client.post('/payments', { store: h.seed.store, amount: 420, currency: 'CHF', reference: 'refused-1' })).body.data.id as string;
    await expect.poll(async () => (await paymentOf(id)).refusal?.reversed, { timeout: 15_000 }).toBe(false);

    const page = await h.open('/status', { locale: 'en-US', timeout: 15_000 });
    await page.locator('#staff-key').fill(h.org.writeKey);
    await page.locator('#sign-in button[type="submit"]').click();
    await page.locator('#payments-store').selectOption(h.seed.store);
    const openRow = page.locator(`[data-payments="open"] tr[data-payment="${id}"]`);
    await openRow.waitFor();
    expect(await openRow.getAttribute('data-state')).toBe('refunding');
    expect((await openRow.textContent())?.replace(/\u00a0/g, ' ')).toContain('charged CHF 42.00, reversal pending');

    await openRow.locator('[data-action="refund"]').click();
    expect(await page.locator('#refund-amount').inputValue()).toBe('42.00');
    await page.locator('[data-action="confirm-refund"]').click();
    await expect.poll(async () => (await paymentOf(id)).state, { timeout: 15_000 }).toBe('refunded');
    expect((await sim.transactions()).find((t) => t.reference === 'refused-1')?.refunded).toBe(4200);
    await expect.poll(() => page.locator(`[data-payments="today"] tr[data-payment="${id}"]`).getAttribute('data-state')).toBe('refunded');
    expect(await page.locator(`[data-payments="open"] tr[data-payment="${id}"]`).count()).toBe(0);
  });
});
