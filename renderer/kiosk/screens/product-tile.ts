import type { Product } from '../../../shared/api/products.js';
import { isOnSale } from '../../../shared/order-pricing.js';
import { h } from '../dom.js';
import type { Translate } from '../i18n/index.js';

export interface TileOptions {
  t: Translate;
  showInfoButton: boolean;
  onChoose: (product: Product) => void;
  onInfo: (product: Product) => void;
}

/** A product as a touch target: picture, name, price (the sale price while it applies). */
export function productTile(product: Product, options: TileOptions): HTMLElement {
  const onSale = isOnSale(product, new Date().toISOString());
  return h(
    'div',
    { class: 'tile-wrap' },
    h(
      'button',
      { class: 'tile', 'data-product': product.id, onclick: () => options.onChoose(product) },
      product.imageUrl ? h('img', { src: product.imageUrl, alt: '', loading: 'lazy' }) : h('span', { class: 'noimage', 'aria-hidden': 'true' }, product.name.slice(0, 1)),
      h('span', { class: 'name' }, product.name),
      h(
        'span',
        { class: 'price' },
        onSale && h('span', { class: 'badge' }, options.t('sale')),
        onSale && h('s', {}, options.t.money(product.price)),
        ' ',
        options.t.money(onSale ? (product.salePrice as number) : product.price),
      ),
    ),
    options.showInfoButton &&
      h('button', { class: 'info', 'aria-label': `${options.t('info')}: ${product.name}`, onclick: () => options.onInfo(product) }, 'i'),
  );
}
