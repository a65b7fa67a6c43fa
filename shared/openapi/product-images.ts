import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { SuccessSchema, dataOf } from '../api/common.js';
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_PART,
  MAX_IMAGE_BYTES,
  ProductImageSchema,
  ProductImageUploadSchema,
  StoredImageParamsSchema,
} from '../api/product-images.js';
import { EXTENSION, errors, json } from './helpers.js';

const params = z.object({ productId: z.string().describe('Product id.') });

export function registerProductImagePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/products/{productId}/image',
    tags: ['Products'],
    summary: 'Upload the product image (Write key)',
    description:
      `Replaces any previous image and sets \`imageUrl\`. At most ${MAX_IMAGE_BYTES} bytes (10 MiB): a file of exactly that ` +
      'size is accepted, one byte more is a 413 and the connection is closed. The bytes must decode as the type the part declares. ' +
      'The previous image is deleted if this server stored it for this product.',
    request: {
      params,
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: ProductImageUploadSchema,
            encoding: { [IMAGE_PART]: { contentType: IMAGE_CONTENT_TYPES.join(', ') } },
          },
        },
      },
    },
    responses: { 200: json(dataOf(ProductImageSchema), 'Stored; the product now shows it.'), ...errors([400, 403, 404, 413]) },
  });
  registry.registerPath({
    method: 'delete',
    path: '/products/{productId}/image',
    tags: ['Products'],
    summary: 'Clear the product image (Write key)',
    description:
      'Sets `imageUrl` to "" and deletes the file if this server stored it for this product; ' +
      'the same as an update with `imageUrl: ""`. A product without an image answers the same and nothing changes.',
    request: { params },
    responses: { 200: json(SuccessSchema, 'Cleared.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/images/{file}',
    ...EXTENSION,
    summary: 'A stored product image (no key needed)',
    description:
      'The URL an upload returns, for `<img src>`. Sent with its Content-Type, a strong ETag (SHA-256 of the bytes) and ' +
      '`Cache-Control: public, max-age=31536000, immutable`: a new upload always gets a new name.',
    security: [],
    request: { params: StoredImageParamsSchema },
    responses: {
      200: {
        description: 'The image bytes as uploaded.',
        content: Object.fromEntries(IMAGE_CONTENT_TYPES.map((type) => [type, { schema: z.string().meta({ format: 'binary' }) }])),
      },
      304: { description: 'Not modified (If-None-Match matched the ETag).' },
      ...errors([404]),
    },
  });
}
