/** A store's time zone when none is set: the shops this product serves are Swiss. */
export const DEFAULT_TIME_ZONE = 'Europe/Zurich';

/** Whether `name` is an IANA time zone this runtime knows (what `Intl` accepts). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** The local calendar day (`YYYY-MM-DD`) of an instant in a time zone. */
export function localDate(instant: number, timeZone: string): string {
  const parts = dayFormat(timeZone).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const MINUTE = 60_000;
/** Farther than any UTC offset (they range from -12 to +14 hours). */
const REACH = 15 * 60 * MINUTE;

/**
 * The first instant (ms since the epoch) whose local day is `date` or later.
 * Usually local midnight; where a change of clocks skips midnight, the first
 * moment that exists. Clocks change on whole minutes, so a search by minutes
 * finds it exactly.
 */
export function startOfLocalDay(date: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  let low = Math.floor((midnightUtc - REACH) / MINUTE);
  let high = Math.ceil((midnightUtc + REACH) / MINUTE);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (localDate(middle * MINUTE, timeZone) >= date) high = middle;
    else low = middle + 1;
  }
  return low * MINUTE;
}

/** The day after `date`, both `YYYY-MM-DD`. */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 24 * 60 * MINUTE).toISOString().slice(0, 10);
}

/** The UTC bounds of a local day: `start` inclusive, `end` exclusive; 23 or 25 hours apart on days the clocks change. */
export function localDayBounds(date: string, timeZone: string): { start: number; end: number } {
  return { start: startOfLocalDay(date, timeZone), end: startOfLocalDay(nextDate(date), timeZone) };
}
