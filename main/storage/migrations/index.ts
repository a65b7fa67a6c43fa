import { foundation } from './0001-foundation.js';
import { catalog } from './0002-catalog.js';
import { orders } from './0003-orders.js';
import { identityLogs } from './0004-identity-logs.js';
import { productImages } from './0005-product-images.js';
import { syncConfig } from './0006-sync-config.js';
import { syncState } from './0007-sync-state.js';
import { idempotencyKeys } from './0008-idempotency-keys.js';
import { idempotencyKeptForGood } from './0014-idempotency-kept-for-good.js';
import { scaleLabelRules } from './0009-scale-label-rules.js';
import { productFeed } from './0010-product-feed.js';
import { personalDataRetention } from './0011-personal-data-retention.js';
import { screenProducts } from './0012-screen-products.js';
import { syncCadences } from './0015-sync-cadences.js';
import { storeTimeZone } from './0016-store-time-zone.js';
import { productMinimumAge } from './0017-product-minimum-age.js';
import { deviceKeys } from './0018-device-keys.js';
import { printers } from './0019-printers.js';
import { boundedRetention } from './0021-bounded-retention.js';
import { syncWalks } from './0023-sync-walks.js';
import { installationAndFleet } from './0024-installation-and-fleet.js';
import { salesPerStore } from './0025-sales-per-store.js';
import { creationsAndFeedHorizons } from './0026-creations-and-feed-horizons.js';
import { cardPayments } from './0028-card-payments.js';
import { paymentsByStoreDay } from './0031-payments-by-store-day.js';
import { answersWithoutCreationIndex } from './0032-answers-without-creation-index.js';
import { answersInArrivalOrder } from './0033-answers-in-arrival-order.js';
import { durableRefunds } from './0034-durable-refunds.js';
import { paymentSaleId } from './0037-payment-sale-id.js';
import { rateWindows } from './0038-rate-windows.js';
import { catalogColumnMaps } from './0041-catalog-column-maps.js';
import { mailQueue } from './0047-mail-queue.js';
import { alerts } from './0048-alerts.js';
import { dailyMailMarks } from './0049-daily-mail-marks.js';
import { settlements } from './0050-settlements.js';
import { staffSignIns } from './0051-staff-sign-ins.js';
import { refundedOrders } from './0055-refunded-orders.js';
import { settlementsInParts } from './0056-settlements-in-parts.js';
import { paymentReasons } from './0057-payment-reasons.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration in order. Append new files; never edit one that has shipped. */
export const migrations: Migration[] = [
  foundation,
  catalog,
  orders,
  identityLogs,
  productImages,
  syncConfig,
  syncState,
  idempotencyKeys,
  scaleLabelRules,
  productFeed,
  personalDataRetention,
  screenProducts,
  idempotencyKeptForGood,
  syncCadences,
  storeTimeZone,
  productMinimumAge,
  deviceKeys,
  printers,
  boundedRetention,
  syncWalks,
  installationAndFleet,
  salesPerStore,
  creationsAndFeedHorizons,
  cardPayments,
  paymentsByStoreDay,
  answersWithoutCreationIndex,
  answersInArrivalOrder,
  durableRefunds,
  paymentSaleId,
  rateWindows,
  catalogColumnMaps,
  mailQueue,
  alerts,
  dailyMailMarks,
  settlements,
  staffSignIns,
  refundedOrders,
  settlementsInParts,
  paymentReasons,
];
