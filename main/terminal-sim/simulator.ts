import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openMessage, sealMessage, type SecuredMessage } from '../payments/nexo/nexo-crypto.js';
import { NEXO_PATH } from '../payments/nexo/nexo-transport.js';
import type { TerminalEndpoint } from '../payments/terminal-protocol.js';
import type { SimulatorIdentity } from './identity.js';
import { parseOrder, paymentResponse, type Reversal, type SimulatorOrder, type Transaction, type TransactionState } from './transactions.js';

/** A terminal answers on `/nexo`; Adyen's library posts to `/nexo/`. */
const NEXO_PATHS = new Set([NEXO_PATH, `${NEXO_PATH}/`]);

/** Without an order the simulated customer pays after this long. */
export const DEFAULT_DELAY_MS = 1000;

type Json = Record<string, any>;

export interface RunningSimulator {
  host: string;
  port: number;
  /** The line printed once ready: what `POST /terminals` takes. */
  readyLine(): TerminalEndpoint;
  /** Ends an absence (`POST /simulator/unreachable`) before its time. */
  comeBack(): void;
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * A card terminal in Adyen's local mode, for tests and for trying the kiosk
 * without hardware: the same TLS, message encryption and messages (payment,
 * transaction status, abort, reversal, receipts), and a side door
 * (`/simulator/...`) that decides what its next customers do.
 */
export async function startSimulator(identity: SimulatorIdentity, port: number, host = '127.0.0.1'): Promise<RunningSimulator> {
  const orders: SimulatorOrder[] = [];
  const transactions = new Map<string, Transaction>();
  const reversals = new Map<string, Reversal>();
  const key = { keyIdentifier: identity.keyIdentifier, keyVersion: identity.keyVersion, passphrase: identity.passphrase };
  let current: Transaction | undefined;

  const answer = (res: ServerResponse, request: Json, body: string, content: unknown) => {
    const header = { ...request.MessageHeader, MessageType: 'Response' };
    sendJson(res, 200, { SaleToPOIResponse: sealMessage(header, { SaleToPOIResponse: { MessageHeader: header, [body]: content } }, key) });
  };

  const decide = (t: Transaction, state: TransactionState) => {
    if (t.state !== 'in-progress') return;
    t.state = state;
    t.timeStamp = new Date().toISOString();
    t.response = paymentResponse(t);
    if (current === t) current = undefined;
    t.finish?.(state);
  };

  const pay = (res: ServerResponse, request: Json) => {
    const header = request.MessageHeader as Json;
    const order = orders.shift() ?? { outcome: 'approve', delayMs: DEFAULT_DELAY_MS };
    if (order.outcome === 'ignore') return res.destroy();
    const asked = request.PaymentRequest?.PaymentTransaction?.AmountsReq as Json;
    const t: Transaction = {
      serviceId: String(header.ServiceID),
      saleId: String(header.SaleID),
      reference: String(request.PaymentRequest?.SaleData?.SaleTransactionID?.TransactionID ?? ''),
      amount: order.amount ?? Math.round(Number(asked?.RequestedAmount) * 100),
      currency: order.currency ?? String(asked?.Currency),
      state: 'in-progress',
      brand: order.brand ?? 'mc',
      poiTransactionId: randomBytes(8).toString('hex').toUpperCase(),
      timeStamp: new Date().toISOString(),
      refunded: 0,
    };
    if (order.outcome === 'busy' || current) {
      t.state = 'busy';
      if (!current) transactions.set(t.serviceId, t);
      return answer(res, request, 'PaymentResponse', paymentResponse(t));
    }
    transactions.set(t.serviceId, t);
    current = t;
    if (order.outcome === 'lose-answer') {
      // The answer is lost on the way: the terminal goes on and approves, the till hears nothing.
      res.destroy();
    } else {
      t.finish = () => {
        t.finish = undefined;
        answer(res, request, 'PaymentResponse', t.response);
      };
    }
    const verdict: TransactionState = order.outcome === 'decline' ? 'declined' : order.outcome === 'cancel' ? 'cancelled' : 'approved';
    setTimeout(() => decide(t, verdict), order.delayMs ?? 0);
  };

  const reversalStatus = (res: ServerResponse, request: Json, r: Reversal) => {
    if (r.state === 'in-progress') return answer(res, request, 'TransactionStatusResponse', { Response: { Result: 'Failure', ErrorCondition: 'InProgress' } });
    const repeatedHeader = { ProtocolVersion: '3.0', MessageClass: 'Service', MessageCategory: 'Reversal', MessageType: 'Response', SaleID: r.saleId, ServiceID: r.serviceId, POIID: identity.poiId };
    answer(res, request, 'TransactionStatusResponse', {
      Response: { Result: 'Success' },
      RepeatedMessageResponse: { MessageHeader: repeatedHeader, RepeatedResponseMessageBody: { ReversalResponse: r.response } },
    });
  };

  const status = (res: ServerResponse, request: Json) => {
    const reference = (request.TransactionStatusRequest?.MessageReference ?? {}) as Json;
    const serviceId = String(reference.ServiceID ?? '');
    // A terminal knows a transaction by the SaleID and ServiceID it was sent with together.
    const sameSale = (saleId: string) => reference.SaleID === undefined || reference.SaleID === saleId;
    const reversal = reversals.get(serviceId);
    if (reversal && sameSale(reversal.saleId)) return reversalStatus(res, request, reversal);
    const t = transactions.get(serviceId);
    if (!t || !sameSale(t.saleId)) return answer(res, request, 'TransactionStatusResponse', { Response: { Result: 'Failure', ErrorCondition: 'NotFound' } });
    if (t.state === 'in-progress') return answer(res, request, 'TransactionStatusResponse', { Response: { Result: 'Failure', ErrorCondition: 'InProgress' } });
    const repeatedHeader = { ProtocolVersion: '3.0', MessageClass: 'Service', MessageCategory: 'Payment', MessageType: 'Response', SaleID: t.saleId, ServiceID: t.serviceId, POIID: identity.poiId };
    answer(res, request, 'TransactionStatusResponse', {
      Response: { Result: 'Success' },
      RepeatedMessageResponse: { MessageHeader: repeatedHeader, RepeatedResponseMessageBody: { PaymentResponse: t.response } },
    });
  };

  const abort = (res: ServerResponse, request: Json) => {
    const t = transactions.get(String(request.AbortRequest?.MessageReference?.ServiceID ?? ''));
    if (t) decide(t, 'cancelled');
    res.writeHead(200).end();
  };

  /**
   * A reversal takes the next order like a payment: `approve` (or no order)
   * gives the money back after `delayMs`, `decline`/`cancel`/`busy` refuse it,
   * `lose-answer` gives it back and closes the connection without answering,
   * `ignore` closes it and records nothing.
   */
  const reverse = (res: ServerResponse, request: Json) => {
    const header = request.MessageHeader as Json;
    const order = orders.shift() ?? { outcome: 'approve' };
    if (order.outcome === 'ignore') return res.destroy();
    const body = request.ReversalRequest as Json;
    const reversal: Reversal = { serviceId: String(header.ServiceID), saleId: String(header.SaleID), state: 'in-progress', response: undefined };
    reversals.set(reversal.serviceId, reversal);
    const id = String(body?.OriginalPOITransaction?.POITransactionID?.TransactionID ?? '');
    const refuse = (condition: string) => ({ Response: { Result: 'Failure', ErrorCondition: condition } });
    const settle = () => {
      const t = [...transactions.values()].find((candidate) => candidate.poiTransactionId === id && candidate.state === 'approved');
      const amount = body?.ReversedAmount === undefined ? (t ? t.amount - t.refunded : 0) : Math.round(Number(body.ReversedAmount) * 100);
      if (order.outcome === 'decline' || order.outcome === 'cancel' || order.outcome === 'busy') {
        reversal.response = refuse(order.outcome === 'busy' ? 'Busy' : 'Refusal');
      } else if (!t || amount <= 0 || t.refunded + amount > t.amount) {
        reversal.response = refuse(t ? 'NotAllowed' : 'NotFound');
      } else {
        t.refunded += amount;
        reversal.response = { Response: { Result: 'Success' }, ReversedAmount: amount / 100 };
      }
      reversal.state = 'decided';
    };
    if (order.outcome === 'lose-answer') res.destroy();
    setTimeout(() => {
      settle();
      if (order.outcome !== 'lose-answer') answer(res, request, 'ReversalResponse', reversal.response);
    }, order.delayMs ?? 0);
  };

  const reconcile = (res: ServerResponse, request: Json) => {
    const approved = [...transactions.values()].filter((t) => t.state === 'approved');
    const brands = [...new Set(approved.map((t) => t.brand))].sort();
    answer(res, request, 'ReconciliationResponse', {
      Response: { Result: 'Success' },
      ReconciliationType: 'SaleReconciliation',
      TransactionTotals: brands.map((brand) => {
        const of = approved.filter((t) => t.brand === brand);
        const refunded = of.filter((t) => t.refunded > 0);
        return {
          PaymentInstrumentType: 'Card',
          CardBrand: brand,
          PaymentTotals: [
            { TransactionType: 'Debit', TransactionCount: of.length, TransactionAmount: of.reduce((n, t) => n + t.amount, 0) / 100 },
            { TransactionType: 'ReverseDebit', TransactionCount: refunded.length, TransactionAmount: refunded.reduce((n, t) => n + t.refunded, 0) / 100 },
          ],
        };
      }),
    });
  };

  const HANDLERS: Record<string, (res: ServerResponse, request: Json) => void> = { Payment: pay, TransactionStatus: status, Abort: abort, Reversal: reverse, Reconciliation: reconcile };

  const nexo = (res: ServerResponse, text: string) => {
    let request: Json;
    try {
      const secured = (JSON.parse(text) as { SaleToPOIRequest: SecuredMessage }).SaleToPOIRequest;
      request = (openMessage(secured, key) as { SaleToPOIRequest: Json }).SaleToPOIRequest;
    } catch {
      return sendJson(res, 400, { error: 'not a nexo message secured with this terminal\'s key' });
    }
    const handler = HANDLERS[String(request.MessageHeader?.MessageCategory)];
    if (!handler) return sendJson(res, 400, { error: `unsupported message category ${String(request.MessageHeader?.MessageCategory)}` });
    handler(res, request);
  };

  let server: Server;
  let boundPort = port;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(boundPort, host, () => {
        server.off('error', reject);
        boundPort = (server.address() as AddressInfo).port;
        resolve();
      });
    });

  let absence: NodeJS.Timeout | undefined;
  /** Back on the network: at the end of an absence, or earlier when told. */
  const comeBack = () => {
    if (absence === undefined) return;
    clearTimeout(absence);
    absence = undefined;
    void listen();
  };
  /** The terminal drops off the network for a while: connections are refused, transactions go on. */
  const goAway = (ms: number) => {
    server.close();
    server.closeAllConnections();
    absence = setTimeout(comeBack, ms);
  };

  const side = (req: IncomingMessage, res: ServerResponse, text: string) => {
    try {
      if (req.url === '/simulator/next' && req.method === 'POST') {
        orders.push(parseOrder(JSON.parse(text || '{}')));
        return sendJson(res, 200, { queued: orders.length });
      }
      if (req.url === '/simulator/unreachable' && req.method === 'POST') {
        const ms = Number((JSON.parse(text || '{}') as Json).ms ?? 5000);
        sendJson(res, 200, { unreachableMs: ms });
        return setTimeout(() => goAway(ms), 10);
      }
      if (req.url === '/simulator/transactions' && req.method === 'GET') {
        return sendJson(res, 200, [...transactions.values()].map(({ serviceId, reference, amount, currency, state, refunded, brand, timeStamp }) => ({ serviceId, reference, amount, currency, state, refunded, brand, decidedAt: timeStamp })));
      }
      sendJson(res, 404, { error: `no ${req.method} ${req.url}` });
    } catch (err) {
      sendJson(res, 400, { error: err instanceof Error ? err.message : String(err) });
    }
  };

  server = createServer({ cert: identity.cert, key: identity.key }, (req, res) => {
    readBody(req).then((text) => (NEXO_PATHS.has(req.url ?? '') && req.method === 'POST' ? nexo(res, text) : side(req, res, text)), () => res.destroy());
  });
  await listen();

  return {
    host,
    get port() {
      return boundPort;
    },
    readyLine: () => ({
      host,
      port: boundPort,
      poiId: identity.poiId,
      keyIdentifier: identity.keyIdentifier,
      keyVersion: identity.keyVersion,
      passphrase: identity.passphrase,
      certificate: identity.caCertificate,
    }),
    comeBack,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(absence);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
