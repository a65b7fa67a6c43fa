import { h } from '../dom.js';
import { LANGUAGE_NAMES, type Translate } from '../i18n/index.js';
import type { KioskSettings, StoreLanguage } from '../store-settings.js';

/** How long staff hold the logo to open their code entry: longer than any customer's tap. */
const STAFF_HOLD_MS = 1500;

export interface Header {
  el: HTMLElement;
  /** Shows or hides the offline badge without rebuilding anything else. */
  setOffline(text: string | undefined): void;
}

/** Logo, store name, language buttons (when the store offers several) and the offline badge. */
export function header(
  t: Translate,
  settings: KioskSettings,
  language: StoreLanguage,
  handlers: { onLanguage: (l: StoreLanguage) => void; onStaff: () => void },
): Header {
  const badge = h('span', { class: 'offline', role: 'status', 'data-badge': 'offline', hidden: true });
  const brand = settings.logoUrl ? h('img', { class: 'logo', src: settings.logoUrl, alt: settings.storeName }) : h('span', { class: 'store-name' }, settings.storeName);
  let hold: ReturnType<typeof setTimeout> | undefined;
  const release = () => clearTimeout(hold);
  const holdable = h(
    'span',
    {
      class: 'brand',
      'data-staff-gesture': '',
      onpointerdown: () => (release(), (hold = setTimeout(handlers.onStaff, STAFF_HOLD_MS))),
      onpointerup: release,
      onpointerleave: release,
      onpointercancel: release,
      oncontextmenu: (e: Event) => e.preventDefault(),
    },
    brand,
  );
  const el = h(
    'header',
    { class: 'bar' },
    holdable,
    badge,
    settings.languages.length > 1 &&
      h(
        'nav',
        { class: 'languages', 'aria-label': t('language') },
        settings.languages.map((l) =>
          h('button', { lang: l, 'data-language': l, 'aria-pressed': String(l === language), onclick: () => handlers.onLanguage(l) }, LANGUAGE_NAMES[l]),
        ),
      ),
  );
  return {
    el,
    setOffline(text) {
      badge.textContent = text ?? '';
      badge.hidden = text === undefined;
    },
  };
}
