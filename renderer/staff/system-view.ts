import type { Health, SystemInfo } from '../../shared/api/system.js';
import type { UpdateStatus } from '../../shared/api/update-status.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { API_BASE, getData, getPublic } from './api.js';
import type { StaffTranslate } from './texts.js';

/** The server's health and the desktop app's update (no key needed) and, once signed in, the PC's disk space and database size. */
export function createSystemView(deps: { signedIn: () => boolean; t: () => StaffTranslate }) {
  const root = h('section', { id: 'system', 'aria-labelledby': 'system-title' });
  let health: Health | 'down' | undefined;
  let info: SystemInfo | undefined;
  let update: UpdateStatus | undefined;

  async function refresh(): Promise<void> {
    [health, info, update] = await Promise.all([
      getPublic<Health>('/health').catch(() => 'down' as const),
      deps.signedIn() ? getData<SystemInfo>('/system').catch(() => undefined) : undefined,
      getPublic<{ data: UpdateStatus }>('/update').then((answer) => answer.data, () => undefined),
    ]);
    render();
  }

  function render(): void {
    const t = deps.t();
    const up = typeof health === 'object' ? health : undefined;
    replaceChildren(
      root,
      h('h2', { id: 'system-title' }, t('systemTitle')),
      h(
        'dl',
        {},
        h('dt', {}, t('server')),
        h('dd', { id: 'status', class: health === 'down' ? 'down' : 'ok' }, health === 'down' ? t('notAnswering') : up ? t('running') : '…'),
        h('dt', {}, t('version')), h('dd', { id: 'version' }, up ? up.version : '–'),
        h('dt', {}, t('update')), h('dd', { id: 'update' }, update ? updateText(t, update) : '–'),
        h('dt', {}, t('search')), h('dd', {}, up ? t(up.search === 'ready' ? 'searchReady' : 'searchBuilding') : '–'),
        info && [
          h('dt', {}, t('diskFree')), h('dd', { 'data-system': 'disk' }, t('diskOf', { free: t.bytes(info.diskFreeBytes), total: t.bytes(info.diskTotalBytes) })),
          h('dt', {}, t('databaseSize')), h('dd', { 'data-system': 'database' }, t.bytes(info.databaseBytes)),
          info.tlsFingerprint && [h('dt', {}, t('tlsFingerprint')), h('dd', { 'data-system': 'tls' }, h('code', {}, info.tlsFingerprint))],
        ],
        h('dt', {}, t('api')), h('dd', {}, h('code', {}, API_BASE)),
      ),
      h('p', { class: 'hint' }, t('apiHint')),
    );
  }

  return { root, render, refresh };
}

/** The update state in words staff can act on: the version on offer, when it installs, why it failed. */
function updateText(t: StaffTranslate, update: UpdateStatus): string {
  const version = update.availableVersion ?? '';
  const state = update.state === 'idle' && version ? t('updateAvailable', { version }) : t(`update_${update.state}`, { version });
  const parts = [state];
  if (update.message) parts.push(update.message);
  if (update.lastCheckAt) parts.push(t('updateLastCheck', { time: t.time(update.lastCheckAt) }));
  return parts.join(' · ');
}
