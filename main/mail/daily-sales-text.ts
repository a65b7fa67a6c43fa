import { LANGUAGE_LOCALES, type StoreLanguage } from '../../shared/languages.js';

export interface StoreSales {
  storeName: string;
  lines: { title: string; quantity: number; amount: number }[];
}

const WORDS: Record<StoreLanguage, { subject: string; intro: string; product: string; quantity: string; amount: string; total: string; dayTotal: string }> = {
  de: { subject: 'Verkäufe vom', intro: 'Ihre Verkäufe vom', product: 'Artikel', quantity: 'Menge', amount: 'Betrag', total: 'Total', dayTotal: 'Total des Tages' },
  fr: { subject: 'Ventes du', intro: 'Vos ventes du', product: 'Article', quantity: 'Quantité', amount: 'Montant', total: 'Total', dayTotal: 'Total du jour' },
  it: { subject: 'Vendite del', intro: 'Le vostre vendite del', product: 'Articolo', quantity: 'Quantità', amount: 'Importo', total: 'Totale', dayTotal: 'Totale del giorno' },
  en: { subject: 'Sales of', intro: 'Your sales of', product: 'Product', quantity: 'Quantity', amount: 'Amount', total: 'Total', dayTotal: "Day's total" },
};

/** Subject and text of a supplier's daily sales mail: per store, product, quantity and amount, then the day's total. */
export function dailySalesMail(input: { supplierName: string; date: string; language: StoreLanguage; stores: StoreSales[] }): { subject: string; text: string } {
  const words = WORDS[input.language];
  const locale = LANGUAGE_LOCALES[input.language];
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'CHF' });
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${input.date}T00:00:00Z`));
  const parts = [`${words.intro} ${day} — ${input.supplierName}`, ''];
  let dayTotal = 0;
  for (const store of input.stores) {
    const total = store.lines.reduce((sum, line) => sum + line.amount, 0);
    dayTotal += total;
    parts.push(store.storeName, `${words.product} | ${words.quantity} | ${words.amount}`);
    for (const line of store.lines) parts.push(`${line.title} | ${number.format(line.quantity)} | ${money.format(line.amount / 100)}`);
    parts.push(`${words.total}: ${money.format(total / 100)}`, '');
  }
  parts.push(`${words.dayTotal}: ${money.format(dayTotal / 100)}`, '');
  return { subject: `${words.subject} ${day}: ${input.supplierName}`, text: parts.join('\n') };
}
