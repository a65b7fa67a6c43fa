import type { PaymentAsk, PoiTransaction, RefundResult, RefundStatus, StatusAnswer, TerminalReceipt, TerminalTotal, TransactionResult } from '../terminal-protocol.js';

export type NexoCategory = 'Payment' | 'TransactionStatus' | 'Abort' | 'Reversal' | 'Reconciliation';

export const header = (category: NexoCategory, serviceId: string, poiId: string, saleId: string) => ({
  ProtocolVersion: '3.0',
  MessageClass: 'Service',
  MessageCategory: category,
  MessageType: 'Request',
  SaleID: saleId,
  ServiceID: serviceId,
  POIID: poiId,
});

/** nexo carries amounts in the currency's units, the API in cents. */
const toUnits = (cents: number) => cents / 100;
const toCents = (units: unknown) => (typeof units === 'number' ? Math.round(units * 100) : NaN);

export const paymentRequest = (ask: PaymentAsk, now: Date) => ({
  SaleData: { SaleTransactionID: { TransactionID: ask.reference, TimeStamp: now.toISOString() } },
  PaymentTransaction: { AmountsReq: { Currency: ask.currency, RequestedAmount: toUnits(ask.amount) } },
});

/** `saleId`: the SaleID the payment or reversal was sent with. */
export const statusRequest = (serviceId: string, saleId: string, category: 'Payment' | 'Reversal' = 'Payment') => ({
  MessageReference: { MessageCategory: category, SaleID: saleId, ServiceID: serviceId },
  DocumentQualifier: ['CashierReceipt', 'CustomerReceipt'],
  ReceiptReprintFlag: true,
});

export const abortRequest = (serviceId: string, poiId: string, saleId: string) => ({
  AbortReason: 'MerchantAbort',
  MessageReference: { MessageCategory: 'Payment', SaleID: saleId, ServiceID: serviceId, POIID: poiId },
});

export const reversalRequest = (original: PoiTransaction, amount: number) => ({
  OriginalPOITransaction: { POITransactionID: { TransactionID: original.transactionId, TimeStamp: original.timeStamp } },
  ReversalReason: 'MerchantCancel',
  ReversedAmount: toUnits(amount),
});

type Json = Record<string, any>;

/** Receipt lines exactly as the terminal sent them (each `OutputText` item's `Text`). */
function receiptOf(receipts: unknown): TerminalReceipt {
  const linesOf = (qualifier: string): string[] =>
    (Array.isArray(receipts) ? (receipts as Json[]) : [])
      .filter((r) => r?.DocumentQualifier === qualifier)
      .flatMap((r) => (Array.isArray(r.OutputContent?.OutputText) ? (r.OutputContent.OutputText as Json[]) : []))
      .map((t) => String(t?.Text ?? ''));
  return { customer: linesOf('CustomerReceipt'), cashier: linesOf('CashierReceipt') };
}

/** `refusalReason` of Adyen's form-encoded AdditionalResponse, else the text itself. */
function reasonOf(additional: unknown): string | null {
  if (typeof additional !== 'string' || additional === '') return null;
  const reason = new URLSearchParams(additional).get('refusalReason');
  return reason === null ? additional : reason || null;
}

const VERDICTS: Record<string, 'cancelled' | 'busy'> = { Cancel: 'cancelled', Aborted: 'cancelled', Busy: 'busy' };

/** A PaymentResponse (also one repeated by a status answer) as a verdict. */
export function paymentResult(serviceId: string, body: Json): TransactionResult {
  const response = (body.Response ?? {}) as Json;
  const receipt = receiptOf(body.PaymentReceipt);
  if (response.Result === 'Success' || response.Result === 'Partial') {
    const amounts = (body.PaymentResult?.AmountsResp ?? {}) as Json;
    const card = (body.PaymentResult?.PaymentInstrumentData?.CardData ?? {}) as Json;
    const poi = body.POIData?.POITransactionID as Json | undefined;
    return {
      kind: 'approved',
      serviceId,
      amount: toCents(amounts.AuthorizedAmount),
      currency: String(amounts.Currency ?? ''),
      brand: typeof card.PaymentBrand === 'string' ? card.PaymentBrand : null,
      maskedPan: typeof card.MaskedPan === 'string' ? card.MaskedPan : null,
      poiTransaction: poi ? { transactionId: String(poi.TransactionID), timeStamp: String(poi.TimeStamp) } : null,
      receipt,
      message: null,
    };
  }
  const condition = String(response.ErrorCondition ?? 'Refusal');
  const reason = reasonOf(response.AdditionalResponse);
  return { kind: VERDICTS[condition] ?? 'declined', serviceId, message: reason ? `${condition}: ${reason}` : condition, receipt };
}

/** A TransactionStatusResponse: the payment's verdict, still in progress, or never seen. */
export function statusAnswer(serviceId: string, body: Json): StatusAnswer {
  const response = (body.Response ?? {}) as Json;
  if (response.Result !== 'Success') {
    if (response.ErrorCondition === 'InProgress') return { kind: 'in-progress' };
    if (response.ErrorCondition === 'NotFound') return { kind: 'not-found' };
    throw new Error(`the terminal could not tell the status: ${String(response.ErrorCondition)}`);
  }
  const repeated = (body.RepeatedMessageResponse ?? {}) as Json;
  const repeatedService = String(repeated.MessageHeader?.ServiceID ?? serviceId);
  return paymentResult(repeatedService, (repeated.RepeatedResponseMessageBody?.PaymentResponse ?? {}) as Json);
}

/** A ReversalResponse (also one repeated by a status answer) as a verdict. */
export function reversalResult(body: Json): RefundResult {
  const response = (body.Response ?? {}) as Json;
  if (response.Result === 'Success') return { done: true };
  const condition = String(response.ErrorCondition ?? 'Refusal');
  const reason = reasonOf(response.AdditionalResponse);
  return { done: false, message: reason ? `${condition}: ${reason}` : condition };
}

/** A TransactionStatusResponse about a reversal: its verdict, still in progress, or never seen. */
export function refundStatusAnswer(body: Json): RefundStatus {
  const response = (body.Response ?? {}) as Json;
  if (response.Result !== 'Success') {
    if (response.ErrorCondition === 'InProgress') return { kind: 'in-progress' };
    if (response.ErrorCondition === 'NotFound') return { kind: 'not-found' };
    throw new Error(`the terminal could not tell the status: ${String(response.ErrorCondition)}`);
  }
  return reversalResult((body.RepeatedMessageResponse?.RepeatedResponseMessageBody?.ReversalResponse ?? {}) as Json);
}

export const reconciliationRequest = () => ({ ReconciliationType: 'SaleReconciliation' });

/** A ReconciliationResponse's TransactionTotals: debits minus reversals, per card brand. */
export function totalsOf(body: Json): TerminalTotal[] {
  const totals = Array.isArray(body.TransactionTotals) ? (body.TransactionTotals as Json[]) : [];
  return totals.map((t) => {
    const sums = (Array.isArray(t.PaymentTotals) ? (t.PaymentTotals as Json[]) : []).map((p) => ({
      sign: p.TransactionType === 'Debit' ? 1 : -1,
      count: Number(p.TransactionCount ?? 0),
      amount: toCents(p.TransactionAmount ?? 0),
    }));
    return {
      brand: String(t.CardBrand ?? ''),
      count: sums.filter((p) => p.sign > 0).reduce((n, p) => n + p.count, 0),
      amount: sums.reduce((n, p) => n + p.sign * p.amount, 0),
    };
  });
}
