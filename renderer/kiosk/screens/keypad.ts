import { h } from '../dom.js';
import type { Translate } from '../i18n/index.js';

/**
 * Keys drawn on screen for a kiosk without a keyboard. They type into the
 * field `target()` names, as a physical key would (an `input` event follows),
 * and never take the focus from it: the field keeps its caret and a physical
 * keyboard keeps working beside them.
 */
function typeInto(input: HTMLInputElement, key: string | 'delete' | 'clear'): void {
  if (key === 'delete') input.value = input.value.slice(0, -1);
  else if (key === 'clear') input.value = '';
  else if (input.maxLength < 0 || input.value.length < input.maxLength) input.value += key;
  else return;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function key(label: string, onPress: () => void, props: Record<string, unknown> = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: 'key', onpointerdown: (e: Event) => e.preventDefault(), onclick: onPress, ...props }, label);
}

/** Digits (and the decimal point for amounts) in the layout of a phone keypad. */
export function keypad(t: Translate, target: () => HTMLInputElement, options: { decimal: boolean }): HTMLElement {
  const press = (k: string | 'delete') => typeInto(target(), k);
  return h(
    'div',
    { class: 'keypad', 'data-keypad': '' },
    ['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => key(d, () => press(d), { 'data-key': d })),
    options.decimal ? key('.', () => press('.'), { 'data-key': '.' }) : h('span', { 'aria-hidden': 'true' }),
    key('0', () => press('0'), { 'data-key': '0' }),
    key('⌫', () => press('delete'), { 'aria-label': t('keyDelete'), 'data-key': 'delete' }),
  );
}

/** Swiss keyboards are QWERTZ in every language; the accented letters of the four languages get a row. */
const ROWS = ['1234567890', 'qwertzuiop', 'asdfghjkl', 'yxcvbnm', 'äöüéèàç'];

/** Letters for the search box. */
export function keyboard(t: Translate, target: () => HTMLInputElement): HTMLElement {
  const press = (k: string) => typeInto(target(), k);
  return h(
    'div',
    { class: 'keyboard', 'data-keyboard': '' },
    ROWS.map((row) => h('div', { class: 'key-row' }, [...row].map((c) => key(c, () => press(c), { 'data-key': c })))),
    h(
      'div',
      { class: 'key-row' },
      key(t('keySpace'), () => press(' '), { class: 'key wide', 'data-key': 'space' }),
      key('⌫', () => typeInto(target(), 'delete'), { 'aria-label': t('keyDelete'), 'data-key': 'delete' }),
      key(t('keyClear'), () => typeInto(target(), 'clear'), { class: 'key word', 'data-key': 'clear' }),
    ),
  );
}
