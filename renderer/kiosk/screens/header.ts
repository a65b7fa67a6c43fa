import { h } from '../dom.js';
import { LANGUAGE_NAMES, type Translate } from '../i18n/index.js';
import type { KioskSettings, StoreLanguage } from '../store-settings.js';

/** Logo, store name, language buttons (when the store offers several) and the offline badge. */
export function header(t: Translate, settings: KioskSettings, language: StoreLanguage, offlineText: string | undefined, onLanguage: (l: StoreLanguage) => void): HTMLElement {
  return h(
    'header',
    { class: 'bar' },
    settings.logoUrl ? h('img', { class: 'logo', src: settings.logoUrl, alt: settings.storeName }) : h('span', { class: 'store-name' }, settings.storeName),
    offlineText && h('span', { class: 'offline', role: 'status', 'data-badge': 'offline' }, offlineText),
    settings.languages.length > 1 &&
      h(
        'nav',
        { class: 'languages', 'aria-label': t('language') },
        settings.languages.map((l) =>
          h('button', { lang: l, 'data-language': l, 'aria-pressed': String(l === language), onclick: () => onLanguage(l) }, LANGUAGE_NAMES[l]),
        ),
      ),
  );
}
