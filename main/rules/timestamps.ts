/**
 * Timestamps are stored as `toISOString()` text (UTC, milliseconds), so that
 * comparing the text compares the times and a time window is an index range.
 */
const STORED_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The stored form of an ISO 8601 date-time given with any offset. */
export function toStoredTime(value: string): string {
  return new Date(value).toISOString();
}

/** Whether `value` is a timestamp in stored form. */
export function isStoredTime(value: string): boolean {
  return STORED_FORM.test(value) && !Number.isNaN(Date.parse(value));
}
