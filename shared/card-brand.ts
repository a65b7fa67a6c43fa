/**
 * Card brands as a customer knows them. Terminals report a brand as a code
 * (Adyen: `mc`, `visa`, `amex`, `maestro`, …; some as upper-case words such
 * as `MASTERCARD`); the receipt and the screen name it. A code not listed
 * here is shown as the terminal gave it.
 */
const BRAND_NAMES: Record<string, string> = {
  mc: 'Mastercard',
  mastercard: 'Mastercard',
  mcdebit: 'Debit Mastercard',
  maestro: 'Maestro',
  visa: 'Visa',
  visadebit: 'Visa Debit',
  vpay: 'V PAY',
  electron: 'Visa Electron',
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  cup: 'UnionPay',
  unionpay: 'UnionPay',
  postfinance: 'PostFinance Card',
  postfinance_card: 'PostFinance Card',
  twint: 'TWINT',
  girocard: 'girocard',
};

/** The brand's name for people: `mc` -> `Mastercard`, `VISA` -> `Visa`; unknown codes unchanged. */
export function cardBrandName(code: string): string {
  return BRAND_NAMES[code.trim().toLowerCase()] ?? code;
}
