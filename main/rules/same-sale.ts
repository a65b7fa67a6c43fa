import type { Order, OrderCreate } from '../../shared/api/orders.js';
import { toStoredTime } from './timestamps.js';

const LINE_FIELDS = ['productId', 'quantity', 'title', 'price', 'taxRate', 'deposit'] as const;

/**
 * How a request differs from the order already stored under its store and
 * `orderId`, or undefined when it is the same sale sent again. Compared is
 * what the request says about the sale: its lines (each field it sent) and its
 * order date if it sent one. A line without its own price is the same line
 * when product and quantity match, however the catalog has changed since;
 * payment fields are left out, as staff may have changed them on the order.
 */
export function saleDifference(stored: Order, body: OrderCreate): string | undefined {
  if (body.orderDate !== undefined && toStoredTime(body.orderDate) !== stored.orderDate) {
    return `orderDate ${body.orderDate} is not the stored ${stored.orderDate}`;
  }
  if (body.products.length !== stored.products.length) {
    return `products: ${body.products.length} lines sent, the stored order has ${stored.products.length}`;
  }
  for (const [index, sent] of body.products.entries()) {
    const kept = stored.products[index];
    if (!kept) continue;
    for (const field of LINE_FIELDS) {
      const value = sent[field];
      if (value !== undefined && value !== kept[field]) {
        return `products.${index}.${field}: ${JSON.stringify(value)} sent, the stored order has ${JSON.stringify(kept[field])}`;
      }
    }
  }
  return undefined;
}
