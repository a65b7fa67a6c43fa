import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

const inflate = promisify(inflateRaw);

/** The archive cannot be read, or unpacks to more than allowed. */
export class ZipRefused extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/**
 * Checks that a ZIP archive (an .xlsx file) unpacks to at most `maxBytes`
 * before anything unpacks it for good: every entry is inflated with that
 * budget, so sizes the archive lies about count as what they really are.
 * ZIP64 archives (over 4 GiB) are refused outright.
 */
export async function checkUnpackedSize(bytes: Buffer, maxBytes: number): Promise<void> {
  const from = Math.max(0, bytes.length - 65_557);
  let end = -1;
  for (let at = bytes.length - 22; at >= from; at -= 1) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipRefused('the workbook is damaged or cut off (its table of contents is missing)');
  const entries = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  let left = maxBytes;
  for (let i = 0; i < entries; i += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new ZipRefused('the workbook is damaged (its table of contents does not match its content)');
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const declared = bytes.readUInt32LE(at + 24);
    const local = bytes.readUInt32LE(at + 42);
    if (compressed === 0xffffffff || declared === 0xffffffff || local === 0xffffffff) throw new ZipRefused('the workbook is larger than 4 GiB unpacked');
    if (declared > left) throw new ZipRefused(`the workbook unpacks to more than ${maxBytes} bytes`);
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) throw new ZipRefused('the workbook is damaged (an entry is missing)');
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + compressed);
    if (method === 0) {
      left -= data.length;
    } else if (method === 8) {
      try {
        left -= (await inflate(data, { maxOutputLength: Math.max(1, left) })).length;
      } catch (err) {
        if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipRefused(`the workbook unpacks to more than ${maxBytes} bytes`);
        throw new ZipRefused('the workbook is damaged (an entry cannot be unpacked)');
      }
    } else {
      throw new ZipRefused('the workbook uses a compression this server does not read; save it again in Excel');
    }
    if (left < 0) throw new ZipRefused(`the workbook unpacks to more than ${maxBytes} bytes`);
  }
}
