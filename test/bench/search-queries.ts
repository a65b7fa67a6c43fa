import { foldText, splitWords } from '../../main/rules/search-terms.js';
import type { ProductRecord } from '../../main/storage/products.js';
import { random } from './catalog.js';

type Random = ReturnType<typeof random>;

export type QueryKind = 'prefix' | 'typo' | 'barcode' | 'multi-word';
export const QUERY_KINDS: QueryKind[] = ['prefix', 'typo', 'barcode', 'multi-word'];

export interface BenchQuery {
  kind: QueryKind;
  text: string;
}

const wordsOf = (name: string) => splitWords(foldText(name)).filter((word) => /^[a-z]+$/.test(word));

/** One typing mistake: a letter swapped with its neighbour, dropped or replaced. */
function misspell(word: string, rnd: Random): string {
  const at = 1 + rnd.int(word.length - 2);
  const mistake = rnd.int(3);
  if (mistake === 0) return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
  if (mistake === 1) return word.slice(0, at) + word.slice(at + 1);
  return word.slice(0, at) + rnd.pick([...'aeiounrst']) + word.slice(at + 1);
}

/**
 * Queries a till or kiosk sends, drawn from the catalog itself: a word start
 * being typed, a misspelt word, a scanned barcode, two words of a name with the
 * second one still being typed. No text repeats, so no query is answered from
 * a ranking kept from an earlier one.
 */
export function generateQueries(products: readonly ProductRecord[], perKind: number, seed: number): BenchQuery[] {
  const rnd = random(seed);
  const seen = new Set<string>();
  const out: BenchQuery[] = [];
  const make: Record<QueryKind, () => string | undefined> = {
    prefix: () => {
      const word = rnd.pick(wordsOf(rnd.pick(products).name));
      return word && word.length >= 4 ? word.slice(0, 3 + rnd.int(word.length - 3)) : undefined;
    },
    typo: () => {
      const word = rnd.pick(wordsOf(rnd.pick(products).name));
      return word && word.length >= 6 ? misspell(word, rnd) : undefined;
    },
    barcode: () => rnd.pick(products).barcode,
    'multi-word': () => {
      const words = wordsOf(rnd.pick(products).name);
      if (words.length < 2) return undefined;
      const first = rnd.int(words.length - 1);
      const second = words[first + 1] as string;
      return `${words[first]} ${second.slice(0, Math.max(2, Math.ceil(second.length * 0.6)))}`;
    },
  };
  for (const kind of QUERY_KINDS) {
    let made = 0;
    for (let attempt = 0; made < perKind && attempt < perKind * 100; attempt++) {
      const text = make[kind]();
      if (text === undefined || seen.has(text)) continue;
      seen.add(text);
      out.push({ kind, text });
      made += 1;
    }
  }
  return out;
}
