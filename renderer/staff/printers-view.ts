import type { PrinterState, PrinterStatus } from '../../shared/api/receipts.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { getPublic } from './api.js';
import type { StaffTextKey, StaffTranslate } from './texts.js';

const STATE_TEXT: Record<PrinterState, StaffTextKey> = { ready: 'printer_ready', offline: 'printer_offline', paperOut: 'printer_paperOut', error: 'printer_error' };

/**
 * The network receipt printers' last states. `GET /printers` needs no key, like
 * `/health`, so a printer switched off or out of paper shows to whoever looks.
 */
export function createPrintersView(deps: { t: () => StaffTranslate }) {
  const root = h('section', { id: 'printers', 'aria-labelledby': 'printers-title' });
  let printers: PrinterStatus[] | undefined;

  async function refresh(): Promise<void> {
    printers = await getPublic<{ data: PrinterStatus[] }>('/printers').then((answer) => answer.data, () => undefined);
    render();
  }

  function render(): void {
    const t = deps.t();
    const item = (p: PrinterStatus) =>
      h(
        'li',
        { 'data-printer': p.printer, 'data-state': p.state, class: p.state === 'ready' ? 'ok' : 'down' },
        `${p.printer}: ${t(STATE_TEXT[p.state])}`,
        p.message && ` – ${p.message}`,
        ` (${p.lastPrintedAt ? t('printerLastPrinted', { time: t.time(p.lastPrintedAt) }) : t('printerNeverPrinted')})`,
      );
    replaceChildren(
      root,
      h('h2', { id: 'printers-title' }, t('printersTitle')),
      printers === undefined ? h('p', {}, '–') : printers.length === 0 ? h('p', { 'data-printers': 'none' }, t('printersNone')) : h('ul', { class: 'printers' }, printers.map(item)),
    );
  }

  return { root, render, refresh, list: () => printers };
}
