import type { Store } from '../../../shared/api/stores.js';
import { createApiClient } from '../api-client.js';
import { sameOriginApi, saveBrowserConfig } from '../config.js';
import { h, replaceChildren } from '../dom.js';
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
 * One-time set-up in a plain browser: the write key (never put in a URL),
 * the store, picked from `GET /stores` or typed, and optionally the network
 * receipt printer and the e-receipt address. They stay in localStorage.
 */
export function setupScreen(onDone: () => void, language: StoreLanguage = browserLanguage(navigator.languages)): HTMLElement {
  const t = translator(language, {});
  document.documentElement.lang = language;
  const key = h('input', { id: 'setup-key', type: 'password', autocomplete: 'off', required: true, 'data-scan': 'own' });
  const storeField = h('div', { class: 'store-field' });
  const error = h('p', { class: 'error', role: 'alert' });
  const printer = h('input', { id: 'setup-printer', type: 'text', autocomplete: 'off', 'data-scan': 'own', 'aria-describedby': 'setup-printer-hint' });
  const receiptUrl = h('input', { id: 'setup-receipt-url', type: 'url', autocomplete: 'off', 'data-scan': 'own', 'aria-describedby': 'setup-receipt-url-hint' });
  let storeInput: HTMLInputElement | HTMLSelectElement = h('input', { id: 'setup-store', type: 'text', required: true, autocomplete: 'off', 'data-scan': 'own' });
  replaceChildren(storeField, h('label', { for: 'setup-store' }, t('setupStoreId')), storeInput);

  const loadStores = async () => {
    error.textContent = '';
    let stores: Store[];
    try {
      stores = (await createApiClient({ apiBaseUrl: sameOriginApi(), key: key.value.trim() }).stores()).filter((s) => !s.deleted);
    } catch (err) {
      error.textContent = errorText(t, err);
      return;
    }
    if (stores.length === 0) {
      error.textContent = t('setupNoStores');
      return;
    }
    storeInput = h('select', { id: 'setup-store', required: true }, stores.map((s) => h('option', { value: s.id }, `${s.name}${s.city ? `, ${s.city}` : ''}`)));
    replaceChildren(storeField, h('label', { for: 'setup-store' }, t('setupStore')), storeInput);
  };

  const form = h(
    'form',
    {
      onsubmit: async (event: Event) => {
        event.preventDefault();
        error.textContent = '';
        const config = { apiBaseUrl: sameOriginApi(), key: key.value.trim(), storeId: storeInput.value.trim() };
        const receipts = receiptSettings(printer.value, receiptUrl.value);
        if (typeof receipts === 'string') {
          error.textContent = t(receipts);
          return;
        }
        try {
          const client = createApiClient(config);
          await client.store(config.storeId);
          const printerId = receipts.printer?.type === 'network' ? receipts.printer.id : undefined;
          if (printerId !== undefined && !(await client.printers()).some((p) => p.id === printerId && p.store === config.storeId)) {
            error.textContent = t('setupPrinterInvalid');
            return;
          }
        } catch (err) {
          error.textContent = errorText(t, err);
          return;
        }
        saveBrowserConfig(config.key, config.storeId, receipts);
        onDone();
      },
    },
    h('label', { for: 'setup-key' }, t('setupKey')),
    key,
    h('button', { type: 'button', class: 'secondary', 'data-action': 'load-stores', onclick: () => void loadStores() }, t('setupLoadStores')),
    storeField,
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
