import type { CardReconciliation, DailyReport } from '../../shared/api/reports.js';
import { localDate } from '../../shared/time-zones.js';
import { reconcileCardTotals, type BrandTotal } from '../rules/card-reconciliation.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import type { TerminalProtocol } from './terminal-protocol.js';
import type { TerminalRegistry } from './terminal-registry.js';

/**
 * The daily report's card part with the terminals' own totals beside the
 * server's (nexo reconciliation). A terminal keeps the totals of its current
 * day only, so it is asked for today's report; a past day's report shows the
 * server's side alone. One terminal that does not answer leaves the terminals'
 * figures unknown rather than a sum that looks complete.
 */
export function createCardDay(deps: { registry: TerminalRegistry; protocol: TerminalProtocol; clock: Clock }) {
  return {
    async reconcile(caller: Caller, report: DailyReport): Promise<CardReconciliation> {
      const terminals = deps.registry.ofStore(caller.orgId, report.store);
      if (terminals.length === 0 || localDate(deps.clock.now().getTime(), report.timeZone) !== report.date) return report.card;
      const answers = await Promise.all(
        terminals.map(async (t) => {
          try {
            const totals = await deps.protocol.totals(t.endpoint);
            return { ...t, totals: totals.map((b): BrandTotal => ({ brand: b.brand, payments: b.count, total: b.amount })), message: null };
          } catch (err) {
            return { ...t, totals: undefined, message: err instanceof Error ? err.message : String(err) };
          }
        }),
      );
      const complete = answers.every((a) => a.totals !== undefined);
      const theirs = complete ? answers.flatMap((a) => a.totals ?? ([] as BrandTotal[])) : undefined;
      const terminalTotal = theirs ? theirs.reduce((sum, t) => sum + t.total, 0) : null;
      return {
        byBrand: reconcileCardTotals(report.card.byBrand, theirs),
        total: report.card.total,
        terminalTotal,
        difference: terminalTotal === null ? null : report.card.total - terminalTotal,
        terminals: answers.map((a) => ({ id: a.id, name: a.name, answered: a.totals !== undefined, message: a.message })),
      };
    },
  };
}

export type CardDay = ReturnType<typeof createCardDay>;
