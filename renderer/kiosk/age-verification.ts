import { ageOn, isoDate, localToday, type CalendarDate } from './age.js';
import { ApiError, type ApiClient } from './api-client.js';
import type { IdentityDocument } from './mrz.js';

/** `age` is the customer's age on the day: the lines above it are the ones refused. */
export type AgeVerdict = { access: true } | { access: false; reason: 'underage'; age: number } | { access: false; reason: 'blocked' };

/** A birth date typed by the customer, or a document read from its MRZ. */
export type AgeEvidence = { birthDate: CalendarDate; document?: IdentityDocument };

/** An identity-log call refused with 403: the organization has no identity-log feature. */
const featureMissing = (err: unknown) => err instanceof ApiError && err.status === 403;

/** Asks the server whether the document's holder is blocked; undefined when the organization keeps no identity logs. */
async function blockedVerdict(api: ApiClient, doc: IdentityDocument): Promise<boolean | undefined> {
  try {
    const verdict = await api.identityVerdict({ lastName: doc.lastName, firstNames: doc.firstName, birthDate: isoDate(doc.birthDate), rawText: doc.rawText });
    return verdict.blocked;
  } catch (err) {
    if (featureMissing(err)) return undefined;
    throw err;
  }
}

/**
 * Decides an age check against `minimumAge`, the highest age the cart's
 * products require, and the server's verdict on a scanned document (the
 * blocked list stays on the server); when the organization has the
 * identity-log feature, records the check with its own time (checks made
 * while offline keep theirs).
 */
export async function verifyAge(api: ApiClient, evidence: AgeEvidence, storeId: string, now: Date, minimumAge: number): Promise<AgeVerdict> {
  const doc = evidence.document;
  const blocked = doc ? await blockedVerdict(api, doc) : false;
  const age = ageOn(evidence.birthDate, localToday(now));
  let verdict: AgeVerdict = age >= minimumAge ? { access: true } : { access: false, reason: 'underage', age };
  if (blocked === true) verdict = { access: false, reason: 'blocked' };
  if (blocked === undefined) return verdict;
  try {
    await api.recordIdentityCheck({
      access: verdict.access,
      logType: 'age-check',
      store: storeId,
      source: doc?.source ?? 'birth_date_entry',
      birthDate: isoDate(evidence.birthDate),
      ...(doc ? { rawText: doc.rawText } : {}),
      logDate: now.toISOString(),
    });
  } catch (err) {
    if (!featureMissing(err)) throw err;
  }
  return verdict;
}
