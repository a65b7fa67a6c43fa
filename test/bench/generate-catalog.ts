import type { ProductRecord } from '../../main/storage/products.js';
import { random } from './catalog.js';

type Random = ReturnType<typeof random>;

/**
 * A reproducible catalog shaped like a Swiss store's: German, French and
 * Italian names with accents, sizes, brands, EAN-13 barcodes, some alias
 * codes, descriptions and ingredient declarations.
 */

const PRODUCTS = [
  'Vollmilch', 'Magermilch', 'Joghurt', 'Rahm', 'Butter', 'Käse', 'Emmentaler', 'Gruyère', 'Appenzeller', 'Mozzarella',
  'Schokolade', 'Pralinés', 'Biscuits', 'Zwieback', 'Knäckebrot', 'Brot', 'Zopf', 'Gipfeli', 'Croissant', 'Baguette',
  'Müesli', 'Haferflocken', 'Cornflakes', 'Café', 'Espresso', 'Thé', 'Tee', 'Orangensaft', 'Apfelsaft', 'Mineralwasser',
  'Spaghetti', 'Penne', 'Fusilli', 'Risotto', 'Polenta', 'Gnocchi', 'Ravioli', 'Tortellini', 'Lasagne', 'Pâtes',
  'Crème', 'Glace', 'Sorbet', 'Meringue', 'Confiture', 'Honig', 'Nutella', 'Erdnussbutter', 'Olivenöl', 'Essig',
  'Äpfel', 'Birnen', 'Bananen', 'Orangen', 'Zitronen', 'Trauben', 'Erdbeeren', 'Himbeeren', 'Kartoffeln', 'Rüebli',
  'Tomaten', 'Gurken', 'Zwiebeln', 'Knoblauch', 'Salat', 'Spinat', 'Brokkoli', 'Champignons', 'Peperoni', 'Zucchetti',
  'Poulet', 'Cervelat', 'Salami', 'Schinken', 'Speck', 'Bratwurst', 'Lachs', 'Thon', 'Crevetten', 'Fondue',
  'Raclette', 'Rösti', 'Bündnerfleisch', 'Leckerli', 'Ovomaltine', 'Rivella', 'Bière', 'Vin', 'Prosecco', 'Grappa',
  'Waschmittel', 'Spülmittel', 'Zahnpasta', 'Shampoo', 'Seife', 'Taschentücher', 'Batterien', 'Kerzen', 'Servietten', 'Alufolie',
];
const ATTRIBUTES = [
  'Bio', 'Fairtrade', 'Classic', 'Original', 'Light', 'Extra', 'Premium', 'Zartbitter', 'Vollkorn', 'Laktosefrei',
  'Glutenfrei', 'Vegan', 'Nature', 'Fraise', 'Vanille', 'Caramel', 'Noisette', 'Crémeux', 'Doux', 'Piccante',
  'Grana', 'Padano', 'Frais', 'Geräuchert', 'Gesalzen', 'Ungesalzen', 'Suisse', 'Alpen', 'Berg', 'Hausgemacht',
];
const BRANDS = [
  'Alpenhof', 'Bergsonne', 'Lac Léman', 'Ticino Sole', 'Zürcher', 'Bernerland', 'Jura Délices', 'Valais Frères',
  'Engadiner', 'Säntis', 'Rigi', 'Pilatus', 'Gotthard', 'Mont-Blanc', 'Lugano', 'Genève',
];
const SIZES = ['100g', '125g', '150g', '200g', '250g', '500g', '750g', '1kg', '2kg', '0.5l', '1l', '1.5l', '6x1.5l', '4 Stk', '10 Stk'];
const INGREDIENTS = [
  'Zucker', 'Weizenmehl', 'Milchpulver', 'Kakaobutter', 'Salz', 'Hefe', 'Emulgator', 'Sonnenblumenöl', 'Eier',
  'Haselnüsse', 'Mandeln', 'Vanillin', 'Säuerungsmittel', 'Citronensäure', 'Aroma', 'Wasser', 'Hartweizengriess',
];
const SYLLABLES = ['ka', 'lo', 'mi', 're', 'sa', 'tu', 'ber', 'don', 'fel', 'gar', 'hin', 'jor', 'lan', 'mon', 'nor', 'pel', 'rin', 'sto', 'vak', 'zel'];

function ean13(rnd: Random): string {
  let digits = '76';
  while (digits.length < 12) digits += rnd.int(10).toString();
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return digits + ((10 - (sum % 10)) % 10).toString();
}

/** A made-up word, so the vocabulary grows with the catalog as a real one does. */
function madeUpWord(rnd: Random): string {
  const count = 2 + rnd.int(3);
  let word = '';
  for (let i = 0; i < count; i++) word += rnd.pick(SYLLABLES);
  return word;
}

/** Category ids the generated products use. */
export const CATEGORY_IDS = Array.from({ length: 40 }, (_, i) => `cat${i.toString().padStart(2, '0')}`);

/** `count` products of organization `orgId`, the same ones for the same seed. */
export function generateCatalog(count: number, orgId: string, seed = 42): ProductRecord[] {
  const rnd = random(seed);
  const now = new Date(Date.UTC(2026, 0, 1)).toISOString();
  const products: ProductRecord[] = [];
  for (let i = 0; i < count; i++) {
    const name = [
      rnd.next() < 0.6 ? rnd.pick(BRANDS) : undefined,
      rnd.next() < 0.5 ? rnd.pick(ATTRIBUTES) : undefined,
      rnd.pick(PRODUCTS),
      rnd.next() < 0.3 ? madeUpWord(rnd) : undefined,
      rnd.pick(SIZES),
    ]
      .filter(Boolean)
      .join(' ');
    const product: ProductRecord = {
      id: `p${i.toString().padStart(7, '0')}`,
      instance: orgId,
      name,
      price: 50 + rnd.int(5000),
      taxCategory: '2.6',
      barcode: ean13(rnd),
      imageUrl: '',
      deleted: false,
      createdate: now,
      lastupdate: now,
      externalId: `ART-${(100000 + i).toString()}`,
      category: rnd.pick(CATEGORY_IDS),
      description: `${rnd.pick(ATTRIBUTES)} ${rnd.pick(PRODUCTS)} ${madeUpWord(rnd)} aus der Region, ${rnd.pick(['ideal zum Frühstück', 'parfait pour l’apéro', 'perfetto per la cena', 'für jeden Tag'])}.`,
      declarations: `Zutaten: ${Array.from({ length: 3 + rnd.int(5) }, () => rnd.pick(INGREDIENTS)).join(', ')}.`,
    };
    if (rnd.next() < 0.1) product.barcodeAliases = [{ code: ean13(rnd), quantity: 6 }];
    products.push(product);
  }
  return products;
}
