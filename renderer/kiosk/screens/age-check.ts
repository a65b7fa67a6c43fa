import { calendarDate, type CalendarDate } from '../age.js';
import { h } from '../dom.js';
import type { Translate } from '../i18n/index.js';
import { helpButtonText } from './help.js';
import { keypad } from './keypad.js';

export interface AgeCheckActions {
  birthDate(date: CalendarDate): void;
  mrz(text: string): void;
  cancel(): void;
}

/**
 * Date of birth typed in on the keypad (or a keyboard), or an ID or passport
 * read by the scanner (or typed by staff), checked against `minimumAge`: the
 * highest age the cart's products require.
 */
export function ageCheckScreen(t: Translate, minimumAge: number, actions: AgeCheckActions, error: string | undefined): HTMLElement {
  const parts: HTMLInputElement[] = [];
  let current = 0;
  // The part the keypad types into is marked, since tapping a key never moves the focus.
  const select = (index: number) => {
    current = index;
    parts.forEach((p, i) => p.classList.toggle('target', i === index));
  };
  const field = (id: string, label: string, size: number) => {
    const index = parts.length;
    const input = h('input', {
      id,
      type: 'text',
      inputMode: 'none',
      maxLength: size,
      size,
      autocomplete: 'off',
      class: index === 0 ? 'target' : '',
      onfocus: () => select(index),
      // A full part moves on to the next, so a date is typed in one go: 2 4 0 3 1 9 9 0.
      oninput: () => {
        if (input.value.length < size || index + 1 >= parts.length) return;
        select(index + 1);
        (parts[index + 1] as HTMLInputElement).focus();
      },
    });
    parts.push(input);
    return h('label', { class: 'date-part', for: id }, label, input);
  };
  const form = h(
    'form',
    {
      class: 'birth-date',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const [day, month, year] = parts.map((p) => Number(p.value));
        const date = calendarDate(year as number, month as number, day as number);
        if (date) actions.birthDate(date);
        else actions.birthDate({ year: NaN, month: NaN, day: NaN });
      },
    },
    h('fieldset', {}, h('legend', {}, t('birthDate')), field('birth-day', t('day'), 2), field('birth-month', t('month'), 2), field('birth-year', t('year'), 4)),
    keypad(t, () => parts[current] as HTMLInputElement, { decimal: false }),
    h('button', { type: 'submit', class: 'primary' }, t('checkAge')),
  );
  const mrz = h('textarea', { id: 'mrz', rows: 3, spellcheck: false, autocomplete: 'off', 'data-scan': 'own' });
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'age-check', 'aria-labelledby': 'age-title' },
    h('h1', { id: 'age-title' }, t('ageTitle')),
    h('p', { class: 'lead', 'data-minimum-age': String(minimumAge) }, t('ageIntro', { age: minimumAge })),
    error && h('p', { class: 'error', role: 'alert' }, error),
    form,
    h(
      'details',
      { class: 'staff' },
      h('summary', {}, t('mrzLabel')),
      h('label', { for: 'mrz', class: 'visually-hidden' }, t('mrzLabel')),
      mrz,
      h('button', { class: 'secondary', onclick: () => actions.mrz(mrz.value) }, t('mrzRead')),
    ),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: actions.cancel }, t('back'))),
  );
}

/** A product the customer may not buy, with the age it is sold from. */
export interface RefusedLine {
  productId: string;
  name: string;
  age: number;
}

/** A refused check: the products the customer may not buy, to take out, or get a person. */
export function refusedScreen(t: Translate, blocked: boolean, refused: RefusedLine[], onRemove: () => void, onStaff: () => void): HTMLElement {
  return h(
    'section',
    { class: 'screen panel refused', 'data-screen': 'age-refused', 'aria-labelledby': 'refused-title' },
    h('h1', { id: 'refused-title' }, t('ageRefusedTitle')),
    h('p', { class: 'lead', 'data-reason': blocked ? 'blocked' : 'underage' }, t(blocked ? 'ageBlocked' : 'ageRefused')),
    h(
      'ul',
      { class: 'refused-lines' },
      refused.map((line) =>
        h('li', { 'data-line': line.productId }, h('span', { class: 'name' }, line.name), h('span', { class: 'age' }, t('ageFrom', { age: line.age }))),
      ),
    ),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onStaff }, helpButtonText(t)), h('button', { class: 'primary', onclick: onRemove }, t('removeRestricted'))),
  );
}
