import { h } from '../dom.js';
import type { Translate } from '../i18n/index.js';

/**
 * A shop without staff on site sets `helpText` and/or `helpPhone` in its
 * `translations` (for every language, or per language). Then the kiosk never
 * promises a person: the buttons read "Get help" and lead to that text and number.
 */
const hasHelpLine = (t: Translate) => t('helpText') !== '' || t('helpPhone') !== '';

/** The label of the button that asks for a person or for help. */
export function helpButtonText(t: Translate): string {
  return hasHelpLine(t) ? t('getHelp') : t('callStaff');
}

/** The screen after that button: the store's own help text and phone, or the promise that staff are coming. */
export function helpScreen(t: Translate, onBack: () => void): HTMLElement {
  const phone = t('helpPhone');
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'staff', 'aria-labelledby': 'help-title' },
    h('h1', { id: 'help-title' }, hasHelpLine(t) ? t('helpTitle') : t('callStaff')),
    hasHelpLine(t)
      ? [
          t('helpText') && h('p', { class: 'lead', 'data-help': 'text' }, t('helpText')),
          phone && h('p', { class: 'lead help-phone', 'data-help': 'phone' }, t('helpCall', { phone })),
        ]
      : h('p', { class: 'lead', role: 'status' }, t('staffCalled')),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onBack }, t('back'))),
  );
}
