import iconv from 'iconv-lite';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';

const h = useBrowserHarness({ catalog: false });

beforeAll(async () => {
  await h.client.post('/categories', { name: 'Gemüse', marginMinPercent: 20, marginMaxPercent: 40 });
  await h.client.post('/products', { name: 'Mandelgipfel', price: 220, taxCategory: '2.6', barcode: '07612343' });
});

async function signedIn(locale: string): Promise<Page> {
  const page = await h.open('/status', { locale, viewport: { width: 1280, height: 900 }, timeout: 20_000 });
  await page.locator('#staff-key').fill(h.org.writeKey);
  await page.locator('#sign-in button[type="submit"]').click();
  await page.locator('#catalog table[data-table="products"]').waitFor();
  return page;
}

/** A file as Excel in Switzerland saves "CSV (semicolon)", with German headers: cells of several kinds are wrong, barcodes have a wrong check digit or lost their leading zero, a name lost its ü, a margin is too high. */
const FILE = iconv.encode(
  [
    'Strichcode;Bezeichnung;Preis;MWST;Kategorie;Verkaufsstopp;Einstandspreis',
    '7610000000017;Rüebli Bund;gratis;2,6;Gemüse;vielleicht;',
    '7610000000024;Lauch;1,50;7.7;Obst;;',
    '7612343;Gem?se Mix;4,00;2,6;Gemüse;;1,00',
  ].join('\r\n'),
  'win1252',
);

/** The text of one column of each row of a table of the report. */
const column = (panel: Locator, table: string, at: number) =>
  panel.locator(`table[data-table="${table}"] tbody tr`).evaluateAll((trs, i) => trs.map((tr) => tr.querySelectorAll('td')[i]?.textContent ?? ''), at);

/** The server's English texts for the file: each line's message and each group's. */
async function englishMessages(): Promise<string[]> {
  const res = await h.client.request('POST', '/catalog/import?dryRun=true', { body: FILE, headers: { 'content-type': 'text/csv' } });
  const data = res.body.data as Record<'errors' | 'warnings' | 'errorGroups' | 'warningGroups', { message: string }[]>;
  return [...data.errors, ...data.warnings, ...data.errorGroups, ...data.warningGroups].map((problem) => problem.message);
}

describe("the staff page's catalog file check speaks the clerk's language", () => {
  for (const { locale, file, expected } of [
    {
      locale: 'de-CH',
      file: 'Datei',
      expected: {
        errors: [
          '„gratis“ ist kein Betrag in Franken: Schreiben Sie ihn wie auf einer Quittung, z. B. 1.95, 1,95, Fr. 1.95 oder 1\'234.50.',
          '„vielleicht“ ist weder ja noch nein: Schreiben Sie ja/nein, WAHR/FALSCH, 1/0, oui/non, VRAI/FAUX, sì/no oder VERO/FALSO.',
          '„7.7“ ist kein MWST-Satz: Verwenden Sie 0, 8.1, 2.6, 3.8.',
          'Keine Kategorie hat die ID oder den Namen „Obst“.',
        ],
        group: '„…“ ist kein Betrag in Franken: Schreiben Sie ihn wie auf einer Quittung, z. B. 1.95, 1,95, Fr. 1.95 oder 1\'234.50.',
        warnings: [
          '„7610000000017“ hat eine falsche Prüfziffer (die letzte Ziffer wäre 1): Prüfen Sie den Code auf eine vertippte Ziffer.',
          '„7610000000024“ hat eine falsche Prüfziffer (die letzte Ziffer wäre 8): Prüfen Sie den Code auf eine vertippte Ziffer.',
          '„7612343“ sieht aus wie der EAN-8-Code 07612343, dessen führende Null eine Tabelle entfernt hat; der Scanner liest 07612343: Formatieren Sie die Spalte als Text und schreiben Sie ihn so.',
          '„Gem?se Mix“ hat „?“, wo Buchstaben waren: Die Datei wurde in einem Zeichensatz ohne sie gespeichert; speichern Sie sie als „CSV UTF-8“ oder als Arbeitsmappe.',
          /^Die Marge von 75 % \(Preis CHF\s4\.00, Einstandspreis CHF\s1\.00\) liegt über dem Maximum von 40 % der Kategorie „Gemüse“: Prüfen Sie Einstandspreis und Preis\.$/,
        ],
        warningGroup: '„…“ sieht aus wie der EAN-8-Code …, dessen führende Null eine Tabelle entfernt hat; der Scanner liest …: Formatieren Sie die Spalte als Text und schreiben Sie ihn so.',
      },
    },
    {
      locale: 'fr-CH',
      file: 'Fichier',
      expected: {
        errors: [
          '« gratis » n\'est pas un montant en francs : écrivez-le comme sur un ticket, p. ex. 1.95, 1,95, Fr. 1.95 ou 1\'234.50.',
          '« vielleicht » n\'est ni oui ni non : écrivez oui/non, VRAI/FAUX, 1/0, ja/nein, WAHR/FALSCH, sì/no ou VERO/FALSO.',
          '« 7.7 » n\'est pas un taux de TVA : utilisez 0, 8.1, 2.6, 3.8.',
          'Aucune catégorie n\'a l\'id ou le nom « Obst ».',
        ],
        group: '« … » n\'est pas un montant en francs : écrivez-le comme sur un ticket, p. ex. 1.95, 1,95, Fr. 1.95 ou 1\'234.50.',
        warnings: [
          '« 7610000000017 » a une clé de contrôle fausse (le dernier chiffre serait 1) : vérifiez si un chiffre a été mal tapé.',
          '« 7610000000024 » a une clé de contrôle fausse (le dernier chiffre serait 8) : vérifiez si un chiffre a été mal tapé.',
          '« 7612343 » ressemble au code EAN-8 07612343 dont un tableur a supprimé le zéro initial ; le scanner lit 07612343 : formatez la colonne en texte et écrivez-le ainsi.',
          '« Gem?se Mix » a des « ? » à la place de lettres : le fichier a été enregistré dans un jeu de caractères sans elles ; enregistrez-le en « CSV UTF-8 » ou en classeur.',
          /^La marge de 75 % \(prix 4\.00\sCHF, prix d'achat 1\.00\sCHF\) dépasse le maximum de 40 % de la catégorie « Gemüse » : vérifiez le prix d'achat et le prix\.$/,
        ],
        warningGroup: '« … » ressemble au code EAN-8 … dont un tableur a supprimé le zéro initial ; le scanner lit … : formatez la colonne en texte et écrivez-le ainsi.',
      },
    },
  ]) {
    it(`in ${locale}: every error and warning, by line and by kind, in the page's language and none in English`, async () => {
      const page = await signedIn(locale);
      const panel = page.locator('#catalog-files');
      await panel.getByLabel(file, { exact: true }).setInputFiles({ name: 'sortiment.csv', mimeType: 'text/csv', buffer: FILE });
      await panel.locator('table[data-table="import-warnings"]').waitFor();

      expect(await column(panel, 'import-errors', 1)).toEqual(['Preis', 'Verkaufsstopp', 'MWST', 'Kategorie']);
      expect(await column(panel, 'import-errors', 2)).toEqual(expected.errors);
      expect(await column(panel, 'error-groups', 1)).toContain(expected.group);
      const warnings = await column(panel, 'import-warnings', 2);
      expect(warnings).toEqual(expected.warnings.map((text) => (typeof text === 'string' ? text : expect.stringMatching(text))));
      expect(await column(panel, 'warning-groups', 1)).toContain(expected.warningGroup);

      const shown = await panel.locator('table[data-table="import-errors"], table[data-table="error-groups"], table[data-table="import-warnings"], table[data-table="warning-groups"]').allTextContents();
      const english = await englishMessages();
      expect(english.length).toBeGreaterThan(10);
      expect(english.filter((message) => shown.some((text) => text.includes(message)))).toEqual([]);
    });
  }
});
