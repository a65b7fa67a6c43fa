import type { FleetDevice, FleetState } from '../../shared/api/fleet.js';
import { AlertKindSchema } from '../../shared/api/mail.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { getData } from './api.js';
import type { StaffTextKey, StaffTranslate } from './texts.js';

const STATES: readonly FleetState[] = ['offline', 'parked', 'behind', 'outdated', 'ok'];
type Column = 'name' | 'state' | 'version' | 'lastSeenAt' | 'pending' | 'parked' | 'alerts';
const COLUMNS: readonly [Column, StaffTextKey][] = [
  ['name', 'fleetName'],
  ['state', 'fleetState'],
  ['version', 'version'],
  ['lastSeenAt', 'fleetLastSeen'],
  ['pending', 'pending'],
  ['parked', 'parked'],
  ['alerts', 'fleetAlerts'],
];

const alertsOf = (device: FleetDevice) => device.alerts ?? [];

/** A PC's alert in the page's words; a condition this page does not know (a newer PC's) by the name the PC gave it. */
function alertText(t: StaffTranslate, alert: NonNullable<FleetDevice['alerts']>[number]): string {
  const kind = AlertKindSchema.safeParse(alert.kind);
  const what = kind.success ? t(`alertKind_${kind.data}`) : alert.kind;
  return `${what} (${alert.store}, ${t.time(alert.since)}): ${alert.detail}`;
}

/** Worst first when sorted by state; otherwise text or number order. */
function compare(a: FleetDevice, b: FleetDevice, column: Column): number {
  if (column === 'state') return STATES.indexOf(a.state) - STATES.indexOf(b.state);
  if (column === 'alerts') return alertsOf(a).length - alertsOf(b).length;
  const [x, y] = [a[column], b[column]];
  return typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
}

/**
 * The store PCs that sync with this server (head office's server): one row
 * each, sortable by every column, filtered by state; a row opens to the PC's
 * details. Shown only while some PC reports.
 */
export function createFleetView(deps: { t: () => StaffTranslate; failed: (error: unknown) => void }) {
  const root = h('section', { id: 'fleet', 'aria-labelledby': 'fleet-title', hidden: true });
  let devices: FleetDevice[] = [];
  let shown = '';
  let sortBy: Column = 'state';
  let ascending = true;
  let filter: FleetState | 'all' = 'all';
  const open = new Set<string>();

  async function refresh(): Promise<void> {
    try {
      devices = await getData<FleetDevice[]>('/fleet');
      if (JSON.stringify(devices) !== shown) render();
    } catch (error) {
      deps.failed(error);
    }
  }

  function sort(column: Column): void {
    ascending = sortBy === column ? !ascending : true;
    sortBy = column;
    render();
    (root.querySelector(`th[data-column="${column}"] button`) as HTMLElement | null)?.focus();
  }

  function details(device: FleetDevice, t: StaffTranslate): HTMLElement {
    const when = (iso: string | null) => (iso ? t.time(iso) : t('never'));
    const bytes = (count: number | null) => (count === null ? '–' : t.bytes(count));
    const item = (label: StaffTextKey, value: string) => [h('dt', {}, t(label)), h('dd', {}, value)];
    return h(
      'dl',
      { class: 'fleet-details' },
      item('fleetDevice', device.device),
      item('fleetStores', device.stores.join(', ') || t('none')),
      item('lastPush', when(device.lastPushAt)),
      item('lastPull', when(device.lastPullAt)),
      item('fleetOldestPending', when(device.oldestPendingAt)),
      item('lastSale', when(device.lastSaleAt)),
      item('fleetPrinters', device.printers.map((p) => `${p.name}: ${printerText(t, p.state)}`).join(', ') || t('none')),
      item('diskFree', bytes(device.diskFreeBytes)),
      item('databaseSize', bytes(device.databaseBytes)),
      item('fleetAlerts', alertsOf(device).map((a) => alertText(t, a)).join('; ') || t('none')),
    );
  }

  function row(device: FleetDevice, t: StaffTranslate): HTMLElement {
    const state = device.state === 'offline' && device.offlineSince ? t('fleetOfflineSince', { time: t.time(device.offlineSince) }) : t(`fleet_${device.state}`);
    const summary = h('details', { open: open.has(device.device), ontoggle: () => (summary.open ? open.add(device.device) : open.delete(device.device)) });
    summary.append(h('summary', {}, device.name), details(device, t));
    return h(
      'tr',
      { 'data-device': device.device, 'data-state': device.state },
      h('td', {}, summary),
      h('td', { class: device.state === 'ok' ? 'ok' : 'down' }, state),
      h('td', {}, device.version),
      h('td', {}, t.time(device.lastSeenAt)),
      h('td', { class: 'num' }, String(device.pending)),
      h('td', { class: 'num' }, String(device.parked)),
      h('td', { class: alertsOf(device).length > 0 ? 'num down' : 'num' }, String(alertsOf(device).length)),
    );
  }

  function render(): void {
    const t = deps.t();
    shown = JSON.stringify(devices);
    root.hidden = devices.length === 0;
    const listed = devices.filter((d) => filter === 'all' || d.state === filter).sort((a, b) => (ascending ? 1 : -1) * compare(a, b, sortBy) || a.name.localeCompare(b.name));
    const select = h(
      'select',
      { id: 'fleet-filter', onchange: () => ((filter = select.value as FleetState | 'all'), render()) },
      h('option', { value: 'all', selected: filter === 'all' }, t('fleetAll')),
      STATES.map((s) => h('option', { value: s, selected: filter === s }, `${t(`fleet_${s}`)} (${devices.filter((d) => d.state === s).length})`)),
    );
    replaceChildren(
      root,
      h('h2', { id: 'fleet-title' }, t('fleetTitle')),
      h('div', { class: 'fleet-controls' }, h('label', { for: 'fleet-filter' }, t('fleetFilter')), select),
      h(
        'table',
        { 'data-table': 'fleet' },
        h('caption', { class: 'hint' }, t('fleetCaption')),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            COLUMNS.map(([column, label]) =>
              h(
                'th',
                { scope: 'col', 'data-column': column, 'aria-sort': sortBy === column ? (ascending ? 'ascending' : 'descending') : undefined },
                h('button', { type: 'button', class: 'sort', onclick: () => sort(column) }, t(label)),
              ),
            ),
          ),
        ),
        h('tbody', {}, listed.length === 0 ? h('tr', {}, h('td', { colSpan: COLUMNS.length }, t('fleetNoneInState'))) : listed.map((d) => row(d, t))),
      ),
    );
  }

  return { root, render, refresh };
}

const PRINTER_TEXT: Record<string, StaffTextKey> = { ready: 'printer_ready', offline: 'printer_offline', paperOut: 'printer_paperOut', error: 'printer_error' };
const printerText = (t: StaffTranslate, state: string) => (PRINTER_TEXT[state] ? t(PRINTER_TEXT[state]) : state);
