import { parse } from 'mrz';
import { calendarDate, type CalendarDate } from './age.js';

/** What an age check reads from the machine-readable zone of an ID card (TD1, TD2) or a passport (TD3). */
export interface IdentityDocument {
  source: 'id_card_td1' | 'id_card_td2' | 'passport';
  firstName: string;
  lastName: string;
  birthDate: CalendarDate;
  rawText: string;
}

const SOURCES = { TD1: 'id_card_td1', TD2: 'id_card_td2', TD3: 'passport' } as const;
/** Line length of each format; a scanner sends one line per Enter. */
const MRZ_LINE_LENGTHS = { TD1: 30, TD2: 36, TD3: 44 } as const;

/** Whether a scanned burst looks like one line of an MRZ rather than a barcode. */
export function isMrzLine(line: string): boolean {
  return line.includes('<') && Object.values(MRZ_LINE_LENGTHS).includes(line.length as 30 | 36 | 44);
}

/**
 * The MRZ has two-digit years: a birth year that would lie in the future
 * belongs to the previous century.
 */
function birthDateOf(yymmdd: string, today: Date): CalendarDate | undefined {
  const [yy, mm, dd] = [yymmdd.slice(0, 2), yymmdd.slice(2, 4), yymmdd.slice(4, 6)].map(Number) as [number, number, number];
  const century = 2000 + yy > today.getFullYear() ? 1900 : 2000;
  return calendarDate(century + yy, mm, dd);
}

/**
 * Reads the lines of a document. Undefined when the lines are no complete
 * TD1/TD2/TD3 zone or the birth date fails its check digit; other fields
 * (an expired document, an unknown issuing state) do not decide an age check.
 */
export function readMrz(lines: string[], today: Date): IdentityDocument | undefined {
  const clean = lines.map((l) => l.trim().toUpperCase()).filter((l) => l !== '');
  let result;
  try {
    result = parse(clean);
  } catch {
    return undefined;
  }
  if (result.format !== 'TD1' && result.format !== 'TD2' && result.format !== 'TD3') return undefined;
  const fieldValid = (name: string) => result.details.some((d) => d.field === name && d.valid);
  const raw = result.fields.birthDate;
  if (!raw || !fieldValid('birthDate') || !fieldValid('birthDateCheckDigit')) return undefined;
  const birthDate = birthDateOf(raw, today);
  if (!birthDate) return undefined;
  return {
    source: SOURCES[result.format],
    firstName: result.fields.firstName ?? '',
    lastName: result.fields.lastName ?? '',
    birthDate,
    rawText: clean.join('\n'),
  };
}
