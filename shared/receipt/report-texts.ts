import type { StoreLanguage } from '../languages.js';

/** The printed day's report's own words; payment methods and VAT headings are the receipt's. */
export interface ReportTexts {
  title: string;
  sales: string;
  total: string;
  deposits: string;
  /** `{lines}` lines sold at their sale price. */
  discounts: string;
  byPayment: string;
  noPaymentMethod: string;
  byVat: string;
  firstSale: string;
  lastSale: string;
  noSales: string;
  notCounted: string;
  deletedOrders: string;
  /** An order's payment state other than paid, `{state}`. */
  otherState: string;
  printedAt: string;
  /** The card section: the server's card takings by brand beside the terminals' own. */
  card: string;
  cardOurs: string;
  cardTerminal: string;
  cardDifference: string;
  /** The terminals did not all tell their totals. */
  cardTerminalUnknown: string;
  /** `{count}` card refunds confirmed on the day. */
  refunds: string;
  warnings: string;
  paymentWithoutOrder: string;
  reversalPending: string;
}

export const REPORT_TEXTS: Record<StoreLanguage, ReportTexts> = {
  de: {
    title: 'Tagesabschluss',
    sales: 'Verkäufe',
    total: 'Total',
    deposits: 'Pfand',
    discounts: 'Aktionsrabatte ({lines} Pos.)',
    byPayment: 'Nach Zahlungsart',
    noPaymentMethod: 'Ohne Zahlungsart',
    byVat: 'MWST nach Satz',
    firstSale: 'Erster Verkauf',
    lastSale: 'Letzter Verkauf',
    noSales: 'Keine Verkäufe an diesem Tag.',
    notCounted: 'Nicht im Total',
    deletedOrders: 'Gelöschte Belege',
    otherState: 'Zahlung {state}',
    printedAt: 'Gedruckt',
    card: 'Karten',
    cardOurs: 'Kasse',
    cardTerminal: 'Terminal',
    cardDifference: 'Differenz',
    cardTerminalUnknown: 'Terminal ohne Antwort: keine Summen',
    refunds: 'Rückerstattungen ({count})',
    warnings: 'ACHTUNG',
    paymentWithoutOrder: 'Zahlung ohne Verkauf',
    reversalPending: 'Belastet, Storno ausstehend',
  },
  fr: {
    title: 'Clôture journalière',
    sales: 'Ventes',
    total: 'Total',
    deposits: 'Consigne',
    discounts: 'Rabais action ({lines} pos.)',
    byPayment: 'Par mode de paiement',
    noPaymentMethod: 'Sans mode de paiement',
    byVat: 'TVA par taux',
    firstSale: 'Première vente',
    lastSale: 'Dernière vente',
    noSales: 'Aucune vente ce jour.',
    notCounted: 'Hors total',
    deletedOrders: 'Pièces supprimées',
    otherState: 'Paiement {state}',
    printedAt: 'Imprimé le',
    card: 'Cartes',
    cardOurs: 'Caisse',
    cardTerminal: 'Terminal',
    cardDifference: 'Différence',
    cardTerminalUnknown: 'Terminal sans réponse : pas de totaux',
    refunds: 'Remboursements ({count})',
    warnings: 'ATTENTION',
    paymentWithoutOrder: 'Paiement sans vente',
    reversalPending: 'Débité, annulation en attente',
  },
  it: {
    title: 'Chiusura giornaliera',
    sales: 'Vendite',
    total: 'Totale',
    deposits: 'Deposito',
    discounts: 'Sconti azione ({lines} pos.)',
    byPayment: 'Per modo di pagamento',
    noPaymentMethod: 'Senza modo di pagamento',
    byVat: 'IVA per aliquota',
    firstSale: 'Prima vendita',
    lastSale: 'Ultima vendita',
    noSales: 'Nessuna vendita in questo giorno.',
    notCounted: 'Fuori dal totale',
    deletedOrders: 'Documenti cancellati',
    otherState: 'Pagamento {state}',
    printedAt: 'Stampato il',
    card: 'Carte',
    cardOurs: 'Cassa',
    cardTerminal: 'Terminale',
    cardDifference: 'Differenza',
    cardTerminalUnknown: 'Terminale senza risposta: nessun totale',
    refunds: 'Rimborsi ({count})',
    warnings: 'ATTENZIONE',
    paymentWithoutOrder: 'Pagamento senza vendita',
    reversalPending: 'Addebitato, storno in sospeso',
  },
  en: {
    title: "Day's closing",
    sales: 'Sales',
    total: 'Total',
    deposits: 'Deposits',
    discounts: 'Sale-price discounts ({lines} lines)',
    byPayment: 'By payment method',
    noPaymentMethod: 'No payment method',
    byVat: 'VAT by rate',
    firstSale: 'First sale',
    lastSale: 'Last sale',
    noSales: 'No sales on this day.',
    notCounted: 'Not in the total',
    deletedOrders: 'Deleted orders',
    otherState: 'Payment {state}',
    printedAt: 'Printed',
    card: 'Cards',
    cardOurs: 'Till',
    cardTerminal: 'Terminal',
    cardDifference: 'Difference',
    cardTerminalUnknown: 'A terminal did not answer: no totals',
    refunds: 'Refunds ({count})',
    warnings: 'WARNING',
    paymentWithoutOrder: 'Payment without a sale',
    reversalPending: 'Charged, reversal pending',
  },
};
