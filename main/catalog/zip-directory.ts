/** The archive cannot be read, or unpacks to more than allowed. */
export class ZipRefused extends Error {}

/** An entry of a ZIP archive: its packed bytes (a view of the archive, not a copy) and how they are packed. */
export interface ZipEntry {
  name: string;
  /** 0: stored as is; 8: deflated. */
  method: number;
  /** The unpacked size the archive declares (it may lie). */
  declared: number;
  packed: Buffer;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/**
 * The entries of a ZIP archive (an .xlsx file) as its central directory
 * lists them. ZIP64 archives (over 4 GiB) are refused outright.
 */
export function zipDirectory(bytes: Buffer): ZipEntry[] {
  const from = Math.max(0, bytes.length - 65_557);
  let end = -1;
  for (let at = bytes.length - 22; at >= from; at -= 1) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipRefused('the workbook is damaged or cut off (its table of contents is missing)');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new ZipRefused('the workbook is damaged (its table of contents does not match its content)');
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const declared = bytes.readUInt32LE(at + 24);
    const local = bytes.readUInt32LE(at + 42);
    if (compressed === 0xffffffff || declared === 0xffffffff || local === 0xffffffff) throw new ZipRefused('the workbook is larger than 4 GiB unpacked');
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.toString('utf8', at + 46, Math.min(bytes.length, at + 46 + nameLength));
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) throw new ZipRefused('the workbook is damaged (an entry is missing)');
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    entries.push({ name, method, declared, packed: bytes.subarray(start, start + compressed) });
  }
  return entries;
}
