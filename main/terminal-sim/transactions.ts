/** What the simulator is told to do with its next request that moves money: a payment or a reversal. */
export interface SimulatorOrder {
  outcome: 'approve' | 'decline' | 'busy' | 'cancel' | 'lose-answer' | 'ignore';
  /** Time until the terminal decides, as a customer takes to present a card. */
  delayMs?: number | undefined;
  brand?: string | undefined;
  /** Approve another amount (cents) or currency than asked, as a faulty terminal might. */
  amount?: number | undefined;
  currency?: string | undefined;
}

export const OUTCOMES = ['approve', 'decline', 'busy', 'cancel', 'lose-answer', 'ignore'] as const;

export type TransactionState = 'in-progress' | 'approved' | 'declined' | 'cancelled' | 'busy';

/** One payment the simulated terminal took, by the ServiceID of its request. */
export interface Transaction {
  serviceId: string;
  saleId: string;
  reference: string;
  amount: number;
  currency: string;
  state: TransactionState;
  brand: string;
  poiTransactionId: string;
  timeStamp: string;
  refunded: number;
  /** The payment's answer body once decided. */
  response?: Record<string, unknown>;
  /** Ends the wait of the request that started it; unset once answered or lost. */
  finish?: ((state: TransactionState) => void) | undefined;
}

/** One reversal the simulated terminal took, by the ServiceID of its request: what a status query about it tells. */
export interface Reversal {
  serviceId: string;
  saleId: string;
  state: 'in-progress' | 'decided';
  /** The ReversalResponse body once decided. */
  response: Record<string, unknown> | undefined;
}

export function parseOrder(body: unknown): SimulatorOrder {
  const order = (body ?? {}) as Record<string, unknown>;
  if (!OUTCOMES.includes(order.outcome as SimulatorOrder['outcome'])) throw new Error(`outcome must be one of ${OUTCOMES.join(', ')}`);
  const delayMs = order.delayMs;
  if (delayMs !== undefined && (typeof delayMs !== 'number' || !Number.isInteger(delayMs) || delayMs < 0)) throw new Error('delayMs must be a whole number of milliseconds, 0 or more');
  for (const field of ['brand', 'currency'] as const) if (order[field] !== undefined && typeof order[field] !== 'string') throw new Error(`${field} must be a string`);
  if (order.amount !== undefined && (typeof order.amount !== 'number' || !Number.isInteger(order.amount))) throw new Error('amount must be a whole number of cents');
  return order as unknown as SimulatorOrder;
}

const units = (cents: number) => cents / 100;

/** A terminal prints its own local time, set up where it stands: the simulated one stands in a Swiss shop. */
const TERMINAL_TIME_ZONE = 'Europe/Zurich';
const localDateTime = new Intl.DateTimeFormat('sv-SE', { timeZone: TERMINAL_TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' });

/** Receipt lines in Adyen's form (key, name and value form-encoded in each line). */
function receipt(qualifier: 'CustomerReceipt' | 'CashierReceipt', t: Transaction): Record<string, unknown> {
  const line = (fields: Record<string, string>) => ({ Text: new URLSearchParams(fields).toString() });
  const result = t.state === 'approved' ? 'APPROVED' : t.state.toUpperCase();
  const [date = '', time = ''] = localDateTime.format(new Date(t.timeStamp)).split(' ');
  return {
    DocumentQualifier: qualifier,
    RequiredSignatureFlag: false,
    OutputContent: {
      OutputFormat: 'Text',
      OutputText: [
        line({ key: 'header1', name: 'Terminal simulator' }),
        line({ key: 'txdate', name: 'Date', value: date }),
        line({ key: 'txtime', name: 'Time', value: time }),
        line({ key: 'pan', name: 'Card', value: '**** **** **** 0004' }),
        line({ key: 'cardBrand', name: 'Brand', value: t.brand }),
        line({ key: 'txRef', name: 'Ref.', value: t.poiTransactionId }),
        line({ key: 'totalAmount', name: 'Total', value: `${t.currency} ${units(t.amount).toFixed(2)}` }),
        line({ key: 'approved', name: result }),
        line({ key: 'copy', name: qualifier === 'CustomerReceipt' ? 'Cardholder copy' : 'Merchant copy' }),
      ],
    },
  };
}

const CONDITIONS: Record<Exclude<TransactionState, 'in-progress' | 'approved'>, string> = { declined: 'Refusal', cancelled: 'Cancel', busy: 'Busy' };

/** The PaymentResponse body a terminal sends for a decided transaction. */
export function paymentResponse(t: Transaction): Record<string, unknown> {
  const approved = t.state === 'approved';
  const state = t.state as Exclude<TransactionState, 'in-progress'>;
  return {
    Response: approved
      ? { Result: 'Success', AdditionalResponse: 'refusalReason=&authCode=123456' }
      : { Result: 'Failure', ErrorCondition: CONDITIONS[state as keyof typeof CONDITIONS], AdditionalResponse: state === 'declined' ? 'refusalReason=Not enough balance' : '' },
    SaleData: { SaleTransactionID: { TransactionID: t.reference, TimeStamp: t.timeStamp } },
    POIData: { POITransactionID: { TransactionID: t.poiTransactionId, TimeStamp: t.timeStamp } },
    PaymentResult: approved
      ? {
          AmountsResp: { AuthorizedAmount: units(t.amount), Currency: t.currency },
          PaymentInstrumentData: { PaymentInstrumentType: 'Card', CardData: { PaymentBrand: t.brand, MaskedPan: '541333 **** 0004' } },
        }
      : undefined,
    PaymentReceipt: state === 'busy' ? [] : [receipt('CashierReceipt', t), receipt('CustomerReceipt', t)],
  };
}
