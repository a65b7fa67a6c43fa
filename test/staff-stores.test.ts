import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';

const h = useBrowserHarness({ catalog: false });

const signedIn = (locale: string): Promise<Page> => h.staff('#stores table[data-table="stores"]', { locale });

const storeNamed = async (name: string) => ((await h.client.get('/stores?limit=100')).body.data as { name: string; id: string }[]).find((s) => s.name === name);

describe("the staff page's stores", () => {
  it('creates a store with its language, time zone and the owner\'s address, and edits it, all without curl', async () => {
    const page = await signedIn('de-CH');
    const section = page.locator('#stores');
    const dialog = page.locator('#store-dialog');
    await section.getByRole('button', { name: 'Neuer Laden' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('Hofladen Birkenhof');
    await dialog.getByLabel('Ort', { exact: true }).fill('Worb');
    await dialog.getByLabel('Hauptsprache').selectOption('fr');
    await dialog.getByLabel('Allgemeine Marge (%)').fill('22,5');
    await dialog.getByLabel('E-Mail der Inhaberin / des Inhabers für Warnungen').fill('ja');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    // The server's refusal stands next to the field, in German.
    await dialog.locator('#store-adminMail-problem', { hasText: 'Der Server hat diesen Wert nicht angenommen.' }).waitFor();
    expect(await storeNamed('Hofladen Birkenhof')).toBeUndefined();

    await dialog.getByLabel('E-Mail der Inhaberin / des Inhabers für Warnungen').fill('anna@birkenhof.ch');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await section.getByRole('status').filter({ hasText: 'Der Laden Hofladen Birkenhof ist erstellt.' }).waitFor();
    const created = await storeNamed('Hofladen Birkenhof');
    expect(created).toMatchObject({ city: 'Worb', languageMain: 'fr', generalMargin: 22.5, adminMail: 'anna@birkenhof.ch', timeZone: 'Europe/Zurich' });
    // A kiosk key can be made for the new store straight away.
    await expect.poll(() => page.locator('#key-store option').allTextContents()).toContain('Hofladen Birkenhof');

    await section.getByRole('button', { name: 'Hofladen Birkenhof bearbeiten' }).click();
    await dialog.getByLabel('Ort', { exact: true }).fill('');
    await dialog.getByLabel('Allgemeine Marge (%)').fill('120');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await dialog.locator('#store-generalMargin-problem').waitFor();
    await dialog.getByLabel('Allgemeine Marge (%)').fill('18');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await section.getByRole('status').filter({ hasText: 'Der Laden Hofladen Birkenhof ist gespeichert.' }).waitFor();
    const edited = (await h.client.get(`/stores/${created!.id}`)).body.data;
    expect(edited).toMatchObject({ generalMargin: 18, adminMail: 'anna@birkenhof.ch', languageMain: 'fr' });
    expect(edited.city ?? '').toBe('');
  });
});
