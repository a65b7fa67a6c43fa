import { createHash } from 'node:crypto';
import { IMAGE_CONTENT_TYPES, IMAGE_PART } from '../../shared/api/product-images.js';
import { decodeImage } from '../images/decode.js';
import type { ImageStore } from '../images/store.js';
import { imageTypeOf, type ImageType } from '../rules/image-types.js';
import { imageUrlOf, storedImageNameIn } from '../rules/image-urls.js';
import type { ProductImageStore } from '../storage/product-images.js';
import type { ProductRecord } from '../storage/products.js';
import type { Caller } from './caller.js';
import type { Clock } from './clock.js';
import { BadRequest } from './errors.js';
import type { ProductListener, ProductService } from './products.js';

/** A stored image as the public route serves it. */
export interface ServableImage {
  path: string;
  contentType: string;
  sha256: string;
}

const ACCEPTED = `${IMAGE_CONTENT_TYPES.slice(0, -1).join(', ')} or ${IMAGE_CONTENT_TYPES.at(-1)}`;

/** Deletes a stored file and its record; a failure leaves the record, so the next start retries. */
function discard(images: ImageStore, records: ProductImageStore, file: string): void {
  if (images.remove(file)) records.remove(file);
}

/**
 * Runs `then` once the writes open now are committed, with the failure if
 * they were not; false, running nothing, when no group of writes is open.
 */
export type AfterCommit = (then: (failure: unknown) => void) => boolean;

/**
 * The file a product stops using when its `imageUrl` changes (upload of a new
 * image, DELETE of the image, `imageUrl: ""` or another URL on update) is
 * deleted after the commit, but only if this server stored it for that very
 * product: a URL the client set, even one into the store, is left alone.
 * Inside a group of writes (`afterCommit`) the commit is the group's: should
 * it fail, the product keeps its image and so does the disk.
 */
export function releaseReplacedImages(images: ImageStore, records: ProductImageStore, afterCommit: AfterCommit = () => false): ProductListener {
  return {
    productWritten(before: ProductRecord | undefined, after: ProductRecord) {
      if (!before || before.imageUrl === after.imageUrl) return;
      const file = storedImageNameIn(before.imageUrl);
      if (file === undefined || file === storedImageNameIn(after.imageUrl)) return;
      const release = () => {
        const record = records.get(file);
        if (!record || record.orgId !== before.instance || record.productId !== before.id) return;
        discard(images, records, file);
      };
      const deferred = afterCommit((failure) => {
        if (failure === undefined) release();
      });
      if (!deferred) release();
    },
  };
}

export function createProductImageService(deps: {
  products: ProductService;
  images: ImageStore;
  records: ProductImageStore;
  clock: Clock;
}) {
  const { products, images, records, clock } = deps;

  return {
    /** Answers 404 for a product the caller cannot see; called before the body is read. */
    requireProduct(caller: Caller, id: string): void {
      products.get(caller, id);
    },

    /** The accepted type a part declares, checked from its headers before its bytes are read. */
    typeOf(contentType: string): ImageType {
      const type = imageTypeOf(contentType);
      if (!type) {
        throw new BadRequest(`${IMAGE_PART}: Content-Type ${JSON.stringify(contentType)} is not accepted; send ${ACCEPTED}`);
      }
      return type;
    },

    /**
     * Decodes the upload, stores it and points the product at it. Returns the
     * image's absolute URL under `apiBase` (the absolute URL of `/api/v1`).
     */
    async attach(caller: Caller, id: string, upload: { bytes: Buffer; type: ImageType }, apiBase: string): Promise<string> {
      const decoded = await decodeImage(upload.bytes, upload.type);
      if (!decoded.ok) throw new BadRequest(`${IMAGE_PART}: ${decoded.problem}`);
      const file = await images.write(upload.bytes, upload.type.extension);
      const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
      const imageUrl = imageUrlOf(apiBase, file);
      try {
        records.insert({
          file,
          orgId: caller.orgId,
          productId: id,
          contentType: upload.type.contentType,
          bytes: upload.bytes.length,
          sha256,
          width: decoded.width,
          height: decoded.height,
          createdAt: clock.now().toISOString(),
        });
        products.setImage(caller, id, { imageUrl, file, contentType: upload.type.contentType, bytes: upload.bytes.length, sha256 });
      } catch (err) {
        discard(images, records, file);
        throw err;
      }
      return imageUrl;
    },

    /** Clears the product's image: the same write as an update with `imageUrl: ""`. */
    clear(caller: Caller, id: string): void {
      if (products.get(caller, id).imageUrl === '') return;
      products.update(caller, id, { imageUrl: '' });
    },

    /** The stored image a public URL names, or undefined for any other name. */
    servable(name: string): ServableImage | undefined {
      const path = images.pathOf(name);
      const record = path === undefined ? undefined : records.get(name);
      if (path === undefined || !record) return undefined;
      return { path, contentType: record.contentType, sha256: record.sha256 };
    },

    /**
     * Removes what a crash between writing a file and committing its product
     * (or between the commit and the deletion) left behind: recorded files no
     * product names any more, and files without a record. Run at start-up,
     * before any upload can be in flight.
     */
    removeOrphans(): void {
      const recorded = new Set<string>();
      for (const { file, imageUrl } of records.listWithProductImageUrl()) {
        if (storedImageNameIn(imageUrl) === file) recorded.add(file);
        else discard(images, records, file);
      }
      for (const name of images.list()) {
        if (!recorded.has(name) && !records.get(name)) images.remove(name);
      }
    },
  };
}

export type ProductImageService = ReturnType<typeof createProductImageService>;
