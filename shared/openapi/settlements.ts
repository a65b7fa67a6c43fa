import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, SuccessSchema, dataOf } from '../api/common.js';
import { PayoutAccountSchema, SettlementCreateSchema, SettlementSchema, SettlementSummarySchema, StatementQuerySchema } from '../api/settlements.js';
import { EXTENSION, errors, json } from './helpers.js';

const settlementParams = z.object({ settlementId: z.string().describe('Settlement id (`GET /settlements`).') });
const statementParams = settlementParams.extend({ supplierId: z.string().describe('Supplier id, one of the settlement’s `suppliers`.') });

export function registerSettlementPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/payout-account',
    ...EXTENSION,
    summary: "Set the organization's payout account (Write key)",
    description: 'The account payout files pay from. The IBAN is checked (country, length, check digits); a QR-IBAN is refused, as it takes only QR bills.',
    request: { body: { content: { 'application/json': { schema: PayoutAccountSchema } } } },
    responses: { 200: json(SuccessSchema, 'Kept.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/payout-account',
    ...EXTENSION,
    summary: "The organization's payout account (read key)",
    responses: { 200: json(dataOf(PayoutAccountSchema), 'The account, the IBAN without spaces.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/settlements',
    ...EXTENSION,
    summary: 'Settle what the suppliers sold (Write key)',
    description:
      'Takes every line with a `supplier` of every order not deleted, with `paymentState` `successful`, `partially-refunded` or `refunded`, that the server recorded before `to` ' +
      '(of `store` when given) and that no earlier settlement took, and the refunds recorded since a line was settled, as negative amounts. ' +
      'A line is in one settlement at most, whatever crashes and restores happen. Numbers run 1, 2, 3 … per organization. ' +
      '400 for `to` in the future, 404 for a store of another organization, 409 with nothing to take.',
    request: { body: { content: { 'application/json': { schema: SettlementCreateSchema } } } },
    responses: { 201: json(CreatedSchema, 'Settled.'), ...errors([400, 403, 404, 409]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/settlements',
    ...EXTENSION,
    summary: 'Settlements, newest first (read key)',
    responses: { 200: json(z.object({ data: z.array(SettlementSummarySchema) }), 'The settlements with their totals in cents.'), ...errors([403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/settlements/{settlementId}',
    ...EXTENSION,
    summary: 'A settlement: what each supplier sold and is owed (read key)',
    description:
      "Amounts in cents. `gross` sums the lines' price less refunds (deposits excluded); the margin percent is the supplier's `supplierMargin`, else the store's `generalMargin`, else 0; " +
      '`margin` is rounded half up per supplier and store, then summed; `payout` = `gross` - `margin`. `payoutProblem` tells why a supplier is left out of the payout file.',
    request: { params: settlementParams },
    responses: { 200: json(dataOf(SettlementSchema), 'The settlement.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/settlements/{settlementId}/payout-file',
    ...EXTENSION,
    summary: 'The payout file to upload in e-banking (read key)',
    description:
      'ISO 20022 `pain.001.001.09` after the Swiss Payment Standards (`pain.001.001.09.ch.03`): the payout account as debtor, one CHF credit transfer per supplier without `payoutProblem`. ' +
      'Names are transliterated to the SPS character set. 409 without a payout account.',
    request: { params: settlementParams },
    responses: { 200: { description: 'The file.', content: { 'application/xml': { schema: z.string() } } }, ...errors([403, 404, 409]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/settlements/{settlementId}/statements/{supplierId}',
    ...EXTENSION,
    summary: "A supplier's statement (read key)",
    description: 'A PDF in the language of the store where the supplier sold most: the shop, the period, per product quantity and sales, the margin and its percent, the payout and its account. `?format=csv`: the lines for a spreadsheet.',
    request: { params: statementParams, query: StatementQuerySchema },
    responses: {
      200: { description: 'The statement.', content: { 'application/pdf': { schema: z.string() }, 'text/csv': { schema: z.string() } } },
      ...errors([400, 403, 404], { validation: true }),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/settlements/{settlementId}/send',
    ...EXTENSION,
    summary: 'Mail each supplier its statement (Write key)',
    description:
      "Queues one `statement` mail per supplier with its PDF attached, to `payoutEmail`, else `email`, in the language of the supplier's statement. " +
      'Each supplier is mailed once per settlement however often this is called: `queued` counts the mails queued by this call. A supplier without an address is left out until one is set.',
    request: { params: settlementParams },
    responses: { 200: json(dataOf(z.object({ queued: z.int().describe('Mails queued by this call.') })), 'Queued.'), ...errors([403, 404]) },
  });
}
