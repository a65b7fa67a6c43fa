import { z } from 'zod';

/** Largest accepted image file: 10 MiB. A file of exactly this size is accepted; one byte more is a 413. */
export const MAX_IMAGE_BYTES = 10_485_760;

/**
 * Largest accepted image area in pixels (width x height of the first frame).
 * Refused from the header alone, before decoding, so a small file that would
 * unpack to gigabytes (a decompression bomb) costs nothing. 50 megapixels
 * keeps the photos of current phone cameras (up to 8160 x 6120).
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Part `Content-Type` values accepted for an upload. */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];

/** Name of the multipart part that carries the image. */
export const IMAGE_PART = 'file';

export const ProductImageUploadSchema = z
  .object({
    [IMAGE_PART]: z.string().meta({
      format: 'binary',
      description:
        `The image, at most ${MAX_IMAGE_BYTES} bytes and ${MAX_IMAGE_PIXELS} pixels. Its type is taken from the part's ` +
        `Content-Type (${IMAGE_CONTENT_TYPES.join(', ')}) and the bytes must decode as that type. The file name is ignored.`,
    }),
  })
  .meta({ id: 'ProductImageUpload', description: 'multipart/form-data with exactly one part, named `file`.' });

export const ProductImageSchema = z
  .object({
    url: z.string().describe('Absolute URL of the stored image; a browser loads it without a key.'),
    imageUrl: z.string().describe('The product\'s new `imageUrl`: the same absolute URL.'),
  })
  .meta({ id: 'ProductImage' });

export const StoredImageParamsSchema = z.object({
  file: z.string().describe('Name of a stored image, as the last segment of an `imageUrl` this server issued.'),
});

export type ProductImage = z.infer<typeof ProductImageSchema>;
