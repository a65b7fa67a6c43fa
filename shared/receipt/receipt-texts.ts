import type { StoreLanguage } from '../languages.js';

/** The receipt's own words, the same on screen and on paper. */
export interface ReceiptTexts {
  vatNumber: string;
  receipt: string;
  number: string;
  deposit: string;
  deposits: string;
  salePrice: string;
  insteadOf: string;
  vatRate: string;
  net: string;
  vat: string;
  gross: string;
  total: string;
  paidWith: string;
  orderId: string;
  eReceipt: string;
  thanks: string;
  paymentMethods: Record<string, string>;
}

export const RECEIPT_TEXTS: Record<StoreLanguage, ReceiptTexts> = {
  de: {
    vatNumber: 'MWST-Nr.',
    receipt: 'Quittung',
    number: 'Nr.',
    deposit: 'Pfand',
    deposits: 'Pfand total',
    salePrice: 'Aktion',
    insteadOf: 'statt',
    vatRate: 'MWST',
    net: 'Netto',
    vat: 'MWST',
    gross: 'Brutto',
    total: 'Total',
    paidWith: 'Bezahlt mit',
    orderId: 'Beleg',
    eReceipt: 'Quittung online',
    thanks: 'Vielen Dank für Ihren Einkauf!',
    paymentMethods: { cash: 'Bar', card: 'Karte', providerA: 'Karte', providerB: 'Mobil bezahlen' },
  },
  fr: {
    vatNumber: 'No TVA',
    receipt: 'Quittance',
    number: 'No',
    deposit: 'Consigne',
    deposits: 'Consigne totale',
    salePrice: 'Action',
    insteadOf: 'au lieu de',
    vatRate: 'TVA',
    net: 'Net',
    vat: 'TVA',
    gross: 'Brut',
    total: 'Total',
    paidWith: 'Payé par',
    orderId: 'Pièce',
    eReceipt: 'Quittance en ligne',
    thanks: 'Merci de votre achat !',
    paymentMethods: { cash: 'Espèces', card: 'Carte', providerA: 'Carte', providerB: 'Paiement mobile' },
  },
  it: {
    vatNumber: 'N. IVA',
    receipt: 'Scontrino',
    number: 'N.',
    deposit: 'Deposito',
    deposits: 'Deposito totale',
    salePrice: 'Azione',
    insteadOf: 'invece di',
    vatRate: 'IVA',
    net: 'Netto',
    vat: 'IVA',
    gross: 'Lordo',
    total: 'Totale',
    paidWith: 'Pagato con',
    orderId: 'Documento',
    eReceipt: 'Scontrino online',
    thanks: 'Grazie per il vostro acquisto!',
    paymentMethods: { cash: 'Contanti', card: 'Carta', providerA: 'Carta', providerB: 'Pagamento mobile' },
  },
  en: {
    vatNumber: 'VAT No.',
    receipt: 'Receipt',
    number: 'No.',
    deposit: 'Deposit',
    deposits: 'Deposits',
    salePrice: 'Sale',
    insteadOf: 'instead of',
    vatRate: 'VAT',
    net: 'Net',
    vat: 'VAT',
    gross: 'Gross',
    total: 'Total',
    paidWith: 'Paid with',
    orderId: 'Document',
    eReceipt: 'Receipt online',
    thanks: 'Thank you for shopping with us!',
    paymentMethods: { cash: 'Cash', card: 'Card', providerA: 'Card', providerB: 'Mobile payment' },
  },
};
