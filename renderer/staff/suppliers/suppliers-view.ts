import type { Settlement, SettlementSummary } from '../../../shared/api/settlements.js';
import type { Store } from '../../../shared/api/stores.js';
import { h, replaceChildren } from '../../kiosk/dom.js';
import { CallError, getAll, getData, getFile, postAnswer, postData } from '../api.js';
import { reasonText } from '../call-reason.js';
import type { StaffTranslate } from '../texts.js';

/** The newest settlements shown with their suppliers; older ones stay in the API and the CLI. */
const SHOWN = 12;

/** Hands the browser a file to save. */
function save(content: Blob, name: string): void {
  const link = h('a', { href: URL.createObjectURL(content), download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

/**
 * Now as a `datetime-local` value in the browser's time zone, to the second:
 * a minute rounded up would be in the future, which the server refuses.
 */
function localNow(): string {
  const now = new Date();
  now.setMinutes(now.getMinutes() - now.getTimezoneOffset());
  return now.toISOString().slice(0, 19);
}

type Note = { ok: boolean; text: string };

/**
 * Suppliers (write key): settle the sales up to a moment, then per settlement
 * each supplier's amounts and payout problem, the payout file for e-banking,
 * each supplier's statement and sending the statements by mail.
 */
export function createSuppliersView(deps: { t: () => StaffTranslate }) {
  const root = h('section', { id: 'suppliers', 'aria-labelledby': 'suppliers-title' });
  let settlements: Settlement[] = [];
  let stores: Store[] = [];
  let note: Note | undefined;
  let to = '';
  let store = '';

  async function refresh(): Promise<void> {
    const [list, all] = await Promise.all([getData<SettlementSummary[]>('/settlements'), getAll<Store>('/stores')]);
    stores = all.filter((s) => !s.deleted);
    settlements = await Promise.all(list.slice(0, SHOWN).map((s) => getData<Settlement>(`/settlements/${s.id}`)));
    render();
  }

  const told = (ok: boolean, text: string) => ((note = { ok, text }), render());

  async function settle(): Promise<void> {
    const t = deps.t();
    const when = new Date(to);
    if (to === '' || Number.isNaN(when.getTime())) return told(false, t('settleToMissing'));
    try {
      const { id } = await postAnswer<{ id: string }>('/settlements', { to: when.toISOString(), ...(store ? { store } : {}) });
      const made = await getData<Settlement>(`/settlements/${id}`);
      note = { ok: true, text: t('settleDone', { number: made.number }) };
      await refresh();
    } catch (error) {
      told(false, error instanceof CallError && error.status === 409 ? t('settleNothing') : t('settleFailed', { reason: reasonText(t, error) }));
    }
  }

  async function payoutFile(s: Settlement): Promise<void> {
    const t = deps.t();
    try {
      save(await (await getFile(`/settlements/${s.id}/payout-file`)).blob(), `payouts-${s.number}.xml`);
    } catch (error) {
      told(false, error instanceof CallError && error.status === 409 ? t('payoutFileNoAccount') : t('payoutFileFailed', { reason: reasonText(t, error) }));
    }
  }

  async function statement(s: Settlement, supplier: string): Promise<void> {
    const t = deps.t();
    try {
      save(await (await getFile(`/settlements/${s.id}/statements/${supplier}`)).blob(), `statement-${s.number}-${supplier}.pdf`);
    } catch (error) {
      told(false, t('statementFailed', { reason: reasonText(t, error) }));
    }
  }

  async function send(s: Settlement): Promise<void> {
    const t = deps.t();
    try {
      const { queued } = await postData<{ queued: number }>(`/settlements/${s.id}/send`);
      told(true, t('sendQueued', { count: queued }));
    } catch (error) {
      told(false, t('sendFailed', { reason: reasonText(t, error) }));
    }
  }

  function settleForm(t: StaffTranslate): HTMLElement {
    if (to === '') to = localNow();
    return h(
      'form',
      { 'data-form': 'settle', 'aria-labelledby': 'settle-title', noValidate: true, onsubmit: (event: Event) => (event.preventDefault(), void settle()) },
      h('h3', { id: 'settle-title' }, t('settleTitle')),
      h(
        'div',
        { class: 'form-grid' },
        h('div', { class: 'field' }, h('label', { for: 'settle-to' }, t('settleTo')), h('input', { id: 'settle-to', type: 'datetime-local', step: 1, value: to, oninput: (e: Event) => (to = (e.target as HTMLInputElement).value) })),
        h(
          'div',
          { class: 'field' },
          h('label', { for: 'settle-store' }, t('settleStore')),
          h(
            'select',
            { id: 'settle-store', onchange: (e: Event) => (store = (e.target as HTMLSelectElement).value) },
            h('option', { value: '', selected: store === '' }, t('settleAllStores')),
            stores.map((s) => h('option', { value: s.id, selected: s.id === store }, s.name)),
          ),
        ),
      ),
      h('button', { type: 'submit', 'data-action': 'settle' }, t('settleButton')),
    );
  }

  function settlementBlock(t: StaffTranslate, s: Settlement): HTMLElement {
    const storeName = s.store ? (stores.find((x) => x.id === s.store)?.name ?? s.store) : t('settlementStoreAll');
    return h(
      'article',
      { 'data-settlement': s.id, 'aria-labelledby': `settlement-${s.id}-title` },
      h('h3', { id: `settlement-${s.id}-title` }, t('settlementTitle', { number: s.number })),
      h('p', {}, `${t('settlementPeriod', { to: t.time(s.to) })} · ${storeName}`),
      h('p', { 'data-totals': '' }, t('settlementTotals', { gross: t.money(s.totals.gross), margin: t.money(s.totals.margin), payout: t.money(s.totals.payout) })),
      h(
        'table',
        { 'data-table': 'settlement-suppliers' },
        h(
          'thead',
          {},
          h('tr', {}, [t('settlementSupplier'), t('settlementGross'), t('settlementMargin'), t('settlementPayout'), t('settlementProblem'), t('settlementStatement')].map((x) => h('th', { scope: 'col' }, x))),
        ),
        h(
          'tbody',
          {},
          s.suppliers.map((x) =>
            h(
              'tr',
              { 'data-supplier': x.supplier },
              h('th', { scope: 'row', id: `settlement-${s.id}-${x.supplier}` }, x.name),
              h('td', { class: 'num' }, t.money(x.gross)),
              h('td', { class: 'num' }, `${new Intl.NumberFormat(t.locale, { maximumFractionDigits: 2 }).format(x.marginPercent)} %`),
              h('td', { class: 'num', 'data-payout': '' }, t.money(x.payout)),
              h('td', { 'data-problem': x.payoutProblem ?? '', class: x.payoutProblem && x.payoutProblem !== 'nothing-to-pay' ? 'down' : '' }, x.payoutProblem ? t(`payoutProblem_${x.payoutProblem}`) : '–'),
              h('td', {}, h('button', { type: 'button', 'data-action': 'statement', 'aria-describedby': `settlement-${s.id}-${x.supplier}`, onclick: () => void statement(s, x.supplier) }, 'PDF')),
            ),
          ),
        ),
      ),
      h(
        'div',
        { class: 'controls' },
        h('button', { type: 'button', 'data-action': 'payout-file', 'aria-describedby': `settlement-${s.id}-title`, onclick: () => void payoutFile(s) }, t('payoutFile')),
        h('button', { type: 'button', 'data-action': 'send-statements', 'aria-describedby': `settlement-${s.id}-title`, onclick: () => void send(s) }, t('sendStatements')),
      ),
    );
  }

  function render(): void {
    const t = deps.t();
    replaceChildren(
      root,
      h('h2', { id: 'suppliers-title' }, t('suppliersTitle')),
      h('p', { class: 'hint' }, t('suppliersIntro')),
      note && h('p', { class: note.ok ? 'ok' : 'down', role: note.ok ? 'status' : 'alert' }, note.text),
      settleForm(t),
      settlements.length === 0 ? h('p', {}, t('settlementsNone')) : settlements.map((s) => settlementBlock(t, s)),
    );
  }

  return { root, render, refresh, forget: () => ((settlements = []), (stores = []), (note = undefined), (to = ''), (store = ''), render()) };
}
