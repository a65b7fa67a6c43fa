export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** A real calendar date, or undefined (31 April, 29 February of a common year, ...). */
export function calendarDate(year: number, month: number, day: number): CalendarDate | undefined {
  if (![year, month, day].every(Number.isInteger) || year < 1900 || month < 1 || month > 12 || day < 1) return undefined;
  const days = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  return day <= days ? { year, month, day } : undefined;
}

export const isoDate = (d: CalendarDate) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

export function localToday(now: Date): CalendarDate {
  return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
}

/**
 * Completed years on `today`. Someone born on 29 February has their birthday
 * on 1 March in common years: they are not a year older before that day ends.
 */
export function ageOn(birth: CalendarDate, today: CalendarDate): number {
  let age = today.year - birth.year;
  let month = birth.month;
  let day = birth.day;
  if (month === 2 && day === 29 && !isLeap(today.year)) {
    month = 3;
    day = 1;
  }
  if (today.month < month || (today.month === month && today.day < day)) age -= 1;
  return age;
}
