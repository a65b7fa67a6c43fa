import type { Logger } from 'pino';
import { crashPoint } from '../system/crash-point.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Clock } from '../services/clock.js';
import type { Db } from '../storage/database.js';
import type { PaymentStore } from '../storage/payments.js';
import type { StoreStore } from '../storage/stores.js';
import { createTerminalStore } from '../storage/terminals.js';
import { createCardDay } from './card-day.js';
import { nexoLocal } from './nexo/nexo-local.js';
import { createPaymentService } from './payment-service.js';
import { createPaymentSettling, DEFAULT_FOLLOW_PACE, type FollowPace } from './payment-settling.js';
import { createTerminalRegistry } from './terminal-registry.js';
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
}) {
  const { payments } = deps;
  const terminals = createTerminalRegistry({
    terminals: createTerminalStore(deps.db),
    stores: deps.stores,
    secrets: deps.secrets,
    policy: deps.network ?? terminalNetworkPolicy(),
    clock: deps.clock,
  });
  const protocol = nexoLocal({ clock: deps.clock, onPaymentSent: () => crashPoint('after-payment-sent') });
  const settling = createPaymentSettling({
    payments,
    registry: terminals,
    protocol,
    clock: deps.clock,
    logger: deps.logger,
    durable: deps.durable,
    pace: deps.pace ?? DEFAULT_FOLLOW_PACE,
    crash: crashPoint,
  });
  const service = createPaymentService({ payments, stores: deps.stores, registry: terminals, protocol, settling, clock: deps.clock, durable: deps.durable });
  const cardDay = createCardDay({ registry: terminals, protocol, clock: deps.clock });
  return { terminals, service, settling, cardDay };
}

export type CardPayments = ReturnType<typeof createCardPayments>;
