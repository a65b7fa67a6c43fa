import type { ParkedEntry, SyncStatus } from '../../shared/api/sync.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { getData, postData } from './api.js';
import type { StaffTextKey, StaffTranslate } from './texts.js';

/** Sync with the upstream: its state, and the parked entries with Retry and Discard (after a confirmation). */
export function createSyncView(deps: { t: () => StaffTranslate; failed: (error: unknown) => void }) {
  // The refresh rebuilds `content` only: the note keeps its live region, and an open
  // confirmation stays open (and modal) while the list behind it is refreshed.
  const content = h('div');
  const note = h('p', { class: 'note', role: 'status' });
  const dialog = h('dialog', { id: 'discard-dialog', 'aria-labelledby': 'discard-title', 'aria-describedby': 'discard-text' });
  const root = h('section', { id: 'sync', 'aria-labelledby': 'sync-title' }, content, note, dialog);
  let shown = '';
  let status: SyncStatus | undefined;
  let parked: ParkedEntry[] = [];
  let noteKey: StaffTextKey | undefined;

  async function refresh(): Promise<void> {
    try {
      [status, parked] = await Promise.all([getData<SyncStatus>('/sync'), getData<ParkedEntry[]>('/sync/parked')]);
      // Unchanged, the buttons stay as they are, so a tap is never lost to a rebuild.
      if (JSON.stringify([status, parked]) !== shown) render();
    } catch (error) {
      deps.failed(error);
    }
  }

  async function act(entry: ParkedEntry, action: 'retry' | 'discard'): Promise<void> {
    try {
      await postData(`/sync/parked/${entry.id}/${action}`);
      noteKey = action === 'retry' ? 'retried' : 'discarded';
    } catch (error) {
      deps.failed(error);
    }
    await refresh();
  }

  function confirmDiscard(entry: ParkedEntry): void {
    const t = deps.t();
    replaceChildren(
      dialog,
      h('h3', { id: 'discard-title' }, t('discardTitle')),
      h('p', { class: 'dialog-entry' }, describe(entry, t)),
      h('p', { id: 'discard-text' }, t('discardText')),
      h(
        'form',
        { method: 'dialog', class: 'dialog-buttons' },
        h('button', { value: 'cancel', autofocus: true }, t('cancel')),
        h('button', { value: 'discard', class: 'danger', 'data-action': 'confirm-discard' }, t('confirmDiscard')),
      ),
    );
    dialog.onclose = () => {
      if (dialog.returnValue === 'discard') void act(entry, 'discard');
    };
    dialog.returnValue = '';
    dialog.showModal();
  }

  function render(): void {
    const t = deps.t();
    note.textContent = noteKey ? t(noteKey) : '';
    const when = (iso: string | null) => (iso ? t.time(iso) : t('never'));
    shown = JSON.stringify([status, parked]);
    replaceChildren(
      content,
      h('h2', { id: 'sync-title' }, t('syncTitle')),
      status &&
        h(
          'dl',
          {},
          h('dt', {}, t('state')), h('dd', { 'data-sync': 'state' }, t(`state_${status.state}`)),
          h('dt', {}, t('upstream')), h('dd', {}, status.upstream ?? '–'),
          h('dt', {}, t('pending')), h('dd', {}, String(status.pending)),
          h('dt', {}, t('parked')), h('dd', { 'data-sync': 'parked' }, String(status.parked)),
          h('dt', {}, t('lastPush')), h('dd', {}, when(status.lastPushAt)),
          h('dt', {}, t('lastPull')), h('dd', {}, when(status.lastPullAt)),
          h('dt', {}, t('lastFullPull')), h('dd', {}, when(status.lastFullPullAt)),
          h('dt', {}, t('lastError')), h('dd', {}, status.lastError ?? t('none')),
          h('dt', {}, t('nextPurge')), h('dd', {}, when(status.nextPurgeAt)),
        ),
      h('h3', {}, t('parkedTitle')),
      parked.length === 0
        ? h('p', {}, t('noParked'))
        : h(
            'ul',
            { class: 'parked' },
            parked.map((entry) =>
              h(
                'li',
                { 'data-entry': entry.id },
                h('p', { class: 'entry-title' }, describe(entry, t)),
                h('p', {}, t('parkedAnswer', { status: entry.status, message: entry.message }), ' · ', t.time(entry.parkedAt)),
                h(
                  'div',
                  { class: 'entry-buttons' },
                  h('button', { type: 'button', 'data-action': 'retry', onclick: () => void act(entry, 'retry') }, t('retry')),
                  h('button', { type: 'button', class: 'danger', 'data-action': 'discard', onclick: () => confirmDiscard(entry) }, t('discard')),
                ),
              ),
            ),
          ),
    );
  }

  return { root, render, refresh };
}

function describe(entry: ParkedEntry, t: StaffTranslate): string {
  return t('parkedEntry', { operation: t(`op_${entry.operation}`), resource: entry.resource, id: entry.resourceId });
}
