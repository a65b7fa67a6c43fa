import type { BrandTotal } from '../../rules/card-reconciliation.js';
import type { PaymentAsk, PoiTransaction, StatusAnswer, TerminalReceipt, TransactionResult } from '../terminal-protocol.js';

/** Who the server is towards the terminal (nexo SaleID). */
export const SALE_ID = 'StoreServer';

export type NexoCategory = 'Payment' | 'TransactionStatus' | 'Abort' | 'Reversal' | 'GetTotals';

export const header = (category: NexoCategory, serviceId: string, poiId: string) => ({
  ProtocolVersion: '3.0',
  MessageClass: 'Service',
  MessageCategory: category,
  MessageType: 'Request',
  SaleID: SALE_ID,
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

export const statusRequest = (serviceId: string) => ({
  MessageReference: { MessageCategory: 'Payment', SaleID: SALE_ID, ServiceID: serviceId },
  DocumentQualifier: ['CashierReceipt', 'CustomerReceipt'],
  ReceiptReprintFlag: true,
});

export const abortRequest = (serviceId: string, poiId: string) => ({
  AbortReason: 'MerchantAbort',
  MessageReference: { MessageCategory: 'Payment', SaleID: SALE_ID, ServiceID: serviceId, POIID: poiId },
});

export const reversalRequest = (original: PoiTransaction, amount: number) => ({
  OriginalPOITransaction: { POITransactionID: { TransactionID: original.transactionId, TimeStamp: original.timeStamp } },
  ReversalReason: 'MerchantCancel',
  ReversedAmount: toUnits(amount),
});

/** The terminal's totals since its last reconciliation, one group per card brand. */
export const totalsRequest = () => ({ TotalDetails: ['POIID'] });

type Json = Record<string, any>;

/** Transaction types that give money back, deducted from a brand's total. */
const GIVEN_BACK = new Set(['ReverseDebit', 'Credit', 'Refund']);

/**
 * A GetTotalsResponse as totals per brand: the count of approved payments
 * (`Debit`) and their amount less what was given back.
 */
export function totalsAnswer(body: Json): BrandTotal[] {
  const response = (body.Response ?? {}) as Json;
  if (response.Result !== 'Success') throw new Error(`the terminal gave no totals: ${String(response.ErrorCondition ?? 'Refusal')}`);
  return (Array.isArray(body.TransactionTotals) ? (body.TransactionTotals as Json[]) : []).map((group) => {
    let payments = 0;
    let total = 0;
    for (const line of Array.isArray(group.PaymentTotals) ? (group.PaymentTotals as Json[]) : []) {
      const amount = toCents(line.TransactionAmount);
      if (line.TransactionType === 'Debit') {
        payments += Number(line.TransactionCount ?? 0);
        total += amount;
      } else if (GIVEN_BACK.has(String(line.TransactionType))) total -= amount;
    }
    return { brand: String(group.CardBrand ?? group.PaymentInstrumentType ?? 'unknown'), payments, total };
  });
}

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
  return new URLSearchParams(additional).get('refusalReason') ?? additional;
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
      message: reasonOf(response.AdditionalResponse),
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
