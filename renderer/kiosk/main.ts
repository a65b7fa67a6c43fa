import { createApiClient, type ApiClient } from './api-client.js';
import { KioskApp } from './app.js';
import { forgetBrowserConfig, loadConfig } from './config.js';
import { h } from './dom.js';
import { openSalesJournal } from './sales-journal.js';
import { errorText } from './error-text.js';
import { browserLanguage, translator } from './i18n/index.js';
import { setupScreen } from './screens/setup.js';
import { settingsOf } from './store-settings.js';

/** The store a kiosk key is bound to, for a configuration that names none. */
async function storeOfKey(api: ApiClient): Promise<string> {
  const current = await api.currentKey();
  if (current.store === null) throw new Error(`a ${current.kind} key names no store: the kiosk needs a kiosk key`);
  return current.store;
}

/** Starts the kiosk with its configuration, or shows the set-up screen first in a plain browser. */
async function boot(root: HTMLElement): Promise<void> {
  const found = loadConfig();
  if (!found) {
    root.replaceChildren(setupScreen(() => void boot(root)));
    return;
  }
  const api = createApiClient(found.config);
  try {
    const store = await api.store(found.config.storeId ?? (await storeOfKey(api)));
    const app = new KioskApp(root, api, settingsOf(store), openSalesJournal(), found.config);
    document.documentElement.lang = app.language;
    app.start();
  } catch (err) {
    // The server may still be starting: try again, unless the set-up is redone first.
    // No store is known yet, so the screen speaks the browser's language.
    const t = translator(browserLanguage(navigator.languages), {});
    document.documentElement.lang = t.language;
    const retry = setTimeout(() => void boot(root), 5000);
    const redo = () => (clearTimeout(retry), forgetBrowserConfig(), void boot(root));
    root.replaceChildren(
      h(
        'section',
        { class: 'screen panel', 'data-screen': 'error' },
        h('h1', {}, t('bootTitle')),
        h('p', { class: 'error', role: 'alert' }, errorText(t, err)),
        found.source === 'browser' && h('button', { class: 'secondary', onclick: redo }, t('setupAgain')),
      ),
    );
  }
}

void boot(document.getElementById('kiosk') as HTMLElement);
