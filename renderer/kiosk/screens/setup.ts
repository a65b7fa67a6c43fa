import { createApiClient } from '../api-client.js';
import { sameOriginApi, saveBrowserConfig } from '../config.js';
import { h } from '../dom.js';
import { errorText } from '../error-text.js';
import { browserLanguage, LANGUAGE_NAMES, translator } from '../i18n/index.js';
import { STORE_LANGUAGES } from '../../../shared/languages.js';
import type { BrowserReceiptSettings } from '../config.js';
import type { StoreLanguage } from '../store-settings.js';

/** The printer and e-receipt fields as settings, or the text key of what is wrong with them. */
function receiptSettings(printerText: string, urlText: string): BrowserReceiptSettings | 'setupReceiptUrlInvalid' {
  const settings: BrowserReceiptSettings = {};
  if (printerText.trim()) settings.printer = { type: 'network', id: printerText.trim() };
  const url = urlText.trim();
  if (url) {
    if (!/^https?:\/\//.test(url) || !URL.canParse(url.replaceAll('{orderId}', 'x'))) return 'setupReceiptUrlInvalid';
    settings.receiptUrl = url;
  }
  return settings;
}

/**
 * One-time set-up in a plain browser: the kiosk's own key (never put in a
 * URL; a scanned QR code types it in), which names the store the kiosk sells
 * for, and optionally the network receipt printer and the e-receipt address.
 * They stay in localStorage. Any other kind of key is refused with the way to
 * make a kiosk key.
 */
export function setupScreen(onDone: () => void, language: StoreLanguage = browserLanguage(navigator.languages)): HTMLElement {
  const t = translator(language, {});
  document.documentElement.lang = language;
  const key = h('input', { id: 'setup-key', type: 'password', autocomplete: 'off', required: true, 'data-scan': 'own' });
  const error = h('p', { class: 'error', role: 'alert' });
  const printer = h('input', { id: 'setup-printer', type: 'text', autocomplete: 'off', 'data-scan': 'own', 'aria-describedby': 'setup-printer-hint' });
  const receiptUrl = h('input', { id: 'setup-receipt-url', type: 'url', autocomplete: 'off', 'data-scan': 'own', 'aria-describedby': 'setup-receipt-url-hint' });

  /** The store the key is bound to, or the text of what is wrong. */
  const storeOfKey = async (secret: string): Promise<{ storeId: string } | { problem: string }> => {
    const api = createApiClient({ apiBaseUrl: sameOriginApi(), key: secret });
    try {
      const current = await api.currentKey();
      if (current.kind !== 'kiosk' || current.store === null) return { problem: t('setupNotKiosk') };
      await api.store(current.store);
      return { storeId: current.store };
    } catch (err) {
      return { problem: errorText(t, err) };
    }
  };

  const form = h(
    'form',
    {
      onsubmit: async (event: Event) => {
        event.preventDefault();
        error.textContent = '';
        const receipts = receiptSettings(printer.value, receiptUrl.value);
        if (typeof receipts === 'string') {
          error.textContent = t(receipts);
          return;
        }
        const secret = key.value.trim();
        const bound = await storeOfKey(secret);
        if ('problem' in bound) {
          error.textContent = bound.problem;
          return;
        }
        const printerId = receipts.printer?.type === 'network' ? receipts.printer.id : undefined;
        if (printerId !== undefined) {
          try {
            const printers = await createApiClient({ apiBaseUrl: sameOriginApi(), key: secret }).printers();
            if (!printers.some((p) => p.id === printerId && p.store === bound.storeId)) {
              error.textContent = t('setupPrinterInvalid');
              return;
            }
          } catch (err) {
            error.textContent = errorText(t, err);
            return;
          }
        }
        saveBrowserConfig(secret, bound.storeId, receipts);
        onDone();
      },
    },
    h('label', { for: 'setup-key' }, t('setupKey')),
    key,
    h('label', { for: 'setup-printer' }, t('setupPrinter')),
    printer,
    h('p', { class: 'hint', id: 'setup-printer-hint' }, t('setupPrinterHint')),
    h('label', { for: 'setup-receipt-url' }, t('setupReceiptUrl')),
    receiptUrl,
    h('p', { class: 'hint', id: 'setup-receipt-url-hint' }, t('setupReceiptUrlHint')),
    error,
    h('button', { type: 'submit', class: 'primary' }, t('setupSave')),
  );
  const screen: HTMLElement = h(
    'section',
    { class: 'screen panel setup', 'data-screen': 'setup', lang: language },
    h(
      'nav',
      { class: 'languages', 'aria-label': t('language') },
      STORE_LANGUAGES.map((l) =>
        h('button', { type: 'button', lang: l, 'data-language': l, 'aria-pressed': String(l === language), onclick: () => screen.replaceWith(setupScreen(onDone, l)) }, LANGUAGE_NAMES[l]),
      ),
    ),
    h('h1', {}, t('setupTitle')),
    h('p', { class: 'lead' }, t('setupIntro')),
    form,
  );
  return screen;
}
