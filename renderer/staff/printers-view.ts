import type { PrinterStatus } from '../../shared/api/printers.js';
import type { Store } from '../../shared/api/stores.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { deleteData, getAll, getData, postData } from './api.js';
import { reasonText } from './call-reason.js';
import type { StaffTextKey, StaffTranslate } from './texts.js';

const STATE_TEXT: Record<PrinterStatus['state'], StaffTextKey> = {
  ready: 'printer_ready',
  offline: 'printer_offline',
  paperOut: 'printer_paperOut',
  error: 'printer_error',
  unknown: 'printer_unknown',
};

/**
 * The stores' registered receipt printers with their last states; staff signed
 * in with a write key register one (store, name, address) and remove one.
 * Kiosks and the report name a printer by the id shown here.
 */
export function createPrintersView(deps: { signedIn: () => boolean; t: () => StaffTranslate }) {
  const root = h('section', { id: 'printers', 'aria-labelledby': 'printers-title' });
  const list = h('div', { class: 'printer-list' });
  const form = h('form', { id: 'printer-register', onsubmit: (event: Event) => (event.preventDefault(), void register()) });
  let printers: PrinterStatus[] | undefined;
  let stores: Store[] = [];
  let problem: string | undefined;
  let fields: { store: HTMLSelectElement; name: HTMLInputElement; host: HTMLInputElement; port: HTMLInputElement } | undefined;

  async function refresh(): Promise<void> {
    const signedIn = deps.signedIn();
    printers = signedIn ? await getData<PrinterStatus[]>('/printers').catch(() => undefined) : undefined;
    if (signedIn && stores.length === 0) stores = (await getAll<Store>('/stores').catch(() => [])).filter((s) => !s.deleted);
    renderList();
    if (!fields || fields.store.options.length !== stores.length) renderForm();
  }

  async function register(): Promise<void> {
    if (!deps.signedIn() || !fields) return;
    const body = { store: fields.store.value, name: fields.name.value, host: fields.host.value, port: Number(fields.port.value) };
    try {
      await postData('/printers', body);
      problem = undefined;
      fields.name.value = '';
      fields.host.value = '';
    } catch (error) {
      problem = reasonText(deps.t(), error);
    }
    await refresh();
    renderForm();
  }

  async function remove(id: string): Promise<void> {
    if (!deps.signedIn()) return;
    await deleteData(`/printers/${encodeURIComponent(id)}`).catch(() => undefined);
    await refresh();
  }

  const storeName = (id: string) => stores.find((s) => s.id === id)?.name ?? id;

  function renderList(): void {
    const t = deps.t();
    const item = (p: PrinterStatus) =>
      h(
        'li',
        { 'data-printer': p.id, 'data-state': p.state, class: p.state === 'ready' ? 'ok' : p.state === 'unknown' ? '' : 'down' },
        `${p.name} (${storeName(p.store)}, ${p.host}:${p.port}): ${t(STATE_TEXT[p.state])}`,
        p.message && ` – ${p.message}`,
        ` (${p.lastPrintedAt ? t('printerLastPrinted', { time: t.time(p.lastPrintedAt) }) : t('printerNeverPrinted')}) `,
        h('code', { title: t('printerIdHint') }, p.id),
        deps.signedIn() && h('button', { type: 'button', 'data-action': 'remove-printer', onclick: () => void remove(p.id) }, t('printerRemove')),
      );
    replaceChildren(
      list,
      !deps.signedIn()
        ? h('p', { 'data-printers': 'signed-out' }, t('printersSignIn'))
        : printers === undefined
          ? h('p', {}, '–')
          : printers.length === 0
            ? h('p', { 'data-printers': 'none' }, t('printersNone'))
            : h('ul', { class: 'printers' }, printers.map(item)),
    );
  }

  function renderForm(): void {
    const t = deps.t();
    const input = (id: string, label: StaffTextKey, attributes: Record<string, string | boolean>) => {
      const field = h('input', { id, required: true, autocomplete: 'off', ...attributes });
      return [field, h('label', { for: id }, t(label)), field] as const;
    };
    const store = h('select', { id: 'printer-store', required: true }, stores.map((s) => h('option', { value: s.id }, s.name)));
    const [name, ...nameField] = input('printer-name', 'printerName', { type: 'text', maxLength: '100' });
    const [host, ...hostField] = input('printer-host', 'printerHost', { type: 'text', placeholder: '192.168.1.50' });
    const [port, ...portField] = input('printer-port', 'printerPort', { type: 'number', min: '1', max: '65535', value: '9100' });
    const kept = fields;
    fields = { store, name, host, port };
    if (kept) for (const k of ['name', 'host', 'port'] as const) fields[k].value = kept[k].value;
    replaceChildren(
      form,
      h('h3', {}, t('printerRegisterTitle')),
      h('label', { for: 'printer-store' }, t('printerStore')),
      store,
      nameField,
      hostField,
      portField,
      h('p', { class: 'hint' }, t('printerAddressHint')),
      problem && h('p', { class: 'error', role: 'alert' }, problem),
      h('button', { type: 'submit' }, t('printerRegister')),
    );
    form.hidden = !deps.signedIn();
  }

  function render(): void {
    replaceChildren(root, h('h2', { id: 'printers-title' }, deps.t()('printersTitle')), list, form);
    renderList();
    renderForm();
  }

  render();
  return { root, render, refresh, list: () => printers };
}
