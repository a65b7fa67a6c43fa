/** What the server needs to reach one terminal, its secret already opened. */
export interface TerminalEndpoint {
  host: string;
  port: number;
  poiId: string;
  keyIdentifier: string;
  keyVersion: number;
  passphrase: string;
  /** PEM of the CA the terminal's TLS certificate must chain to. */
  certificate: string;
}

/** The terminal's own id of a transaction, needed to reverse it. */
export interface PoiTransaction {
  transactionId: string;
  timeStamp: string;
}

export interface PaymentAsk {
  /** The attempt's own transaction reference (nexo ServiceID), at most 10 characters. */
  serviceId: string;
  /** Who sends it (nexo SaleID): the installation's name towards terminals, stored with the attempt. */
  saleId: string;
  /** The sale's reference. */
  reference: string;
  amount: number;
  currency: string;
}

export interface TerminalReceipt {
  customer: string[];
  cashier: string[];
}

/** A terminal's verdict on one transaction, named by the transaction reference it belongs to. */
export type TransactionResult =
  | {
      kind: 'approved';
      serviceId: string;
      amount: number;
      currency: string;
      brand: string | null;
      maskedPan: string | null;
      poiTransaction: PoiTransaction | null;
      receipt: TerminalReceipt;
      message: string | null;
    }
  | { kind: 'declined' | 'cancelled' | 'busy'; serviceId: string; message: string; receipt: TerminalReceipt };

/** The terminal's own card totals since its last reconciliation, per brand, in cents. */
export interface TerminalTotal {
  brand: string;
  count: number;
  amount: number;
}

export interface RefundAsk {
  /** The refund attempt's own transaction reference (nexo ServiceID), at most 10 characters. */
  serviceId: string;
  original: PoiTransaction;
  amount: number;
  currency: string;
}

/** The terminal's verdict on a refund: given back, or refused with its reason. */
export type RefundResult = { done: true } | { done: false; message: string };

/** What a status query about a refund may tell. */
export type RefundStatus = RefundResult | { kind: 'in-progress' } | { kind: 'not-found' };

/** What a status query may tell beyond a verdict. */
export type StatusAnswer = TransactionResult | { kind: 'in-progress' } | { kind: 'not-found' };

/** The terminal could not be reached: nothing was sent, no money moved. */
export class TerminalNotReached extends Error {}

/** The request went out but no usable answer came back: only a status query can tell what happened. */
export class TerminalAnswerLost extends Error {}

/**
 * One terminal protocol. Each call either resolves with the terminal's answer
 * or throws `TerminalNotReached` / `TerminalAnswerLost`; the payments service
 * keeps the state machine and never looks at messages.
 */
export interface TerminalProtocol {
  /** Starts a payment and waits for its end (a terminal allows the customer 120 s). */
  start(endpoint: TerminalEndpoint, ask: PaymentAsk): Promise<TransactionResult>;
  /** Asks what became of the payment with this transaction reference, sent under `saleId` (default: this installation's). */
  status(endpoint: TerminalEndpoint, serviceId: string, saleId?: string): Promise<StatusAnswer>;
  /** Asks the terminal to stop the payment in progress; its own answer still says how it ended. */
  abort(endpoint: TerminalEndpoint, serviceId: string, saleId?: string): Promise<void>;
  /** Gives back `amount` of an approved payment; resolves with the terminal's message when it refused. */
  refund(endpoint: TerminalEndpoint, ask: RefundAsk): Promise<RefundResult>;
  /** Asks what became of the refund with this transaction reference. */
  refundStatus(endpoint: TerminalEndpoint, serviceId: string): Promise<RefundStatus>;
  /** The terminal's totals (approved minus reversed) since its last reconciliation, to compare with the day's card sales. */
  totals(endpoint: TerminalEndpoint): Promise<TerminalTotal[]>;
}
