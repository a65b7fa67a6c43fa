/** Kinds of records whose ids the upstream assigns. */
export type SyncKind = 'product' | 'category' | 'supplier' | 'store' | 'order' | 'identity-log' | 'blocked-identity';

/** Where a body names another record by id. */
type Reference =
  | { field: string; kind: SyncKind; shape: 'one' }
  | { field: string; kind: SyncKind; shape: 'many' }
  | { field: string; kind: SyncKind; shape: 'lines'; key: string };

interface KindSpec {
  /** Collection path of the v1 API. */
  path: string;
  references: Reference[];
  /** Fields a queued creation carries that the create body does not accept. */
  notWritable: string[];
  /** Whether `delete` entries go out as DELETE (otherwise the kind has no delete entries). */
  deletes: boolean;
}

export const KINDS: Record<SyncKind, KindSpec> = {
  product: {
    path: '/products',
    references: [
      { field: 'category', kind: 'category', shape: 'one' },
      { field: 'supplier', kind: 'supplier', shape: 'one' },
    ],
    notWritable: ['id', 'instance', 'deleted', 'createdate', 'lastupdate', 'allowStore', 'hideStore'],
    deletes: true,
  },
  category: {
    path: '/categories',
    references: [
      { field: 'hideStore', kind: 'store', shape: 'many' },
      { field: 'allowStore', kind: 'store', shape: 'many' },
    ],
    notWritable: [],
    deletes: false,
  },
  supplier: { path: '/suppliers', references: [], notWritable: [], deletes: false },
  store: { path: '/stores', references: [], notWritable: [], deletes: false },
  order: {
    path: '/orders',
    references: [
      { field: 'store', kind: 'store', shape: 'one' },
      { field: 'products', kind: 'product', shape: 'lines', key: 'productId' },
    ],
    notWritable: [],
    deletes: false,
  },
  'identity-log': { path: '/identity-logs', references: [{ field: 'store', kind: 'store', shape: 'one' }], notWritable: [], deletes: false },
  'blocked-identity': { path: '/identity-logs/blocked', references: [], notWritable: [], deletes: true },
};

/** The kind an outbox `resource` belongs to; an image upload is a write of its product. */
export function kindOf(resource: string): SyncKind | undefined {
  if (resource === 'product-image') return 'product';
  return resource in KINDS ? (resource as SyncKind) : undefined;
}

/** Every id a body refers to, with its kind. */
export function referencesIn(kind: SyncKind, body: Record<string, unknown>): { kind: SyncKind; id: string }[] {
  const out: { kind: SyncKind; id: string }[] = [];
  for (const ref of KINDS[kind].references) {
    const value = body[ref.field];
    if (ref.shape === 'one' && typeof value === 'string') out.push({ kind: ref.kind, id: value });
    if (ref.shape === 'many' && Array.isArray(value)) for (const id of value) if (typeof id === 'string') out.push({ kind: ref.kind, id });
    if (ref.shape === 'lines' && Array.isArray(value)) {
      for (const line of value as Record<string, unknown>[]) if (typeof line[ref.key] === 'string') out.push({ kind: ref.kind, id: line[ref.key] as string });
    }
  }
  return out;
}

/** The body with every reference replaced by `translate(kind, id)`. */
export function rewriteReferences(
  kind: SyncKind,
  body: Record<string, unknown>,
  translate: (kind: SyncKind, id: string) => string,
): Record<string, unknown> {
  const out = { ...body };
  for (const ref of KINDS[kind].references) {
    const value = out[ref.field];
    if (ref.shape === 'one' && typeof value === 'string') out[ref.field] = translate(ref.kind, value);
    if (ref.shape === 'many' && Array.isArray(value)) out[ref.field] = value.map((id: string) => translate(ref.kind, id));
    if (ref.shape === 'lines' && Array.isArray(value)) {
      out[ref.field] = (value as Record<string, unknown>[]).map((line) =>
        typeof line[ref.key] === 'string' ? { ...line, [ref.key]: translate(ref.kind, line[ref.key] as string) } : line,
      );
    }
  }
  return out;
}
