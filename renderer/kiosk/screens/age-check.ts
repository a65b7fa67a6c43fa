import { calendarDate, MINIMUM_AGE, type CalendarDate } from '../age.js';
import { h } from '../dom.js';
import type { Translate } from '../i18n/index.js';

export interface AgeCheckActions {
  birthDate(date: CalendarDate): void;
  mrz(text: string): void;
  cancel(): void;
}

/** Date of birth typed in, or an ID or passport read by the scanner (or typed by staff). */
export function ageCheckScreen(t: Translate, actions: AgeCheckActions, error: string | undefined): HTMLElement {
  const field = (id: string, label: string, size: number) =>
    h('label', { class: 'date-part', for: id }, label, h('input', { id, type: 'text', inputMode: 'numeric', maxLength: size, size, autocomplete: 'off' }));
  const form = h(
    'form',
    {
      class: 'birth-date',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const value = (id: string) => Number((form.querySelector(`#${id}`) as HTMLInputElement).value);
        const date = calendarDate(value('birth-year'), value('birth-month'), value('birth-day'));
        if (date) actions.birthDate(date);
        else actions.birthDate({ year: NaN, month: NaN, day: NaN });
      },
    },
    h('fieldset', {}, h('legend', {}, t('birthDate')), field('birth-day', t('day'), 2), field('birth-month', t('month'), 2), field('birth-year', t('year'), 4)),
    h('button', { type: 'submit', class: 'primary' }, t('checkAge')),
  );
  const mrz = h('textarea', { id: 'mrz', rows: 3, spellcheck: false, autocomplete: 'off', 'data-scan': 'own' });
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'age-check', 'aria-labelledby': 'age-title' },
    h('h1', { id: 'age-title' }, t('ageTitle')),
    h('p', { class: 'lead' }, t('ageIntro', { age: MINIMUM_AGE })),
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

/** A refused check: take the restricted products out, or get a person. */
export function refusedScreen(t: Translate, blocked: boolean, onRemove: () => void, onStaff: () => void): HTMLElement {
  return h(
    'section',
    { class: 'screen panel refused', 'data-screen': 'age-refused', 'aria-labelledby': 'refused-title' },
    h('h1', { id: 'refused-title' }, t('ageRefusedTitle')),
    h('p', { class: 'lead', 'data-reason': blocked ? 'blocked' : 'underage' }, t(blocked ? 'ageBlocked' : 'ageRefused')),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onStaff }, t('callStaff')), h('button', { class: 'primary', onclick: onRemove }, t('removeRestricted'))),
  );
}

export function staffScreen(t: Translate, onBack: () => void): HTMLElement {
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'staff' },
    h('h1', {}, t('callStaff')),
    h('p', { class: 'lead', role: 'status' }, t('staffCalled')),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onBack }, t('back'))),
  );
}
