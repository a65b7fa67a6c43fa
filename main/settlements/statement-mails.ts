import { queueMail, type MailToQueue } from '../mail/queue-mail.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import type { Db } from '../storage/database.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { immediateTransaction } from '../storage/transactions.js';
import type { SettlementService } from './settlement-service.js';
import { STATEMENT_TEXTS } from './statement-texts.js';
import type { Statements } from './statements.js';

/**
 * `POST /settlements/{id}/send`: one `statement` mail per supplier with its
 * PDF, to `payoutEmail`, else `email`. Each supplier's mail of a settlement is
 * queued once (`onceKey`), however often this is called; a supplier without an
 * address gets none and is queued when one is added and this runs again.
 */
export function createStatementMails(deps: { db: Db; clock: Clock; settlements: SettlementService; statements: Statements; suppliers: SupplierStore }) {
  return {
    async send(caller: Caller, id: string): Promise<{ queued: number }> {
      const settlement = deps.settlements.get(caller, id);
      const mails: MailToQueue[] = [];
      for (const totals of settlement.suppliers) {
        const supplier = deps.suppliers.get(caller.orgId, totals.supplier);
        const to = supplier?.payoutEmail?.trim() || supplier?.email?.trim();
        if (!to) continue;
        const model = deps.statements.model(caller, id, totals.supplier);
        const t = STATEMENT_TEXTS[model.language];
        const shop = [...new Set(model.shops.map((s) => s.name))].join(', ');
        // The PDFs are drawn before the transaction: nothing awaits inside one.
        const pdf = await deps.statements.pdf(caller, id, totals.supplier);
        mails.push({
          orgId: caller.orgId,
          kind: 'statement',
          to,
          subject: `${t.settlement} ${settlement.number} – ${shop}`,
          text: t.mailText.replaceAll('{number}', String(settlement.number)).replaceAll('{shop}', shop),
          attachments: [{ filename: `statement-${settlement.number}.pdf`, contentType: 'application/pdf', content: pdf }],
          onceKey: `statement:${settlement.id}:${totals.supplier}`,
          at: deps.clock.now(),
        });
      }
      const queued = immediateTransaction(deps.db, () => mails.filter((mail) => queueMail(deps.db, mail) !== undefined).length);
      return { queued };
    },
  };
}

export type StatementMails = ReturnType<typeof createStatementMails>;
