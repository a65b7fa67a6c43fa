import { friendlyFormatIBAN } from 'ibantools';
import type { Settlement, SettlementSupplier } from '../../shared/api/settlements.js';
import { LANGUAGE_LOCALES, STORE_LANGUAGES, type StoreLanguage } from '../../shared/languages.js';
import type { Supplier } from '../../shared/api/suppliers.js';
import type { Store } from '../../shared/api/stores.js';
import type { SettlementAmountRecord, SettlementLineRecord } from '../storage/settlements.js';
import { ibanOf } from './iban.js';

/** What one supplier's statement says, whatever it is printed as. */
export interface StatementModel {
  language: StoreLanguage;
  locale: string;
  timeZone: string;
  number: number;
  to: string;
  /** Earliest and latest sale of the lines. */
  from: string;
  until: string;
  supplier: { id: string; name: string; street?: string | undefined; zipCode?: string | undefined; city?: string | undefined };
  shops: { name: string; gross: number; marginPercent: number; margin: number }[];
  products: { productId: string; title: string; quantity: number; gross: number }[];
  refunds: number;
  totals: SettlementSupplier;
  /** The account the payout goes to, as people read an IBAN, or null with no payout. */
  account: string | null;
  lines: SettlementLineRecord[];
}

const languageOf = (store: Store | undefined): StoreLanguage => {
  const language = store?.languageMain as StoreLanguage | undefined;
  return language && (STORE_LANGUAGES as readonly string[]).includes(language) ? language : 'de';
};

export function statementModel(input: {
  settlement: Settlement;
  totals: SettlementSupplier;
  amounts: SettlementAmountRecord[];
  lines: SettlementLineRecord[];
  supplier: Supplier | undefined;
  storeOf: (id: string) => Store | undefined;
}): StatementModel {
  const { settlement, totals, amounts, lines, supplier, storeOf } = input;
  // The statement speaks the language of the store where the supplier sold most.
  const mainStore = storeOf([...amounts].sort((a, b) => b.gross - a.gross)[0]?.store ?? settlement.store ?? '');
  const language = languageOf(mainStore);
  const products = new Map<string, StatementModel['products'][number]>();
  let refunds = 0;
  for (const line of lines) {
    if (line.kind === 'refund') {
      refunds += line.amount;
      continue;
    }
    const key = `${line.productId}\u0000${line.title}`;
    const product = products.get(key) ?? { productId: line.productId, title: line.title, quantity: 0, gross: 0 };
    product.quantity = Math.round((product.quantity + line.quantity) * 1e6) / 1e6;
    product.gross += line.amount;
    products.set(key, product);
  }
  const dates = lines.map((l) => l.orderDate).sort();
  return {
    language,
    locale: LANGUAGE_LOCALES[language],
    timeZone: mainStore?.timeZone ?? 'Europe/Zurich',
    number: settlement.number,
    to: settlement.to,
    from: dates[0] ?? settlement.to,
    until: dates[dates.length - 1] ?? settlement.to,
    supplier: { id: totals.supplier, name: totals.name, street: supplier?.street, zipCode: supplier?.plz, city: supplier?.city },
    shops: amounts
      .map((a) => ({ name: storeOf(a.store)?.name ?? a.store, gross: a.gross, marginPercent: a.marginPercent, margin: a.margin }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    products: [...products.values()].sort((a, b) => a.title.localeCompare(b.title)),
    refunds,
    totals,
    account: totals.payoutProblem === null && supplier?.iban ? friendlyFormatIBAN(ibanOf(supplier.iban)) ?? supplier.iban : null,
    lines,
  };
}
