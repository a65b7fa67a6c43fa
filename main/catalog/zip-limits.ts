import { createInflateRaw } from 'node:zlib';
import { zipDirectory, ZipRefused, type ZipEntry } from './zip-directory.js';

export { ZipRefused };

/**
 * The unpacked size of a deflated entry, counted as it is inflated and
 * thrown away chunk by chunk (never held whole); stops past `budget`.
 */
async function inflatedSize(entry: ZipEntry, budget: number): Promise<number> {
  const inflater = createInflateRaw();
  inflater.end(entry.packed);
  let size = 0;
  try {
    for await (const chunk of inflater) {
      size += (chunk as Buffer).length;
      if (size > budget) break;
    }
  } catch {
    throw new ZipRefused('the workbook is damaged (an entry cannot be unpacked)');
  } finally {
    inflater.destroy();
  }
  return size;
}

/**
 * Checks that a ZIP archive (an .xlsx file) unpacks to at most `maxBytes`
 * before anything unpacks it for good: every entry is inflated with that
 * budget, so sizes the archive lies about count as what they really are.
 */
export async function checkUnpackedSize(bytes: Buffer, maxBytes: number): Promise<void> {
  let left = maxBytes;
  const tooLarge = () => new ZipRefused(`the workbook unpacks to more than ${maxBytes} bytes`);
  for (const entry of zipDirectory(bytes)) {
    if (entry.declared > left) throw tooLarge();
    if (entry.method === 0) left -= entry.packed.length;
    else if (entry.method === 8) left -= await inflatedSize(entry, left);
    else throw new ZipRefused('the workbook uses a compression this server does not read; save it again in Excel');
    if (left < 0) throw tooLarge();
  }
}
