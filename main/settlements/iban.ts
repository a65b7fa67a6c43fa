import { electronicFormatIBAN, isQRIBAN, isValidBIC, isValidIBAN } from 'ibantools';

/** An IBAN as typed (spaces, lower case) in its electronic form, e.g. `CH9300762011623852957`. */
export const ibanOf = (typed: string): string => electronicFormatIBAN(typed) ?? '';

/**
 * Why an IBAN cannot take a plain credit transfer, or null when it can. A
 * QR-IBAN (IID 30000-31999) takes only QR bills with a reference.
 */
export function ibanProblem(typed: string): string | null {
  const iban = ibanOf(typed);
  if (!isValidIBAN(iban)) return `${JSON.stringify(typed)} is not a valid IBAN (country, length or check digits are wrong)`;
  if (isQRIBAN(iban)) return `${JSON.stringify(typed)} is a QR-IBAN, which takes only QR bills; give the account's ordinary IBAN`;
  return null;
}

/** Why a BIC is not one, or null. */
export const bicProblem = (typed: string): string | null =>
  isValidBIC(typed.replace(/\s+/g, '').toUpperCase()) ? null : `${JSON.stringify(typed)} is not a valid BIC (8 or 11 letters and digits, e.g. UBSWCHZH80A)`;
