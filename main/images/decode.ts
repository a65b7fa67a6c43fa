import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '../../shared/api/product-images.js';
import { sniffImageType, type ImageType } from '../rules/image-types.js';

export type DecodeResult = { ok: true; width: number; height: number } | { ok: false; problem: string };

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Proves that the bytes are a whole image of the declared type by decoding
 * every pixel of its first frame with sharp. The problem, when there is one,
 * is a sentence for the person who uploaded the file.
 */
export async function decodeImage(bytes: Uint8Array, declared: ImageType): Promise<DecodeResult> {
  if (bytes.length === 0) return { ok: false, problem: 'is empty' };
  const sniffed = sniffImageType(bytes);
  if (sniffed === undefined) {
    return { ok: false, problem: `is not a ${declared.label} image (the part's Content-Type is ${declared.contentType})` };
  }
  if (sniffed !== declared) {
    return {
      ok: false,
      problem: `is a ${sniffed.label} image but the part's Content-Type says ${declared.contentType}; send it as ${sniffed.contentType}`,
    };
  }
  let width: number;
  let height: number;
  try {
    // The header alone: cheap even for a decompression bomb, and it tells the size to refuse.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (meta.format !== declared.format) {
      return { ok: false, problem: `is not a ${declared.label} image (the part's Content-Type is ${declared.contentType})` };
    }
    width = meta.width;
    height = meta.height;
  } catch (err) {
    return { ok: false, problem: `cannot be read as a ${declared.label} image: ${(err as Error).message}` };
  }
  if (width * height > MAX_IMAGE_PIXELS) {
    return {
      ok: false,
      problem: `is ${width} x ${height} pixels (${count(width * height)}); at most ${count(MAX_IMAGE_PIXELS)} pixels are accepted`,
    };
  }
  try {
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).stats();
  } catch (err) {
    return { ok: false, problem: `is a damaged ${declared.label} image: ${(err as Error).message}` };
  }
  return { ok: true, width, height };
}
