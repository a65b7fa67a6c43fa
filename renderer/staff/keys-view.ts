import { renderSVG } from 'uqr';
import type { ApiKey, CurrentKey, KeyKind } from '../../shared/api/keys.js';
import type { Store } from '../../shared/api/stores.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { deleteData, getAll, getData, postAnswer } from './api.js';
import { reasonText } from './call-reason.js';
import type { StaffTextKey, StaffTranslate } from './texts.js';

/** The kinds staff make here: a kiosk's and a scale's own key. */
const DEVICE_KINDS = ['kiosk', 'scale'] as const satisfies readonly KeyKind[];
const KIND_TEXT: Record<KeyKind, StaffTextKey> = { read: 'keyKind_read', write: 'keyKind_write', kiosk: 'keyKind_kiosk', scale: 'keyKind_scale' };

/** The new key as a QR code a kiosk's set-up screen takes by scanning (a keyboard-wedge scanner types it in). */
function qrCode(secret: string, label: string): Element {
  const svg = new DOMParser().parseFromString(renderSVG(secret, { ecc: 'M', border: 2 }), 'image/svg+xml').documentElement;
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('class', 'qr');
  return document.importNode(svg, true);
}

/**
 * Device keys (write key): make a kiosk key for a store or a scale key, shown
 * once as text and QR code; list the organization's keys with their last use;
 * revoke one after a confirmation.
 */
export function createKeysView(deps: { t: () => StaffTranslate }) {
  const content = h('div', {});
  const dialog = h('dialog', { id: 'revoke-dialog', 'aria-labelledby': 'revoke-title', 'aria-describedby': 'revoke-text' });
  const root = h('section', { id: 'keys', 'aria-labelledby': 'keys-title' }, content, dialog);
  let keys: ApiKey[] = [];
  let stores: Store[] = [];
  /** The key this page is signed in with: revoking it signs the page out. */
  let signedInWith = '';
  /** The secret of the key just made: on screen until staff close it or leave, never fetched again. */
  let created: { id: string; key: string; kind: KeyKind } | undefined;
  let note: { text: string; error: boolean } | undefined;

  async function refresh(): Promise<void> {
    let current: CurrentKey;
    [keys, stores, current] = await Promise.all([getData<ApiKey[]>('/keys'), getAll<Store>('/stores'), getData<CurrentKey>('/keys/current')]);
    signedInWith = current.id;
    render();
  }

  async function create(kind: KeyKind, store: string, name: string): Promise<void> {
    const t = deps.t();
    const body = { kind, ...(kind === 'kiosk' || store ? { store } : {}), ...(name ? { name } : {}) };
    try {
      const answer = await postAnswer<{ id: string; key: string }>('/keys', body);
      created = { id: answer.id, key: answer.key, kind };
      note = undefined;
    } catch (error) {
      note = { text: t('keyCreateFailed', { reason: reasonText(t, error) }), error: true };
    }
    await refresh().catch(() => render());
  }

  async function revoke(key: ApiKey): Promise<void> {
    const t = deps.t();
    try {
      await deleteData(`/keys/${encodeURIComponent(key.id)}`);
      note = { text: t('keyRevoked', { name: key.name ?? key.id }), error: false };
      if (created?.id === key.id) created = undefined;
    } catch (error) {
      note = { text: t('keyRevokeFailed', { reason: reasonText(t, error) }), error: true };
    }
    await refresh().catch(() => render());
  }

  function confirmRevoke(key: ApiKey): void {
    const t = deps.t();
    replaceChildren(
      dialog,
      h('h3', { id: 'revoke-title' }, t('keyRevokeTitle', { name: key.name ?? key.id })),
      h('p', { id: 'revoke-text' }, t(key.id === signedInWith ? 'keyRevokeOwnText' : 'keyRevokeText')),
      h(
        'form',
        { method: 'dialog', class: 'dialog-buttons' },
        h('button', { value: 'cancel', autofocus: true }, t('cancel')),
        h('button', { value: 'revoke', class: 'danger', 'data-action': 'confirm-revoke' }, t('keyRevokeConfirm')),
      ),
    );
    dialog.onclose = () => {
      if (dialog.returnValue === 'revoke') void revoke(key);
    };
    dialog.returnValue = '';
    dialog.showModal();
  }

  const storeName = (id: string | null) => (id === null ? '–' : (stores.find((s) => s.id === id)?.name ?? id));

  function createForm(t: StaffTranslate): HTMLElement {
    const kind = h('select', { id: 'key-kind' }, DEVICE_KINDS.map((k) => h('option', { value: k }, t(KIND_TEXT[k]))));
    const store = h('select', { id: 'key-store' }, stores.filter((s) => !s.deleted).map((s) => h('option', { value: s.id }, s.name)));
    const name = h('input', { id: 'key-name', type: 'text', maxLength: 100, autocomplete: 'off' });
    return h(
      'form',
      {
        class: 'key-form',
        'data-form': 'create-key',
        onsubmit: (event: Event) => (event.preventDefault(), void create(kind.value as KeyKind, store.value, name.value.trim())),
      },
      h('label', { for: 'key-kind' }, t('keyKind')),
      kind,
      h('label', { for: 'key-store' }, t('keyStore')),
      store,
      h('label', { for: 'key-name' }, t('keyName')),
      name,
      h('button', { type: 'submit' }, t('keyCreate')),
    );
  }

  function createdPanel(t: StaffTranslate, secret: { key: string; kind: KeyKind }): HTMLElement {
    return h(
      'div',
      { class: 'new-key', 'data-new-key': secret.kind, role: 'status' },
      h('h3', {}, t('keyCreatedTitle')),
      h('p', {}, t(secret.kind === 'kiosk' ? 'keyCreatedKiosk' : 'keyCreatedScale')),
      h('code', { 'data-secret': '' }, secret.key),
      qrCode(secret.key, t('keyQr')),
      h('button', { type: 'button', 'data-action': 'hide-key', onclick: () => ((created = undefined), render()) }, t('keyHide')),
    );
  }

  function keyRow(t: StaffTranslate, key: ApiKey): HTMLElement {
    const cell = (text: string) => h('td', {}, text);
    return h(
      'tr',
      { 'data-key': key.id, 'data-kind': key.kind },
      cell(t(KIND_TEXT[key.kind])),
      cell(storeName(key.store)),
      cell(key.name ?? '–'),
      cell(key.lastUsedAt ? t.time(key.lastUsedAt) : t('keyNeverUsed')),
      h('td', {}, h('button', { type: 'button', class: 'danger', 'data-action': 'revoke', onclick: () => confirmRevoke(key) }, t('keyRevoke'))),
    );
  }

  function render(): void {
    const t = deps.t();
    const active = keys.filter((k) => k.active);
    replaceChildren(
      content,
      h('h2', { id: 'keys-title' }, t('keysTitle')),
      h('p', { class: 'hint' }, t('keysIntro')),
      createForm(t),
      created && createdPanel(t, created),
      note && h('p', { class: note.error ? 'down' : 'ok', role: 'status' }, note.text),
      active.length === 0
        ? h('p', {}, t('keysNone'))
        : h(
            'table',
            { 'data-table': 'keys' },
            h('thead', {}, h('tr', {}, [t('keyKind'), t('keyStore'), t('keyName'), t('keyLastUsed'), t('keyActions')].map((l) => h('th', { scope: 'col' }, l)))),
            h('tbody', {}, active.map((k) => keyRow(t, k))),
          ),
    );
  }

  /** Signing out forgets the secret on screen. */
  function forget(): void {
    created = undefined;
    note = undefined;
    keys = [];
  }

  return { root, refresh, render, forget };
}
