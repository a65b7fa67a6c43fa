import type { BlockedIdentity } from '../../shared/api/identity-logs.js';
import { ageOn, calendarDate, isoDate, localToday, type CalendarDate } from './age.js';
import { ApiError, type ApiClient } from './api-client.js';
import type { IdentityDocument } from './mrz.js';

/** `age` is the customer's age on the day: the lines above it are the ones refused. */
export type AgeVerdict = { access: true } | { access: false; reason: 'underage'; age: number } | { access: false; reason: 'blocked' };

/** A birth date typed by the customer, or a document read from its MRZ. */
export type AgeEvidence = { birthDate: CalendarDate; document?: IdentityDocument };

const normalName = (name: string) => name.toUpperCase().replace(/[^A-ZÀ-Ý]+/g, ' ').trim();

/** Blocked birth dates are stored as written: ISO, Swiss `DD.MM.YYYY` or the MRZ's `YYMMDD`. */
function blockedBirthDate(value: string, doc: IdentityDocument): CalendarDate | undefined {
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (m) return calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
  if (m) return calendarDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (m) return calendarDate(Math.floor(doc.birthDate.year / 100) * 100 + Number(m[1]), Number(m[2]), Number(m[3]));
  return undefined;
}

/** Same last name, every blocked first name among the document's, and the same birth date when one is stored. */
export function matchesBlocked(doc: IdentityDocument, blocked: BlockedIdentity): boolean {
  if (blocked.deleted) return false;
  if (blocked.rawMrz && normalName(blocked.rawMrz) === normalName(doc.rawText)) return true;
  if (normalName(blocked.last_name) !== normalName(doc.lastName)) return false;
  const given = new Set(normalName(doc.firstName).split(' '));
  if (!normalName(blocked.first_name).split(' ').every((n) => given.has(n))) return false;
  if (!blocked.birthDate) return true;
  const date = blockedBirthDate(blocked.birthDate, doc);
  return date !== undefined && isoDate(date) === isoDate(doc.birthDate);
}

/** The blocked list, or undefined when the organization has no identity-log feature. */
async function blockedList(api: ApiClient): Promise<BlockedIdentity[] | undefined> {
  try {
    return await api.blockedIdentities();
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return undefined;
    throw err;
  }
}

/**
 * Decides an age check against `minimumAge`, the highest age the cart's
 * products require, and, when the organization has the identity-log feature,
 * records it with its own time (checks made while offline keep theirs).
 */
export async function verifyAge(api: ApiClient, evidence: AgeEvidence, storeId: string, now: Date, minimumAge: number): Promise<AgeVerdict> {
  const blocked = await blockedList(api);
  const doc = evidence.document;
  const age = ageOn(evidence.birthDate, localToday(now));
  let verdict: AgeVerdict = age >= minimumAge ? { access: true } : { access: false, reason: 'underage', age };
  if (doc && blocked?.some((b) => matchesBlocked(doc, b))) verdict = { access: false, reason: 'blocked' };
  if (blocked !== undefined) {
    await api.recordIdentityCheck({
      access: verdict.access,
      logType: 'age-check',
      store: storeId,
      source: doc?.source ?? 'birth_date_entry',
      birthDate: isoDate(evidence.birthDate),
      ...(doc ? { rawText: doc.rawText } : {}),
      logDate: now.toISOString(),
    });
  }
  return verdict;
}
