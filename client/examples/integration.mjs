import { createStoreClient } from 'store-server-client';

const store = createStoreClient({ baseUrl: process.env.BASE_URL, key: process.env.KEY });
for await (const product of store.items('/products', { params: { query: { updatedSince: process.env.SINCE } } })) {
  console.log('changed', product.name, product.deleted ? 'deleted' : product.price);
}
const { data: [scanned] } = await store.get('/products', { params: { query: { barcode: process.env.SCANNED } } });
const sale = { store: process.env.STORE, products: [{ productId: scanned.id, quantity: 1 }] };
const { id } = await store.post('/orders', { body: sale });
console.log('sold', scanned.name, 'order', id);
