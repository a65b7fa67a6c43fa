import { describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../renderer/kiosk/api-client.js';
import { contrastRatio, parseRgb, readableText } from '../renderer/kiosk/contrast.js';
import { errorText } from '../renderer/kiosk/error-text.js';
import { browserLanguage, translator } from '../renderer/kiosk/i18n/index.js';

describe('amounts and counts in the customer\'s language', () => {
  // Grouping and the decimal sign follow the runtime's locale data; the currency and its place are what a customer relies on.
  it.each([
    ['de', /^CHF\s4[.,]50$/],
    ['fr', /^4[.,]50\sCHF$/],
    ['it', /^CHF\s4[.,]50$/],
    ['en', /^CHF\s4[.,]50$/],
  ] as const)('writes cents with the currency in %s', (language, written) => {
    expect(translator(language, {}).money(450)).toMatch(written);
    expect(translator(language, {}).money(-120)).toMatch(/-.*1[.,]20|1[.,]20.*-/);
  });

  it.each([
    ['de', 1, 'Offline, 1 Verkauf wartet'],
    ['de', 2, 'Offline, 2 Verkäufe warten'],
    ['de', 0, 'Offline, 0 Verkäufe warten'],
    ['fr', 0, 'Hors ligne, 0 vente en attente'],
    ['fr', 1, 'Hors ligne, 1 vente en attente'],
    ['fr', 3, 'Hors ligne, 3 ventes en attente'],
    ['it', 1, 'Offline, 1 vendita in attesa'],
    ['it', 5, 'Offline, 5 vendite in attesa'],
    ['en', 1, 'Offline, 1 sale waiting'],
    ['en', 2, 'Offline, 2 sales waiting'],
  ] as const)('picks the plural form (%s, %i)', (language, count, text) => {
    expect(translator(language, {}).plural('offline', count)).toBe(text);
  });

  it('takes the store\'s override of one plural form', () => {
    expect(translator('de', { de: { offline_one: 'Offline: {count} Verkauf offen' } }).plural('offline', 1)).toBe('Offline: 1 Verkauf offen');
  });

  it('speaks the browser\'s language before a store is known, German when it has none of the four', () => {
    expect(browserLanguage(['fr-CH', 'de'])).toBe('fr');
    expect(browserLanguage(['es-ES', 'it-IT'])).toBe('it');
    expect(browserLanguage(['ja'])).toBe('de');
    expect(browserLanguage([])).toBe('de');
  });
});

describe('readable text on the store\'s colours', () => {
  it('computes WCAG contrast', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([255, 191, 0], [255, 255, 255])).toBeLessThan(1.7);
    expect(parseRgb('rgb(29, 43, 58)')).toEqual([29, 43, 58]);
    expect(parseRgb('rgba(1, 2, 3, 0.5)')).toEqual([1, 2, 3]);
    expect(parseRgb('color(srgb 1 0 0)')).toBeUndefined();
  });

  it.each([
    { background: [238, 243, 234], wanted: [27, 42, 18], expected: [27, 42, 18] },
    { background: [29, 43, 58], wanted: [42, 59, 76], expected: [255, 255, 255] },
    { background: [250, 250, 250], wanted: [200, 200, 200], expected: [17, 20, 24] },
    { background: [11, 92, 173], wanted: undefined, expected: [255, 255, 255] },
  ] as const)('keeps the store\'s colour only where it reads ($wanted on $background)', ({ background, wanted, expected }) => {
    const text = readableText(background, wanted);
    expect(text).toEqual(expected);
    expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('a failed request in the customer\'s words', () => {
  it.each([
    [new ApiError(401, 'missing or invalid API key', 'GET /stores'), 'Der Server nimmt den Schlüssel dieses Kiosks nicht an. Der Kiosk muss neu eingerichtet werden.'],
    [new ApiError(403, 'write key required', 'GET /stores'), 'Der Server nimmt den Schlüssel dieses Kiosks nicht an. Der Kiosk muss neu eingerichtet werden.'],
    [new ApiError(404, 'store abc not found', 'GET /stores'), 'Der Server kennt den gesuchten Laden oder das Produkt nicht.'],
    [new ApiError(400, 'q: must be a string', 'GET /stores'), 'Der Server konnte das nicht annehmen. Bitte versuchen Sie es noch einmal.'],
    [new ApiError(503, 'disk full', 'GET /stores'), 'Der Server hat gerade ein Problem. Bitte versuchen Sie es gleich noch einmal.'],
    [new NetworkError('fetch failed'), 'Der Kiosk erreicht seinen Server nicht. Bitte versuchen Sie es gleich noch einmal.'],
  ])('maps %s', (err, text) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(errorText(translator('de', {}), err)).toBe(text);
  });
});
