import type { Logger } from 'pino';
import { crashPoint } from '../system/crash-point.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Clock } from '../services/clock.js';
import type { Db } from '../storage/database.js';
import type { PaymentStore } from '../storage/payments.js';
import type { StoreStore } from '../storage/stores.js';
import { createInstallationStore } from '../storage/installation.js';
import { createTerminalStore } from '../storage/terminals.js';
import { createCardDay } from './card-day.js';
import { nexoLocal } from './nexo/nexo-local.js';
import { saleIdOf } from './nexo/sale-id.js';
import { createPaymentService } from './payment-service.js';
import { createPaymentSettling, DEFAULT_FOLLOW_PACE, type FollowPace } from './payment-settling.js';
import { createRefundSettling } from './refund-settling.js';
import { createTerminalRegistry } from './terminal-registry.js';
import { createRefundStore } from '../storage/refunds.js';
import type { OrderStore } from '../storage/orders.js';
import type { OutboxStore } from '../storage/outbox.js';
import { DEFAULT_PAYMENT_MAX_CENTS } from '../../shared/api/payments.js';
import { terminalNetworkPolicy, type TerminalNetworkPolicy } from './terminal-network.js';

/** Terminals and card payments over one database, with the nexo local protocol. */
export function createCardPayments(deps: {
  db: Db;
  stores: StoreStore;
  payments: PaymentStore;
  clock: Clock;
  logger: Logger;
  durable: () => Promise<void>;
  /** Seals terminal passphrases with the data folder's key file, like the upstream key. */
  secrets: SecretBox;
  network?: TerminalNetworkPolicy | undefined;
  pace?: FollowPace | undefined;
  /** Largest amount of one payment, in cents; default CHF 5,000. */
  maxAmount?: number | undefined;
  /** Orders a refund changes, and their queue to the upstream. */
  orders: OrderStore;
  outbox: OutboxStore;
}) {
  const { payments } = deps;
  const pace = deps.pace ?? DEFAULT_FOLLOW_PACE;
  const terminals = createTerminalRegistry({
    terminals: createTerminalStore(deps.db),
    stores: deps.stores,
    secrets: deps.secrets,
    policy: deps.network ?? terminalNetworkPolicy(),
    clock: deps.clock,
  });
  // Read once: the installation id is renewed only at start, before this is made.
  const saleId = saleIdOf(createInstallationStore(deps.db).get().id);
  const protocol = nexoLocal({ clock: deps.clock, saleId, onPaymentSent: () => crashPoint('after-payment-sent'), onRefundSent: () => crashPoint('after-refund-sent') });
  const refunds = createRefundSettling({
    db: deps.db,
    payments,
    refunds: createRefundStore(deps.db),
    orders: deps.orders,
    outbox: deps.outbox,
    registry: terminals,
    protocol,
    clock: deps.clock,
    logger: deps.logger,
    durable: deps.durable,
    pace,
  });
  const paymentSettling = createPaymentSettling({
    payments,
    registry: terminals,
    protocol,
    clock: deps.clock,
    logger: deps.logger,
    durable: deps.durable,
    pace,
    crash: crashPoint,
    refunds,
  });
  const service = createPaymentService({
    payments,
    stores: deps.stores,
    registry: terminals,
    protocol,
    settling: paymentSettling,
    refunds,
    clock: deps.clock,
    durable: deps.durable,
    maxAmount: deps.maxAmount ?? DEFAULT_PAYMENT_MAX_CENTS,
    saleId,
  });
  const cardDay = createCardDay({ registry: terminals, protocol, clock: deps.clock });
  /** Payments and refunds left open by the last run, settled at start; every follow-up stopped at shutdown. */
  const settling = {
    async settleOpen(): Promise<void> {
      await Promise.all([paymentSettling.settleOpen(), refunds.settleOpen()]);
    },
    stop(): void {
      paymentSettling.stop();
      refunds.stop();
    },
  };
  return { terminals, service, settling, cardDay };
}

export type CardPayments = ReturnType<typeof createCardPayments>;
