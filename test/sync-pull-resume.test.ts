import { afterEach, describe, expect, it } from 'vitest';
import { FAST_SYNC, pulledSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { seedUpstream, syncRun } from './support/upstream-catalog.js';

let pair: SyncPair | undefined;
afterEach(async () => {
  await pair?.destroy();
  pair = undefined;
});

const localProducts = (p: SyncPair) => (p.local.sqlite().prepare('SELECT count(*) AS n FROM products WHERE org_id = ?').get(p.org.id) as { n: number }).n;
const fullProductPage = (method: string, path: string) => method === 'GET' && path.startsWith('/products?') && path.includes('updatedSince=1970-01-01');

describe('a full pull cut off near its end (field condition: pulls starting again from page 1)', () => {
  it('resumes from the last page it applied', async () => {
    pair = await startSyncPair();
    await waitForSync(pair.write, (s) => s.lastFullPullAt !== null);
    // Three pages of 5,000 rows: 5,000, 5,000 and 2,000.
    seedUpstream(pair, { products: 12_000 });
    let pages = 0;
    // The line drops on the third and last page, about 90 % into the walk.
    pair.proxy.setMode('down', { only: (method, path) => fullProductPage(method, path) && ++pages === 3 });
    const rowsBefore = pair.proxy.rowsRead()['/products'] ?? 0;
    const since = new Date().toISOString();
    // `sync run --full` fails once (the line), and is run again as a person would.
    await syncRun(pair, { full: true });
    await waitForSync(pair.write, pulledSince(since));
    expect(localProducts(pair)).toBe(12_000);
    // Pages 1 and 2, the cut page 3, and page 3 again: not pages 1 to 3 again.
    expect(pages).toBe(4);
    expect((pair.proxy.rowsRead()['/products'] ?? 0) - rowsBefore).toBe(12_000);
  }, 180_000);
});

describe('a first full pull over a 300 kbit/s line (field condition: 5,000 products took 160 s)', () => {
  it('completes: answers come compressed, and the time limit follows progress', async () => {
    // A limit of 2 s without progress: a whole page at this speed takes longer than that.
    pair = await startSyncPair({ local: { sync: { ...FAST_SYNC, timeoutMs: 2000 } } });
    await waitForSync(pair.write, (s) => s.lastFullPullAt !== null);
    seedUpstream(pair, { products: 5_000 });
    pair.proxy.setMode('throttle', { bytesPerSecond: 37_500 });
    const since = new Date().toISOString();
    await syncRun(pair, { full: true });
    await waitForSync(pair.write, pulledSince(since), 120_000);
    expect(localProducts(pair)).toBe(5_000);
  }, 240_000);
});
