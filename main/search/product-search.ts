import type { ListMeta } from '../../shared/api/common.js';
import { MAX_SEARCH_LIMIT, type ProductListQuery } from '../../shared/api/products.js';
import { pageOfHits } from '../rules/search-page.js';
import { isVisibleInStore } from '../rules/store-filter.js';
import { SearchUnavailable } from '../services/errors.js';
import type { ProductListener, ProductSearch } from '../services/products.js';
import type { OrganizationStore } from '../storage/organizations.js';
import type { ProductStore } from '../storage/products.js';
import type { SearchSourceStore } from '../storage/search-sources.js';
import { changesIndexedFields, ProductIndex, type SearchHit } from './product-index.js';

/** How the start-up build proceeds; the defaults suit production. */
export interface SearchBuildOptions {
  /**
   * Products read from SQLite and indexed per step. Default 250: a few
   * milliseconds of work, so a request waits at most that long behind the build.
   */
  chunkSize?: number;
  /**
   * Awaited before each step. Default: one turn of the event loop, in which
   * waiting requests are served. Tests hold the build here to observe it.
   */
  pause?: () => Promise<void>;
}

const DEFAULT_CHUNK_SIZE = 250;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface OrganizationIndex {
  index: ProductIndex;
  /** False until the start-up build has read every active product of the organization. */
  ready: boolean;
  /** The latest product change the index holds for sure: written by another process (the CLI) after it, a change is read again. */
  seenUntil: string;
}

/**
 * How far back, before the latest change seen, a change by another process
 * is looked for: its transaction wrote its rows with the time it began, and
 * may have committed after this server saw later ones.
 */
const OTHER_WRITERS_MS = 60_000;

/**
 * Product search over one in-memory index per organization. The indexes are
 * built from SQLite after the server listens and kept current by the product
 * service, which reports every committed write (`productWritten`).
 */
export function createProductSearch(deps: {
  sources: SearchSourceStore;
  products: ProductStore;
  organizations: OrganizationStore;
  /** Moves when another connection (the CLI, in its own process) commits to the file (`PRAGMA data_version`). */
  changedElsewhere: () => number;
  options?: SearchBuildOptions | undefined;
}) {
  const { sources, products } = deps;
  const chunkSize = deps.options?.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const pause = deps.options?.pause ?? nextTurn;
  const organizations = new Map<string, OrganizationIndex>();
  let stopped = false;
  let version = deps.changedElsewhere();

  const newIndex = (orgId: string, ready: boolean): OrganizationIndex => ({ index: new ProductIndex(), ready, seenUntil: sources.latestChange(orgId) });

  /**
   * Another process wrote to the file since the last search: the products it
   * changed (an import by the CLI) are read into the indexes, with those
   * changed shortly before the latest change seen, in case its transaction
   * began before that one and committed after.
   */
  const catchUp = () => {
    const now = deps.changedElsewhere();
    if (now === version) return;
    version = now;
    for (const [orgId, organization] of organizations) {
      const since = organization.seenUntil === '' ? '' : new Date(Date.parse(organization.seenUntil) - OTHER_WRITERS_MS).toISOString();
      for (const { product, deleted, lastupdate } of sources.changedAfter(orgId, since)) {
        if (deleted) organization.index.remove(product.id);
        else organization.index.put(product);
        if (lastupdate > organization.seenUntil) organization.seenUntil = lastupdate;
      }
    }
  };

  /** Indexes the active products with ids above `afterId`, up to one chunk; returns the last id read, or undefined at the end. */
  const indexChunk = (orgId: string, index: ProductIndex, afterId: string): string | undefined => {
    const chunk = sources.activeAfter(orgId, afterId, chunkSize);
    // A product already in the index was written since the build started; the index holds its current state.
    for (const product of chunk) if (!index.has(product.id)) index.put(product);
    return chunk.length < chunkSize ? undefined : chunk[chunk.length - 1]?.id;
  };

  /** The index of an organization; one that appeared after the start-up build began is built at once (it is new, so small). */
  const indexOf = (orgId: string): OrganizationIndex => {
    let organization = organizations.get(orgId);
    if (!organization) {
      organization = newIndex(orgId, true);
      organizations.set(orgId, organization);
      for (let after: string | undefined = ''; after !== undefined; ) after = indexChunk(orgId, organization.index, after);
    }
    return organization;
  };

  /** Visibility in `query.store` by the current store lists of each hit's category; none without `store`. */
  const storeFilterOf = (orgId: string, query: ProductListQuery): ((hit: SearchHit) => boolean) | undefined => {
    const store = query.store;
    if (store === undefined) return undefined;
    const lists = sources.categoryStoreLists(orgId);
    if (lists.size === 0) return undefined;
    return (hit) => {
      const categoryLists = hit.category === undefined ? undefined : lists.get(hit.category);
      return categoryLists === undefined || isVisibleInStore(categoryLists, store);
    };
  };

  const search: ProductSearch['search'] = (orgId, query) => {
    catchUp();
    const { index, ready } = indexOf(orgId);
    if (!ready) {
      throw new SearchUnavailable(
        'Product search is starting: the search index of this organization is still being built. ' +
          'Retry in a few seconds; listing and reading products work meanwhile.',
      );
    }
    const limit = Math.min(query.limit, MAX_SEARCH_LIMIT);
    const offset = query.offset ?? 0;
    const hits = index.search(query.q);
    const visible = storeFilterOf(orgId, query);
    const data = products.activeByIds(orgId, pageOfHits(hits, { offset, limit, visible }).map((hit) => hit.id));
    const meta: ListMeta = { total: query.store === undefined ? hits.length : data.length, returned: data.length, limit, offset };
    return { data, meta };
  };

  const productWritten: ProductListener['productWritten'] = (before, after) => {
    const organization = organizations.get(after.instance);
    if (!organization) {
      // Built from SQLite, which already holds this write.
      indexOf(after.instance);
      return;
    }
    const { index } = organization;
    if (after.lastupdate > organization.seenUntil) organization.seenUntil = after.lastupdate;
    if (after.deleted) index.remove(after.id);
    else if (!before || !index.has(after.id) || changesIndexedFields(before, after)) index.put(after);
  };

  return {
    search,
    productWritten,
    // An organization's index that does not exist yet is built from SQLite, at once: before an import adds thousands of products, not after.
    prepareForMany: (orgId: string) => void indexOf(orgId),

    /** `building` while any organization's index is not complete yet. */
    state(): 'ready' | 'building' {
      for (const organization of organizations.values()) if (!organization.ready) return 'building';
      return 'ready';
    },

    /**
     * Builds the index of every organization from SQLite, one chunk per turn
     * of the event loop, so the API answers while it runs. Writes made
     * meanwhile reach the index through `productWritten`.
     */
    async build(): Promise<void> {
      const pending: [string, OrganizationIndex][] = [];
      for (const { id: orgId } of deps.organizations.list()) {
        if (organizations.has(orgId)) continue;
        const organization = newIndex(orgId, false);
        organizations.set(orgId, organization);
        pending.push([orgId, organization]);
      }
      for (const [orgId, organization] of pending) {
        for (let after: string | undefined = ''; after !== undefined; ) {
          await pause();
          if (stopped) return;
          after = indexChunk(orgId, organization.index, after);
        }
        organization.ready = true;
      }
    },

    /** Ends a running build at its next step; call before closing the database. */
    stop(): void {
      stopped = true;
    },
  };
}
