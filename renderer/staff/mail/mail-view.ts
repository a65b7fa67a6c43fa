import type { z } from 'zod';
import type { AlertSchema, MailSchema } from '../../../shared/api/mail.js';
import type { Store } from '../../../shared/api/stores.js';
import { h, replaceChildren } from '../../kiosk/dom.js';
import { getAll, getData, getPage, postData } from '../api.js';
import { reasonText } from '../call-reason.js';
import type { StaffTranslate } from '../texts.js';

type Mail = z.infer<typeof MailSchema>;
type Alert = z.infer<typeof AlertSchema>;

/** The newest mails shown; the CLI's `mail list` and the API page further back. */
const SHOWN = 50;

/**
 * Mail (write key): the open alerts, a test mail to an address, and the queue
 * newest first with each mail's state and the mail server's last words.
 */
export function createMailView(deps: { t: () => StaffTranslate }) {
  const root = h('section', { id: 'mail', 'aria-labelledby': 'mail-title' });
  let mails: Mail[] = [];
  let alerts: Alert[] = [];
  let stores: Store[] = [];
  let note: { ok: boolean; text: string } | undefined;
  let to = '';

  async function refresh(): Promise<void> {
    const [page, all, storeList] = await Promise.all([getPage<Mail>(`/mail?limit=${SHOWN}`), getData<Alert[]>('/alerts'), getAll<Store>('/stores')]);
    mails = page.data;
    alerts = all.filter((a) => a.endedAt === null);
    stores = storeList;
    render();
  }

  async function sendTest(): Promise<void> {
    const t = deps.t();
    const address = to.trim();
    if (address === '') return ((note = { ok: false, text: t('mailTestToMissing') }), render());
    try {
      await postData<Mail>('/mail/test', { to: address });
      note = { ok: true, text: t('mailTestQueued', { to: address }) };
      await refresh();
    } catch (error) {
      note = { ok: false, text: t('mailTestFailed', { reason: reasonText(t, error) }) };
      render();
    }
  }

  function alertTable(t: StaffTranslate): HTMLElement {
    if (alerts.length === 0) return h('p', {}, t('alertsNone'));
    return h(
      'table',
      { 'data-table': 'alerts' },
      h('thead', {}, h('tr', {}, [t('alertStore'), t('alertKind'), t('alertSince')].map((x) => h('th', { scope: 'col' }, x)))),
      h(
        'tbody',
        {},
        alerts.map((a) => {
          const store = stores.find((s) => s.id === a.store);
          return h('tr', { 'data-alert': a.kind }, h('td', {}, store?.name ?? a.store), h('td', { class: 'down' }, t(`alertKind_${a.kind}`)), h('td', {}, t.time(a.since, store?.timeZone ?? undefined)));
        }),
      ),
    );
  }

  function mailTable(t: StaffTranslate): HTMLElement {
    if (mails.length === 0) return h('p', {}, t('mailQueueNone'));
    return h(
      'table',
      { 'data-table': 'mails' },
      h('thead', {}, h('tr', {}, [t('mailCreated'), t('mailKind'), t('mailTo'), t('mailSubject'), t('mailState'), t('mailLastError')].map((x) => h('th', { scope: 'col' }, x)))),
      h(
        'tbody',
        {},
        mails.map((m) =>
          h(
            'tr',
            { 'data-mail': m.id, 'data-state': m.state },
            h('td', {}, t.time(m.createdAt)),
            h('td', {}, t(`mailKind_${m.kind}`)),
            h('td', {}, m.to),
            h('td', {}, m.subject),
            h('td', { class: m.state === 'failed' ? 'down' : m.state === 'sent' ? 'ok' : '' }, t(`mailState_${m.state}`)),
            // The mail server's own words: what its operator needs to read.
            h('td', { lang: 'en' }, m.lastError ?? '–'),
          ),
        ),
      ),
    );
  }

  function render(): void {
    const t = deps.t();
    replaceChildren(
      root,
      h('h2', { id: 'mail-title' }, t('mailTitle')),
      h('p', { class: 'hint' }, t('mailIntro')),
      h('h3', {}, t('alertsTitle')),
      alertTable(t),
      note && h('p', { class: note.ok ? 'ok' : 'down', role: note.ok ? 'status' : 'alert' }, note.text),
      h(
        'form',
        { 'data-form': 'mail-test', noValidate: true, onsubmit: (event: Event) => (event.preventDefault(), void sendTest()) },
        h(
          'div',
          { class: 'field' },
          h('label', { for: 'mail-test-to' }, t('mailTestTo')),
          h('input', { id: 'mail-test-to', type: 'email', autocomplete: 'email', value: to, oninput: (e: Event) => (to = (e.target as HTMLInputElement).value) }),
        ),
        h('button', { type: 'submit', 'data-action': 'mail-test' }, t('mailTestSend')),
      ),
      h('h3', {}, t('mailQueueTitle')),
      mailTable(t),
    );
  }

  return { root, render, refresh, forget: () => ((mails = []), (alerts = []), (stores = []), (note = undefined), (to = ''), render()) };
}
