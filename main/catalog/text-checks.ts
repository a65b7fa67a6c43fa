import iconv from 'iconv-lite';
import { encodeWindows1252 } from './code-pages.js';
import type { Charset } from './file-problems.js';

/**
 * Code pages a Swiss shop's older programs write: a file from a Mac (Mac
 * Roman) or from DOS and cash registers (CP850) read as Windows-1252 shows
 * "RŸebli" or "R\u0081ebli" for "Rüebli".
 */
const FOREIGN_CODE_PAGES = [
  { charset: 'mac-roman', encoding: 'macintosh' },
  { charset: 'cp850', encoding: 'cp850' },
] as const;

/** Characters that Windows-1252 shows where those code pages hold umlauts and accents, next to a letter (™, ® and © after a name are a brand's). */
const SUSPECT = /\p{L}[\u0080-\u009f‚ƒ„…†‡ˆ‰Š‹ŒŽ‘“”•˜š›œžŸ¡¢£¤¥¦§¨ª«¬¯±²³´µ¶·¸¹º»¼½¾¿]|[\u0080-\u009f€‚ƒ„…†‡ˆ‰Š‹ŒŽ•˜™š›œžŸ¡¢£¤¥¦§¨©ª«¬®¯±²³´µ¶·¸¹º»¼½¾¿]\p{L}/u;
/** UTF-8 read as Windows-1252: a lead byte (Ã, Â) before a continuation byte. */
const UTF8_AS_1252 = /[ÃÂ][\u0080-\u00bf‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/;
/** Letters of German, French and Italian beyond ASCII. */
const ACCENTED = /[äöüÄÖÜéèêàâçëïîôùûÉÈÀ]/;

/** The letters a Swiss product name usually holds count for a reading; other characters beyond ASCII against it. */
function plausibility(text: string): number {
  let score = 0;
  for (const char of text) if (char.charCodeAt(0) >= 0x80) score += ACCENTED.test(char) ? 1 : -1;
  return score;
}

/**
 * Collects a file's text cells that read badly and, once all are in, says
 * in which character set the file was probably written and what each would
 * read then. The character set is chosen for the whole file: a cell alone
 * ("CrŠme") may read well in two of them.
 */
export function createMisreadCollector() {
  const cells: { line: number; column: string; text: string; bytes: Buffer }[] = [];
  return {
    add(line: number, column: string, text: string): void {
      if (!UTF8_AS_1252.test(text) && !SUSPECT.test(text)) return;
      const bytes = encodeWindows1252(text);
      if (bytes) cells.push({ line, column, text, bytes });
    },
    /** One entry per cell that reads better in the file's probable character set. */
    found(): { line: number; column: string; text: string; reads: string; writtenIn: Charset }[] {
      const readings = [
        { writtenIn: 'utf-8' as Charset, read: (bytes: Buffer) => bytes.toString('utf8') },
        ...FOREIGN_CODE_PAGES.map(({ charset, encoding }) => ({ writtenIn: charset as Charset, read: (bytes: Buffer) => iconv.decode(bytes, encoding) })),
      ].map(({ writtenIn, read }) => {
        const fixed = cells.map((cell) => ({ ...cell, reads: read(cell.bytes), writtenIn }))
          .filter(({ reads, text }) => !reads.includes('\ufffd') && ACCENTED.test(reads) && !SUSPECT.test(reads) && !UTF8_AS_1252.test(reads) && plausibility(reads) > plausibility(text));
        return { fixed, score: fixed.reduce((sum, { reads }) => sum + plausibility(reads), 0) };
      });
      const best = readings.reduce((a, b) => (b.score > a.score ? b : a));
      return best.fixed.map(({ line, column, text, reads, writtenIn }) => ({ line, column, text, reads, writtenIn }));
    },
  };
}

/** A letter between letters replaced by "?": what a save in a character set without it does ("R?ebli"). */
const QUESTION_MARK_IN_WORD = /\p{L}\?\p{L}/u;

/**
 * Whether `text` is `stored` with some of its letters replaced by "?", or,
 * without a stored text to compare, holds a "?" inside a word.
 */
export function lostLetters(text: string, stored: string | undefined): boolean {
  if (!text.includes('?')) return false;
  if (stored === undefined) return QUESTION_MARK_IN_WORD.test(text);
  if (stored.length !== text.length) return false;
  let replaced = false;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === stored[i]) continue;
    if (text[i] !== '?' || stored.charCodeAt(i) < 0x80) return false;
    replaced = true;
  }
  return replaced;
}
