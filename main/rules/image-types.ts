import type { ImageContentType } from '../../shared/api/product-images.js';

/** An accepted image type: its Content-Type, sharp's name for the format, and the stored file's extension. */
export interface ImageType {
  contentType: ImageContentType;
  format: 'jpeg' | 'png' | 'webp' | 'gif';
  label: string;
  extension: string;
}

const TYPES: readonly ImageType[] = [
  { contentType: 'image/jpeg', format: 'jpeg', label: 'JPEG', extension: 'jpg' },
  { contentType: 'image/png', format: 'png', label: 'PNG', extension: 'png' },
  { contentType: 'image/webp', format: 'webp', label: 'WebP', extension: 'webp' },
  { contentType: 'image/gif', format: 'gif', label: 'GIF', extension: 'gif' },
];

/** The accepted type of a part's Content-Type (parameters and case ignored), or undefined. */
export function imageTypeOf(contentType: string): ImageType | undefined {
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return TYPES.find((type) => type.contentType === essence);
}

/** The type an extension stands for, as in a stored file's name. */
export function imageTypeOfExtension(extension: string): ImageType | undefined {
  return TYPES.find((type) => type.extension === extension);
}

const ascii = (bytes: Uint8Array, start: number, text: string) =>
  bytes.length >= start + text.length && [...text].every((char, i) => bytes[start + i] === char.charCodeAt(0));

const SIGNATURES: Record<ImageType['format'], (bytes: Uint8Array) => boolean> = {
  jpeg: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  png: (b) => b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 'PNG\r\n\x1a\n'),
  webp: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP'),
  gif: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a'),
};

/**
 * Which accepted type the leading bytes (magic number) announce, if any.
 * Checked before sharp sees the bytes, so the decoder libvips picks by
 * sniffing is always the one for the declared type.
 */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  return TYPES.find((type) => SIGNATURES[type.format](bytes));
}
