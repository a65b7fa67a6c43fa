import type { StaffTextKey, StaffTranslate } from './texts.js';

/** The payment methods kiosks and tills record, and their words; any other method is shown as it was recorded. */
const METHOD_TEXT: Record<string, StaffTextKey> = {
  cash: 'method_cash',
  card: 'method_card',
  twint: 'method_twint',
  giftcard: 'method_giftcard',
  invoice: 'method_invoice',
};

export function methodText(t: StaffTranslate, method: string | null | undefined): string {
  if (!method) return t('noPaymentMethod');
  const key = METHOD_TEXT[method.toLowerCase()];
  return key ? t(key) : method;
}
