/**
 * Intl writes thin and no-break spaces and a typographic apostrophe
 * ("1’234.50"); the printer's code page (CP858) has none of them.
 */
const printable = (text: string) => text.replace(/[\u00a0\u2007\u202f]/g, ' ').replace(/[\u2018\u2019]/g, "'");

/** Text in a ReceiptLine (https://receiptline.github.io) column: its markup characters stand for themselves. */
export const receiptLineText = (value: string) => printable(value).replace(/[\\|{}\-=~_"`^]/g, (c) => `\\${c}`);
