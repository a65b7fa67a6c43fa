#!/usr/bin/env node
// Keeps a label scale's item list in step with the store server.
//
//   BASE_URL=http://127.0.0.1:8787/api/v1 KEY=rk_… STATE=./scale-items.json node scale-feed.mjs
//
// The first run reads every change since the beginning; later runs read only
// what changed since the last `lastupdate` seen. Products that are deleted or no
// longer `showOnScale` leave the list. The list (STATE) is what a scale driver
// uploads as its PLU table: item code, name, price and whether it is weighed.
import { readFile, rename, writeFile } from 'node:fs/promises';

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

async function getPage(since, cursor) {
  const query = new URLSearchParams({ updatedSince: since, limit: '1000' });
  if (cursor) query.set('cursor', cursor);
  const res = await fetch(`${BASE_URL}/products?${query}`, { headers: { authorization: `Bearer ${KEY}` } });
  if (!res.ok) throw new Error(`GET /products answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const state = await readState();
let changed = 0;
let removed = 0;
let cursor;
do {
  const page = await getPage(state.since, cursor);
  for (const product of page.data) {
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
  cursor = page.meta.nextCursor;
} while (cursor);

// Written whole, then renamed: a crash never leaves half a list.
await writeFile(`${STATE}.tmp`, JSON.stringify(state, null, 2));
await rename(`${STATE}.tmp`, STATE);
console.log(JSON.stringify({ changed, removed, items: Object.keys(state.items).length, since: state.since }));
