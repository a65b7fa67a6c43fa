import type { PrinterState, PrinterStatus } from '../../shared/api/printers.js';
import type { ReceiptPrintResult } from '../../shared/api/receipts.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { postData } from './api.js';
import { reasonText } from './call-reason.js';
import type { StaffTextKey, StaffTranslate } from './texts.js';

const FAULT_TEXT: Record<Exclude<PrinterState, 'ready'>, StaffTextKey> = {
  offline: 'reportNotPrinted_offline',
  paperOut: 'reportNotPrinted_paperOut',
  error: 'reportNotPrinted_error',
};

type Answer = { kind: 'printing' } | { kind: 'printed'; result: ReceiptPrintResult } | { kind: 'failed'; reason: string };

/** The report's store's registered receipt printer the report goes to: a ready one first. */
export function reportPrinterOf(printers: readonly PrinterStatus[] | undefined, store: string | undefined): PrinterStatus | undefined {
  const candidates = (printers ?? []).filter((p) => p.store === store);
  return candidates.find((p) => p.state === 'ready') ?? candidates[0];
}

/**
 * The report's "Print on the receipt printer" button and what came of it, in
 * words staff understand; without a known printer, nothing.
 */
export function createReportPrinterButton(deps: {
  t: () => StaffTranslate;
  printers: () => readonly PrinterStatus[] | undefined;
  day: () => { store: string; date: string } | undefined;
}) {
  const button = h('span', { class: 'receipt-print' });
  const status = h('p', { class: 'print-status', role: 'status', hidden: true });
  let shown: string | undefined;
  let answer: Answer | undefined;

  function render(): void {
    const t = deps.t();
    const printer = reportPrinterOf(deps.printers(), deps.day()?.store);
    shown = printer?.id;
    replaceChildren(
      button,
      printer &&
        h(
          'button',
          { type: 'button', 'data-action': 'print-receipt-printer', disabled: answer?.kind === 'printing', onclick: () => void print(printer) },
          t('printOnPrinter', { host: printer.name }),
        ),
    );
    status.hidden = answer === undefined;
    if (!answer) return replaceChildren(status);
    const printerName = printer?.name ?? '';
    const words =
      answer.kind === 'printing'
        ? t('reportPrinting', { printer: printerName })
        : answer.kind === 'failed'
          ? t('reportPrintFailed', { reason: answer.reason })
          : answer.result.state === 'ready'
            ? t('reportPrinted', { printer: answer.result.name })
            : t(FAULT_TEXT[answer.result.state], { printer: answer.result.name });
    status.className = `print-status ${answer.kind === 'printed' && answer.result.printed ? 'ok' : answer.kind === 'printing' ? '' : 'down'}`;
    status.dataset.printed = answer.kind === 'printed' ? String(answer.result.printed) : '';
    replaceChildren(status, words);
  }

  async function print(printer: PrinterStatus): Promise<void> {
    const day = deps.day();
    if (!day) return;
    answer = { kind: 'printing' };
    render();
    try {
      const result = await postData<ReceiptPrintResult>('/reports/daily/print', {
        ...day,
        printer: printer.id,
        language: deps.t().language,
      });
      answer = { kind: 'printed', result };
    } catch (error) {
      answer = { kind: 'failed', reason: reasonText(deps.t(), error) };
    }
    render();
  }

  return {
    button,
    status,
    render,
    /** After `GET /printers` was read again: redrawn only when the printer changed, so a focused button keeps its focus. */
    printersChanged(): void {
      if (reportPrinterOf(deps.printers(), deps.day()?.store)?.id !== shown) render();
    },
    /** Another store or day: the last answer was about the one before. */
    dayChanged(): void {
      if (answer?.kind !== 'printing') answer = undefined;
      render();
    },
  };
}
