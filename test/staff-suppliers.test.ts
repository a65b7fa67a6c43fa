import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { useBrowserHarness } from './support/browser-harness.js';
import { IBANS } from './support/settlement-shop.js';

const h = useBrowserHarness({ catalog: false });

async function created(path: string, body: unknown): Promise<string> {
  const res = await h.client.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.id as string;
}

const signedIn = (locale: string): Promise<Page> => h.staff('#suppliers form[data-form="settle"]', { locale });

/** A moment as the page's `datetime-local` field takes it, in the browser's (and this process's) time zone. */
function localInput(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFile((await download.path())!);
}

describe("the staff page's suppliers", () => {
  it('settles up to now, shows each payout and a missing IBAN, downloads the payout file and a statement and sends the statements', async () => {
    expect((await h.client.post('/payout-account', { name: 'Hofladen Dorf AG', iban: IBANS.shop, city: 'Bern', country: 'CH' })).status).toBe(200);
    const store = await created('/stores', { name: 'Hofladen Dorf', generalMargin: 20, languageMain: 'de' });
    const mueller = await created('/suppliers', { name: 'Müller & Söhne', supplierMargin: 15, iban: IBANS.mueller, payoutsEnabled: true, payoutEmail: 'geld@mueller.example' });
    const brunner = await created('/suppliers', { name: 'Hof Brunner', payoutsEnabled: true });
    const saft = await created('/products', { name: 'Apfelsaft', price: 450, taxCategory: '2.6', supplier: mueller });
    const kaese = await created('/products', { name: 'Bergkäse', price: 1200, taxCategory: '2.6', supplier: brunner });
    await created('/orders', { store, products: [{ productId: saft, quantity: 2 }] });
    await created('/orders', { store, products: [{ productId: kaese, quantity: 1 }] });
    const recorded = Date.now();

    const page = await signedIn('de-CH');
    const section = page.locator('#suppliers');
    await section.getByText('Noch keine Abrechnung.').waitFor();
    // The field takes whole seconds: settle from the next whole second on, so both sales fall before `to`.
    await expect.poll(() => Date.now() >= Math.floor(recorded / 1000) * 1000 + 1000).toBe(true);
    const to = localInput(new Date());
    await section.getByLabel('Verkäufe erfasst vor').fill(to);
    await section.getByLabel('Laden', { exact: true }).selectOption({ label: 'Hofladen Dorf' });
    await section.getByRole('button', { name: 'Abrechnen' }).click();
    await section.getByRole('status').filter({ hasText: 'Abrechnung Nr. 1 ist erstellt.' }).waitFor();

    const settlement = section.locator('article[data-settlement]');
    expect(await settlement.locator('h3').textContent()).toBe('Abrechnung Nr. 1');
    const row = (id: string) => settlement.locator(`tr[data-supplier="${id}"]`);
    // Müller: 2 x 4.50 at its own 15 %: 1.35 margin, 7.65 paid. Brunner: 12.00 at the store's 20 %: 9.60, but no IBAN.
    expect(await row(mueller).locator('[data-payout]').textContent()).toMatch(/7\.65$/);
    expect(await row(mueller).locator('[data-problem]').textContent()).toBe('–');
    expect(await row(brunner).locator('[data-payout]').textContent()).toMatch(/9\.60$/);
    expect(await row(brunner).locator('[data-problem]').textContent()).toMatch(/^Keine IBAN: Tragen Sie die IBAN des Lieferanten ein/);
    expect(await settlement.locator('[data-totals]').textContent()).toMatch(/^Umsatz CHF.21\.00, Marge CHF.3\.75, Auszahlung CHF.17\.25$/);

    const file = (await downloaded(page, () => settlement.getByRole('button', { name: 'Auszahlungsdatei herunterladen' }).click())).toString('utf8');
    expect(file.startsWith('<?xml')).toBe(true);
    expect(file).toContain(IBANS.mueller);
    expect(file).toContain('<NbOfTxs>1</NbOfTxs>');
    const pdf = await downloaded(page, () => row(mueller).getByRole('button', { name: 'PDF' }).click());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Only Müller has an address to mail its statement to.
    await settlement.getByRole('button', { name: 'Abrechnungen senden' }).click();
    await section.getByRole('status').filter({ hasText: '1 Abrechnung zum Versand bereit.' }).waitFor();

    // The same moment again finds nothing left: told in German, not as a server error.
    await section.getByLabel('Verkäufe erfasst vor').fill(to);
    await section.getByRole('button', { name: 'Abrechnen' }).click();
    await section.getByRole('alert').filter({ hasText: 'Es gibt nichts abzurechnen' }).waitFor();
    // Every control of the section, the settlement's table included, is named for assistive technology.
    expect(await seriousViolations(page)).toEqual([]);
    expect(h.pageErrors).toEqual([]);
  });
});
