/**
 * Reads back the text of ESC/POS commands as receiptline writes them: commands
 * and raster images are skipped, column positioning becomes a space, and the
 * text's bytes are decoded from code page 858 (CP850 with the euro sign);
 * characters of other code pages (receiptline's rules) read as '-'.
 */

const CP858_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈ€ÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00ad±‗¾¶§÷¸°¨·¹³²■\u00a0';

/** ESC t 19 selects code page 858. */
const CP858 = 19;
const ESC = 0x1b;
const GS = 0x1d;
const FS = 0x1c;
const LF = 0x0a;

/** Parameter bytes after ESC x, GS x and FS x for the commands that take a fixed number of them. */
const FIXED: Record<number, Record<string, number>> = {
  [ESC]: { '@': 0, '2': 0, M: 1, t: 1, a: 1, E: 1, '-': 1, '{': 1, '3': 1, R: 1, ' ': 1, '!': 1, J: 1, d: 1, G: 1, $: 2, '\\': 2 },
  [GS]: { a: 1, B: 1, '!': 1, r: 1, w: 1, h: 1, H: 1, L: 2, W: 2 },
  [FS]: { '.': 0, '&': 0, S: 2, '-': 1, C: 1 },
};

/** Length of the command at `i` (its first byte is ESC, GS or FS), including its data. */
function commandLength(bytes: Buffer, i: number): number {
  const prefix = bytes[i] as number;
  const name = String.fromCharCode(bytes[i + 1] as number);
  const fixed = FIXED[prefix]?.[name];
  if (fixed !== undefined) return 2 + fixed;
  const u16 = (at: number) => (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
  if (name === '(') return 3 + 2 + u16(i + 3);
  if (prefix === GS && name === '8') return 3 + 4 + ((bytes[i + 3] as number) | ((bytes[i + 4] as number) << 8) | ((bytes[i + 5] as number) << 16) | ((bytes[i + 6] as number) << 24));
  if (prefix === GS && name === 'V') return (bytes[i + 2] as number) >= 65 ? 4 : 3;
  if (prefix === GS && name === 'k') {
    const m = bytes[i + 2] as number;
    if (m >= 65) return 4 + (bytes[i + 3] as number);
    const end = bytes.indexOf(0, i + 3);
    return end - i + 1;
  }
  throw new Error(`unknown command ${prefix.toString(16)} '${name}' at byte ${i}`);
}

/** The printed text, one string per printed line, without the spaces around it and with runs of spaces as one. */
export function decodeEscPos(bytes: Buffer): string[] {
  let text = '';
  let codePage = CP858;
  for (let i = 0; i < bytes.length; ) {
    const byte = bytes[i] as number;
    if (byte === ESC || byte === GS || byte === FS) {
      const name = String.fromCharCode(bytes[i + 1] as number);
      if (byte === ESC && name === 't') codePage = bytes[i + 2] as number;
      // Moving to a column's position is where the eye sees a gap.
      if (byte === ESC && (name === '$' || name === '\\') && !text.endsWith('\n') && text !== '') text += ' ';
      i += commandLength(bytes, i);
      continue;
    }
    if (byte === LF) text += '\n';
    // receiptline draws its rules in another code page's line characters.
    else if (byte >= 0x80) text += codePage === CP858 ? CP858_HIGH[byte - 0x80] : '-';
    else if (byte >= 0x20) text += String.fromCharCode(byte);
    i++;
  }
  return text.split('\n').map((line) => line.trim().replace(/ {2,}/g, ' '));
}
