import type { CardReconciliation } from '../../shared/api/reports.js';
import { h, type Child } from '../kiosk/dom.js';
import type { StaffTranslate } from './texts.js';
import { cardBrandName } from '../../shared/card-brand.js';

/**
 * The report's card part: per brand what this server recorded beside what
 * the terminals counted for the day, and the difference, flagged when it is
 * not zero. A terminal that did not answer is named with its reason.
 */
export function cardReconciliation(t: StaffTranslate, card: CardReconciliation): Child {
  if (card.byBrand.length === 0 && card.terminals.length === 0) return false;
  const money = (cents: number | null) => (cents === null ? '–' : t.money(cents));
  const count = (n: number | null) => (n === null ? '–' : String(n));
  const differs = (cents: number | null) => cents !== null && cents !== 0;
  const cell = (text: string, flagged = false) => h('td', { class: flagged ? 'num flagged' : 'num' }, text);
  const labels = [t('cardBrand'), t('cardPayments'), t('total'), t('cardTerminalPayments'), t('cardTerminalTotal'), t('cardDifference')];
  return [
    h('h3', { id: 'card-title' }, t('cardTitle')),
    card.terminals
      .filter((terminal) => !terminal.answered)
      .map((terminal) => h('p', { class: 'flagged', 'data-terminal': terminal.id }, t('cardTerminalSilent', { name: terminal.name, reason: terminal.message ?? '–' }))),
    differs(card.difference) && h('p', { class: 'flagged', 'data-card-difference': '' }, t('cardDiffers', { amount: t.money(card.difference ?? 0) })),
    h(
      'table',
      { 'data-table': 'card', 'aria-labelledby': 'card-title' },
      h('thead', {}, h('tr', {}, labels.map((l, i) => h('th', { scope: 'col', class: i > 0 ? 'num' : undefined }, l)))),
      h(
        'tbody',
        {},
        card.byBrand.map((b) =>
          h(
            'tr',
            { 'data-brand': b.brand },
            h('td', {}, cardBrandName(b.brand)),
            cell(String(b.payments)),
            cell(t.money(b.total)),
            cell(count(b.terminalPayments)),
            cell(money(b.terminalTotal)),
            cell(money(b.difference), differs(b.difference)),
          ),
        ),
      ),
      h(
        'tfoot',
        {},
        h('tr', {}, h('th', { scope: 'row' }, t('total')), cell(''), cell(t.money(card.total)), cell(''), cell(money(card.terminalTotal)), cell(money(card.difference), differs(card.difference))),
      ),
    ),
  ];
}
