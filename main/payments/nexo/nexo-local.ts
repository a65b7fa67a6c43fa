import type { PaymentAsk, RefundAsk, RefundResult, RefundStatus, StatusAnswer, TerminalEndpoint, TerminalProtocol, TransactionResult } from '../terminal-protocol.js';
import { TerminalAnswerLost } from '../terminal-protocol.js';
import { abortRequest, header, paymentRequest, paymentResult, reconciliationRequest, refundStatusAnswer, reversalRequest, reversalResult, statusAnswer, statusRequest, totalsOf, type NexoCategory } from './nexo-messages.js';
import { exchange } from './nexo-transport.js';

/** Longer than the 120 s a terminal gives the customer, so a slow approval is still heard. */
export const PAYMENT_TIMEOUT_MS = 130_000;
const SHORT_TIMEOUT_MS = 10_000;

/** A fresh ServiceID for a request that is not the payment itself (nexo allows 10 characters). */
const requestId = () => Math.random().toString(36).slice(2, 12).padEnd(10, '0');

export interface NexoLocalOptions {
  clock: { now(): Date };
  /** This installation's name towards terminals (nexo SaleID, see `saleIdOf`). */
  saleId: string;
  /** Called once a payment request is written to the terminal. */
  onPaymentSent?: ((serviceId: string) => void) | undefined;
  /** Called once a reversal request is written to the terminal. */
  onRefundSent?: ((serviceId: string) => void) | undefined;
  paymentTimeoutMs?: number | undefined;
}

/**
 * Adyen's Terminal API in local mode: nexo JSON over HTTPS on the store
 * network, each message encrypted and signed with the terminal's shared key.
 */
export function nexoLocal(options: NexoLocalOptions): TerminalProtocol {
  const send = (endpoint: TerminalEndpoint, category: NexoCategory, serviceId: string, body: string, content: unknown, timeoutMs: number, onSent?: () => void, saleId = options.saleId) =>
    exchange(endpoint, { header: header(category, serviceId, endpoint.poiId, saleId), body, content, timeoutMs, onSent });

  const bodyOf = (answer: Record<string, any> | null, name: string): Record<string, any> => {
    const body = answer?.[name] as Record<string, any> | undefined;
    if (!body) throw new TerminalAnswerLost(`the terminal answered without a ${name}`);
    return body;
  };

  return {
    async start(endpoint, ask: PaymentAsk): Promise<TransactionResult> {
      const onSent = () => options.onPaymentSent?.(ask.serviceId);
      const answer = await send(endpoint, 'Payment', ask.serviceId, 'PaymentRequest', paymentRequest(ask, options.clock.now()), options.paymentTimeoutMs ?? PAYMENT_TIMEOUT_MS, onSent, ask.saleId);
      const serviceId = String(answer?.MessageHeader?.ServiceID ?? '');
      return paymentResult(serviceId, bodyOf(answer, 'PaymentResponse'));
    },
    async status(endpoint, serviceId, saleId = options.saleId): Promise<StatusAnswer> {
      const answer = await send(endpoint, 'TransactionStatus', requestId(), 'TransactionStatusRequest', statusRequest(serviceId, saleId), SHORT_TIMEOUT_MS);
      return statusAnswer(serviceId, bodyOf(answer, 'TransactionStatusResponse'));
    },
    async abort(endpoint, serviceId, saleId = options.saleId) {
      await send(endpoint, 'Abort', requestId(), 'AbortRequest', abortRequest(serviceId, endpoint.poiId, saleId), SHORT_TIMEOUT_MS);
    },
    async refund(endpoint, ask: RefundAsk): Promise<RefundResult> {
      const onSent = () => options.onRefundSent?.(ask.serviceId);
      const answer = await send(endpoint, 'Reversal', ask.serviceId, 'ReversalRequest', reversalRequest(ask.original, ask.amount), SHORT_TIMEOUT_MS * 3, onSent);
      return reversalResult(bodyOf(answer, 'ReversalResponse'));
    },
    async refundStatus(endpoint, serviceId): Promise<RefundStatus> {
      const answer = await send(endpoint, 'TransactionStatus', requestId(), 'TransactionStatusRequest', statusRequest(serviceId, options.saleId, 'Reversal'), SHORT_TIMEOUT_MS);
      return refundStatusAnswer(bodyOf(answer, 'TransactionStatusResponse'));
    },
    async totals(endpoint) {
      const answer = await send(endpoint, 'Reconciliation', requestId(), 'ReconciliationRequest', reconciliationRequest(), SHORT_TIMEOUT_MS);
      return totalsOf(bodyOf(answer, 'ReconciliationResponse'));
    },
  };
}
