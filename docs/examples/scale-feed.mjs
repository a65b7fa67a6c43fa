#!/usr/bin/env node
// Keeps a label scale's item list in step with the store server.
//
//   npm install /path/to/store-server-client-0.1.0.tgz   (made by `npm pack` in client/)
//   BASE_URL=http://127.0.0.1:8787/api/v1 KEY=rk_… STATE=./scale-items.json node scale-feed.mjs
//
// The first run reads every change since the beginning; later runs read only
// what changed since the last `lastupdate` seen. Products that are deleted or no
// longer `showOnScale` leave the list. The list (STATE) is what a scale driver
// uploads as its PLU table: item code, name, price and whether it is weighed.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createStoreClient } from 'store-server-client';

const { BASE_URL = 'http://127.0.0.1:8787/api/v1', KEY, STATE = 'scale-items.json' } = process.env;
if (!KEY) throw new Error('Set KEY to a read key of the organization');

async function readState() {
  try {
    return JSON.parse(await readFile(STATE, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return { since: '1970-01-01T00:00:00.000Z', items: {} };
    throw error;
  }
}

// The client pages through nextCursor, retries a read the network lost and
// throws StoreApiError with the server's message for an error answer.
const store = createStoreClient({ baseUrl: BASE_URL, key: KEY });
const state = await readState();
let changed = 0;
let removed = 0;
for await (const product of store.items('/products', { params: { query: { updatedSince: state.since, limit: 1000 } } })) {
  if (product.deleted || !product.showOnScale) {
    if (state.items[product.id]) removed += 1;
    delete state.items[product.id];
  } else {
    state.items[product.id] = { barcode: product.barcode, name: product.name, price: product.price };
    changed += 1;
  }
  // Rows come oldest change first: the last one seen is where the next run starts.
  state.since = product.lastupdate;
}

// Written whole, then renamed: a crash never leaves half a list.
await writeFile(`${STATE}.tmp`, JSON.stringify(state, null, 2));
await rename(`${STATE}.tmp`, STATE);
console.log(JSON.stringify({ changed, removed, items: Object.keys(state.items).length, since: state.since }));
