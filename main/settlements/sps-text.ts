/**
 * Text as the Swiss Payment Standards take it: Basic Latin, Latin-1
 * Supplement and Latin Extended-A, plus Ș ș Ț ț and €. Anything else is
 * transliterated (accents taken off, typographic quotes and dashes made plain)
 * rather than dropped, so "Müller & Söhne" stays as it is and "Nguyễn" becomes
 * "Nguyen"; what has no Latin form becomes ".".
 */
const ALLOWED = /^[\u0020-\u007E\u00A0-\u017F\u0218-\u021B\u20AC]$/u;

const PLAIN: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00A0': ' ',
};

function plainChar(char: string): string {
  if (PLAIN[char] !== undefined) return PLAIN[char];
  if (ALLOWED.test(char)) return char;
  const bare = char.normalize('NFKD').replace(/\p{M}/gu, '');
  if (bare !== '' && [...bare].every((c) => ALLOWED.test(c))) return bare;
  return /\s/u.test(char) ? ' ' : '.';
}

/** `text` in the SPS character set, spaces collapsed, cut to `max` characters. */
export function spsText(text: string, max: number): string {
  const plain = [...text.normalize('NFC')].map(plainChar).join('').replace(/\s+/g, ' ').trim();
  return [...plain].slice(0, max).join('').trim();
}

/** Whether `text` uses the SPS character set only. */
export const isSpsText = (text: string): boolean => [...text].every((c) => ALLOWED.test(c));
