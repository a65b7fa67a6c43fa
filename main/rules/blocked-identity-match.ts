import type { BlockedIdentity } from '../../shared/api/identity-logs.js';

/** An identity as a kiosk read it from a document: names, and the birth date and raw MRZ when it has them. */
export interface IdentityClaim {
  lastName: string;
  /** Every given name, separated by spaces. */
  firstNames: string;
  /** `YYYY-MM-DD`. */
  birthDate?: string | undefined;
  rawText?: string | undefined;
}

const normalName = (name: string) => name.toUpperCase().replace(/[^A-ZÀ-Ý]+/g, ' ').trim();

const isoOf = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * A blocked birth date as staff or a document wrote it: ISO, Swiss
 * `DD.MM.YYYY`, or the MRZ's `YYMMDD`, whose century is taken from the
 * claimed birth year.
 */
function blockedBirthDate(value: string, claimed: string): string | undefined {
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (m) return isoOf(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
  if (m) return isoOf(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (m) return isoOf(Math.floor(Number(claimed.slice(0, 4)) / 100) * 100 + Number(m[1]), Number(m[2]), Number(m[3]));
  return undefined;
}

/**
 * Whether a claimed identity is a blocked one: the same raw MRZ, or the same
 * last name with every blocked first name among the claimed ones and, when
 * both sides have one, the same birth date. A claim without a birth date is
 * matched on the names alone: leaving the date out must not get a blocked
 * person through.
 */
export function matchesBlocked(claim: IdentityClaim, blocked: BlockedIdentity): boolean {
  if (blocked.deleted) return false;
  if (blocked.rawMrz && claim.rawText && normalName(blocked.rawMrz) === normalName(claim.rawText)) return true;
  if (normalName(blocked.last_name) !== normalName(claim.lastName)) return false;
  const given = new Set(normalName(claim.firstNames).split(' '));
  if (!normalName(blocked.first_name).split(' ').every((n) => given.has(n))) return false;
  if (!blocked.birthDate || !claim.birthDate) return true;
  return blockedBirthDate(blocked.birthDate, claim.birthDate) === claim.birthDate;
}
