import type { Store } from '../../shared/api/stores.js';
import type { ReceiptStore } from '../../shared/receipt/receipt.js';
import { STORE_LANGUAGES, type StoreLanguage } from '../../shared/languages.js';

export type { StoreLanguage };
export type PaymentMethod = 'cash' | 'providerA' | 'providerB';

/** Everything of a store that changes how the kiosk looks and behaves, with the defaults applied. */
export interface KioskSettings {
  storeId: string;
  storeName: string;
  /** What the receipt says about the store (name, address, VAT number) and the time zone of its date and time. */
  receiptStore: ReceiptStore;
  languageMain: StoreLanguage;
  /** Languages the customer can switch between; only the main one unless `languageMulti`. */
  languages: StoreLanguage[];
  translations: Record<string, unknown>;
  logoUrl: string | undefined;
  /** The store's own e-receipt address: the only one the server prints for a kiosk. */
  receiptUrl: string | undefined;
  backgroundImage: string | undefined;
  backgroundImageCart: string | undefined;
  backgroundColor: string | undefined;
  backgroundFontColor: string | undefined;
  customMessage: string | undefined;
  hideTextStart: boolean;
  playSound: boolean;
  standardSound: string | undefined;
  showSupplier: boolean;
  showInfoButton: boolean;
  /** Seconds without a touch or a scan before a started purchase is cancelled; 0 never cancels. */
  deleteCountdown: number;
  /** Per method: offered at all, and offered while the upstream is unreachable. */
  payment: Record<PaymentMethod, { enabled: boolean; offline: boolean }>;
}

const isLanguage = (value: unknown): value is StoreLanguage => (STORE_LANGUAGES as readonly unknown[]).includes(value);

function imageSrc(ref: Store['backgroundImage']): string | undefined {
  const src = typeof ref === 'string' ? ref : ref?.src;
  return src ? src : undefined;
}

const nonEmpty = (value: string | undefined) => (value ? value : undefined);

export function settingsOf(store: Store): KioskSettings {
  const languageMain = isLanguage(store.languageMain) ? store.languageMain : 'de';
  const offered = (store.languageSelector ?? []).filter(isLanguage);
  const languages = store.languageMulti ? [languageMain, ...offered.filter((l) => l !== languageMain)] : [languageMain];
  return {
    storeId: store.id,
    storeName: store.name,
    receiptStore: { name: store.name, address: store.address, zipCode: store.zipCode, city: store.city, vatNumber: store.vatNumber, timeZone: store.timeZone },
    languageMain,
    languages,
    translations: store.translations ?? {},
    logoUrl: nonEmpty(store.logoUrl),
    receiptUrl: nonEmpty(store.receiptUrl),
    backgroundImage: imageSrc(store.backgroundImage),
    backgroundImageCart: imageSrc(store.backgroundImageCart),
    backgroundColor: nonEmpty(store.backgroundColor),
    backgroundFontColor: nonEmpty(store.backgroundFontColor),
    customMessage: nonEmpty(store.customMessage),
    hideTextStart: store.hideTextStart ?? false,
    playSound: store.playSound ?? false,
    standardSound: nonEmpty(store.standardSound),
    showSupplier: store.showSupplier ?? false,
    showInfoButton: store.showInfoButton ?? false,
    deleteCountdown: store.deleteCountdown ?? 0,
    payment: {
      cash: { enabled: store.paymentCash ?? false, offline: store.paymentCashOffline ?? false },
      // The API has no offline flag for provider A: its payments need the upstream.
      providerA: { enabled: store.paymentProviderA ?? false, offline: false },
      providerB: { enabled: store.paymentProviderB ?? false, offline: store.paymentProviderBOffline ?? false },
    },
  };
}

/**
 * Methods the customer may choose: while offline only those the store allows
 * offline, and card (provider A) only while the store's terminal answers.
 */
export function paymentMethodsOffered(settings: KioskSettings, offline: boolean, terminalReachable: boolean): PaymentMethod[] {
  return (Object.keys(settings.payment) as PaymentMethod[]).filter(
    (m) => settings.payment[m].enabled && (!offline || settings.payment[m].offline) && (m !== 'providerA' || terminalReachable),
  );
}
