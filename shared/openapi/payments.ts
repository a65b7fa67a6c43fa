import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, StandardErrorSchema, SuccessSchema, dataOf } from '../api/common.js';
import { PaymentCreateSchema, PaymentListQuerySchema, PaymentRefundSchema, PaymentSchema } from '../api/payments.js';
import { TerminalCheckSchema, TerminalCreateSchema, TerminalSchema, TerminalTotalsSchema } from '../api/terminals.js';
import { EXTENSION, errors, json } from './helpers.js';

const terminalParams = z.object({ terminalId: z.string().describe('Terminal id (`GET /terminals`).') });
const paymentParams = z.object({ paymentId: z.string().describe('Payment id.') });
const accepted = (what: string) => json(dataOf(PaymentSchema), what);
const PaymentConflictSchema = StandardErrorSchema.extend({ data: PaymentSchema.describe('The payment the request met.') }).meta({ id: 'PaymentConflict' });
const conflict = (what: string) => ({ 409: json(PaymentConflictSchema, what) });

export function registerPaymentPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/terminals',
    ...EXTENSION,
    summary: "Register a store's card terminal (Write key)",
    description:
      'A terminal in Adyen Terminal API local mode (`nexo-local`). Its address must be on the private LAN on port 8443 unless `TERMINAL_ALLOW_ADDRESSES` allows it; ' +
      'its TLS certificate must chain to `certificate` and name the terminal, `<poiId>.test.terminal.adyen.com` or `<poiId>.live.terminal.adyen.com`; ' +
      'the address must take a connection when the terminal is registered (400 otherwise). The passphrase is sealed at rest and never answered or logged.',
    request: { body: { content: { 'application/json': { schema: TerminalCreateSchema } } } },
    responses: { 201: json(CreatedSchema, 'Registered.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/terminals',
    ...EXTENSION,
    summary: 'Registered card terminals (read key; a kiosk key sees its store’s)',
    responses: { 200: json(z.object({ data: z.array(TerminalSchema) }), 'The terminals, without passphrases.'), ...errors([403]) },
  });
  registry.registerPath({
    method: 'delete',
    path: '/terminals/{terminalId}',
    ...EXTENSION,
    summary: 'Remove a card terminal (Write key)',
    description: 'New payments no longer go to it; payments it took are still settled with it.',
    request: { params: terminalParams },
    responses: { 200: json(SuccessSchema, 'Removed.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/terminals/{terminalId}/check',
    ...EXTENSION,
    summary: 'Whether the server reaches the terminal now (kiosk key of its store, or Write key)',
    description: 'Sends the terminal a status query for a transaction it cannot know, charging nothing. An unreachable terminal is an answer, not an error: `reachable` is false and `message` says why. The kiosk hides *Card* while it is false.',
    request: { params: terminalParams },
    responses: { 200: json(dataOf(TerminalCheckSchema), 'Whether it answered.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/terminals/{terminalId}/totals',
    ...EXTENSION,
    summary: "The terminal's own card totals (read key)",
    description: "Asks the terminal for its totals since its last reconciliation (nexo SaleReconciliation), per card brand: approved payments and their amount minus reversals. The day's report compares them with the card sales it recorded. 502 when the terminal does not answer.",
    request: { params: terminalParams },
    responses: { 200: json(dataOf(TerminalTotalsSchema), "The terminal's totals."), ...errors([403, 404, 502]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/payments',
    ...EXTENSION,
    summary: "Start a card payment at the store's terminal (kiosk key of the store, or Write key)",
    description:
      'The attempt is stored, with its own transaction reference, before the terminal hears of it; the answer is 202 with the payment `pending`. Follow it with `GET /payments/{paymentId}`. ' +
      'One charge per sale: while the store has a payment of the sale (`reference`) that is `pending`, `unknown`, `approved`, `refunding`, `refunded` or `partially-refunded`, ' +
      'the answer is 409 with that payment in `data`: resume it. A declined or cancelled attempt, or a refused approval the server reversed, does not block a new one. ' +
      'An `Idempotency-Key` replays the first answer. 400 above `PAYMENT_MAX_CENTS`; 422 when the store has no terminal.',
    request: { body: { content: { 'application/json': { schema: PaymentCreateSchema } } } },
    responses: { 202: accepted('Sent to the terminal.'), ...errors([400, 403, 422]), ...conflict('The sale has a payment already; `data` is that payment.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/payments',
    ...EXTENSION,
    summary: "A sale's payment attempts, the payments since a time, or the approved payments no order names",
    description:
      'One of `reference`, `since` or `unrecorded=true`. An approved payment whose sale was never recorded is not reversed by itself: a kiosk may still be resending the sale from its journal. ' +
      'Staff see it with `unrecorded=true` and refund it (`POST /payments/{paymentId}/refund`) or record the sale with it. ' +
      '`unrecorded=true` also lists refused approvals whose reversal is pending (charged, `refusal.reversed` false).',
    request: { query: PaymentListQuerySchema },
    responses: { 200: json(z.object({ data: z.array(PaymentSchema) }), 'The attempts.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'get',
    path: '/payments/{paymentId}',
    ...EXTENSION,
    summary: 'A payment and what the terminal said',
    description: 'A kiosk key sees its own store’s payments only; another store’s is 404.',
    request: { params: paymentParams },
    responses: { 200: json(dataOf(PaymentSchema), 'The payment.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/payments/{paymentId}/cancel',
    ...EXTENSION,
    summary: 'Ask the terminal to stop a payment',
    description: 'The terminal’s own answer still decides: an approval that came first wins, and the payment stays approved.',
    request: { params: paymentParams },
    responses: { 202: accepted('Asked.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/payments/{paymentId}/refund',
    ...EXTENSION,
    summary: 'Refund an approved payment, whole or in part (Write key)',
    description:
      'The terminal reverses `amount` cents (default what is left). The refund is stored, and the payment `refunding`, before the terminal hears of it. ' +
      'The answer comes once the terminal answered: `partially-refunded` or `refunded`; when its answer is lost the payment stays `refunding` and the server asks the terminal until it tells. ' +
      'A refused approval not yet reversed (`refusal.reversed` false) is reversed now, whole. ' +
      '409 (with the payment in `data`) while a refund of it is out, or when it is not approved; 422 when the terminal refused; 502 when it could not be reached (nothing was refunded).',
    request: { params: paymentParams, body: { content: { 'application/json': { schema: PaymentRefundSchema } } } },
    responses: { 202: accepted('Refunded, or `refunding` while the server follows a lost answer.'), ...errors([400, 403, 404, 422, 502]), ...conflict('A refund is out, or the payment is not approved.') },
  });
}
