import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { useBrowserHarness } from './support/browser-harness.js';

const h = useBrowserHarness({ catalog: false });

const signedIn = (locale: string): Promise<Page> => h.staff('#mail form[data-form="mail-test"]', { locale });

describe("the staff page's mail", () => {
  it('queues a test mail to a typed address and shows it in the queue, newest first, with its state', async () => {
    const page = await signedIn('de-CH');
    const section = page.locator('#mail');
    await section.getByText('Keine offene Warnung.').waitFor();
    await section.getByText('Noch keine E-Mail.').waitFor();

    await section.getByRole('button', { name: 'Test-E-Mail senden' }).click();
    await section.getByRole('alert').filter({ hasText: 'Geben Sie die Adresse ein, an die die Test-E-Mail geht.' }).waitFor();

    await section.getByLabel('Test-E-Mail an').fill('ja');
    await section.getByRole('button', { name: 'Test-E-Mail senden' }).click();
    await section.getByRole('alert').filter({ hasText: /^Keine Test-E-Mail: / }).waitFor();
    expect((await h.client.get('/mail')).body.data).toEqual([]);

    await section.getByLabel('Test-E-Mail an').fill('inhaber@hofladen.example');
    await section.getByRole('button', { name: 'Test-E-Mail senden' }).click();
    await section.getByRole('status').filter({ hasText: 'Test-E-Mail an inhaber@hofladen.example ist bereit; sie erscheint unten.' }).waitFor();
    const [queued] = (await h.client.get('/mail')).body.data as { id: string; state: string }[];
    const row = section.locator(`tr[data-mail="${queued!.id}"]`);
    await row.waitFor();
    expect(await row.locator('td').nth(1).textContent()).toBe('Test');
    expect(await row.locator('td').nth(2).textContent()).toBe('inhaber@hofladen.example');
    // No mail server is set here: the mail waits, or has failed for good, and says so in the page's words.
    expect(['wartet', 'fehlgeschlagen']).toContain(await row.locator('td').nth(4).textContent());

    expect(await seriousViolations(page)).toEqual([]);
    expect(h.pageErrors).toEqual([]);
  });
});
