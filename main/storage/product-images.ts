import type { Db } from './database.js';

/** A file the image store holds for a product. */
export interface ProductImageRecord {
  file: string;
  orgId: string;
  productId: string;
  contentType: string;
  bytes: number;
  sha256: string;
  width: number;
  height: number;
  createdAt: string;
}

interface RawRecord {
  file: string;
  org_id: string;
  product_id: string;
  content_type: string;
  bytes: number;
  sha256: string;
  width: number;
  height: number;
  created_at: string;
}

const fromRow = (r: RawRecord): ProductImageRecord => ({
  file: r.file,
  orgId: r.org_id,
  productId: r.product_id,
  contentType: r.content_type,
  bytes: r.bytes,
  sha256: r.sha256,
  width: r.width,
  height: r.height,
  createdAt: r.created_at,
});

export function createProductImageStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO product_images (file, org_id, product_id, content_type, bytes, sha256, width, height, created_at)
     VALUES (@file, @orgId, @productId, @contentType, @bytes, @sha256, @width, @height, @createdAt)`,
  );
  const byFile = db.prepare<[string], RawRecord>('SELECT * FROM product_images WHERE file = ?');
  const remove = db.prepare('DELETE FROM product_images WHERE file = ?');
  const withProductImageUrl = db.prepare<[], { file: string; image_url: string | null }>(
    `SELECT i.file, p.image_url FROM product_images i
       LEFT JOIN products p ON p.id = i.product_id AND p.org_id = i.org_id`,
  );

  return {
    insert(record: ProductImageRecord): void {
      insert.run(record);
    },
    get(file: string): ProductImageRecord | undefined {
      const row = byFile.get(file);
      return row ? fromRow(row) : undefined;
    },
    remove(file: string): void {
      remove.run(file);
    },
    /** Every recorded file with the current `imageUrl` of its product. */
    listWithProductImageUrl(): { file: string; imageUrl: string }[] {
      return withProductImageUrl.all().map((row) => ({ file: row.file, imageUrl: row.image_url ?? '' }));
    },
  };
}

export type ProductImageStore = ReturnType<typeof createProductImageStore>;
