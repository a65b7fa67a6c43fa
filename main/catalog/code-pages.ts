import iconv from 'iconv-lite';

/**
 * Windows-1252 with its five unassigned bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D)
 * kept as the C1 characters of the same number, as the WHATWG decoder does,
 * instead of "�": a file written in another code page then still holds every
 * byte, and can be read again in the one it was written in.
 */
const C1_TO_1252 = new Map<string, string>();
const FROM_1252 = new Map<string, number>();
for (let byte = 0x80; byte <= 0x9f; byte += 1) {
  const decoded = iconv.decode(Buffer.from([byte]), 'win1252');
  const char = decoded === '\ufffd' ? String.fromCharCode(byte) : decoded;
  C1_TO_1252.set(String.fromCharCode(byte), char);
  FROM_1252.set(char, byte);
}

/** The text of Windows-1252 bytes. */
export function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => C1_TO_1252.get(c)!);
}

/** The Windows-1252 bytes of a text read with `decodeWindows1252`, or undefined for a character that has none. */
export function encodeWindows1252(text: string): Buffer | undefined {
  const bytes = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const byte = code < 0x80 || (code > 0x9f && code <= 0xff) ? code : FROM_1252.get(text[i]!);
    if (byte === undefined) return undefined;
    bytes[i] = byte;
  }
  return bytes;
}
