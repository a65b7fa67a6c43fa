import type { StoreLanguage } from '../../shared/languages.js';

/** A statement's words in each language a store can have. */
export interface StatementTexts {
  title: string;
  settlement: string;
  supplier: string;
  shop: string;
  period: string;
  recordedUntil: string;
  product: string;
  quantity: string;
  gross: string;
  refunds: string;
  total: string;
  margin: string;
  payout: string;
  account: string;
  noPayout: string;
  date: string;
  kind: string;
  sale: string;
  refund: string;
  store: string;
  /** The statement mail's body; `{number}` and `{shop}` are filled in. */
  mailText: string;
}

export const STATEMENT_TEXTS: Record<StoreLanguage, StatementTexts> = {
  de: {
    title: 'Abrechnung',
    settlement: 'Abrechnung Nr.',
    supplier: 'Lieferant',
    shop: 'Laden',
    period: 'Verkäufe vom',
    recordedUntil: 'erfasst bis',
    product: 'Artikel',
    quantity: 'Menge',
    gross: 'Umsatz',
    refunds: 'Rückerstattungen',
    total: 'Total Umsatz',
    margin: 'Marge',
    payout: 'Auszahlung',
    account: 'Auf Konto',
    noPayout: 'Keine Auszahlung',
    date: 'Datum',
    kind: 'Art',
    sale: 'Verkauf',
    refund: 'Rückerstattung',
    store: 'Laden',
    mailText: 'Guten Tag\n\nIm Anhang finden Sie die Abrechnung Nr. {number} von {shop}.\n\nFreundliche Grüsse\n{shop}',
  },
  fr: {
    title: 'Décompte',
    settlement: 'Décompte n°',
    supplier: 'Fournisseur',
    shop: 'Magasin',
    period: 'Ventes du',
    recordedUntil: 'enregistrées jusqu’au',
    product: 'Article',
    quantity: 'Quantité',
    gross: 'Chiffre d’affaires',
    refunds: 'Remboursements',
    total: 'Total des ventes',
    margin: 'Marge',
    payout: 'Versement',
    account: 'Sur le compte',
    noPayout: 'Pas de versement',
    date: 'Date',
    kind: 'Type',
    sale: 'Vente',
    refund: 'Remboursement',
    store: 'Magasin',
    mailText: 'Bonjour\n\nVous trouverez ci-joint le décompte n° {number} de {shop}.\n\nMeilleures salutations\n{shop}',
  },
  it: {
    title: 'Conteggio',
    settlement: 'Conteggio n.',
    supplier: 'Fornitore',
    shop: 'Negozio',
    period: 'Vendite dal',
    recordedUntil: 'registrate fino al',
    product: 'Articolo',
    quantity: 'Quantità',
    gross: 'Fatturato',
    refunds: 'Rimborsi',
    total: 'Totale vendite',
    margin: 'Margine',
    payout: 'Versamento',
    account: 'Sul conto',
    noPayout: 'Nessun versamento',
    date: 'Data',
    kind: 'Tipo',
    sale: 'Vendita',
    refund: 'Rimborso',
    store: 'Negozio',
    mailText: 'Buongiorno\n\nIn allegato trova il conteggio n. {number} di {shop}.\n\nCordiali saluti\n{shop}',
  },
  en: {
    title: 'Statement',
    settlement: 'Settlement no.',
    supplier: 'Supplier',
    shop: 'Shop',
    period: 'Sales from',
    recordedUntil: 'recorded until',
    product: 'Product',
    quantity: 'Quantity',
    gross: 'Sales',
    refunds: 'Refunds',
    total: 'Total sales',
    margin: 'Margin',
    payout: 'Payout',
    account: 'To account',
    noPayout: 'No payout',
    date: 'Date',
    kind: 'Kind',
    sale: 'Sale',
    refund: 'Refund',
    store: 'Shop',
    mailText: 'Hello\n\nAttached is statement no. {number} from {shop}.\n\nKind regards\n{shop}',
  },
};
