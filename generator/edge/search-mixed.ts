import type { ReadBudget } from "../contract/search/budget.ts";
import {
  bitmapsAnswer,
  countBits,
  evaluateBitmaps,
  selectBits,
} from "../contract/search/bitsets.ts";
import { termKey } from "../contract/search/fulltext.ts";
import type { LexemeMatch, SearchNode } from "../contract/postgres/tsquery.ts";
import type { ListRef } from "../contract/search/store.ts";
import type { Found } from "./search-filters.ts";
import type { SearchIndex } from "./search-index.ts";

/**
 * A phrase-free query some of whose terms have bitmaps and whose other terms' lists fit beside
 * them, evaluated on bitmaps: each list made a bitmap (`siedlung or straße`: Siedlung's list
 * beside Straße's bitmap), then and/or/not word by word, the count a popcount and the page a
 * select, as when every term has one. Only for a query every plan of which would be refused (its
 * lists exceed the budget): what it charges cannot turn an answer into a refusal. Undefined when
 * it does not apply or does not fit.
 */
export async function mixedBitmaps(
  index: SearchIndex,
  root: SearchNode,
  terms: readonly LexemeMatch[],
  lists: (term: LexemeMatch) => readonly ListRef[],
  budget: ReadBudget,
  bounds: { readonly start: number; readonly end: number },
): Promise<Found | undefined> {
  if (!bitmapsAnswer(root, () => true)) return undefined;
  const withBitmap = terms.filter((term) => index.bitmaps.has(termKey(term)));
  if (withBitmap.length === 0) return undefined;
  const listed = terms.filter((term) => !index.bitmaps.has(termKey(term)));
  const keys = withBitmap.map(termKey);
  const share = (index.bitmaps.bytesOf(keys) + 1) / index.meta.readBudget;
  if (!index.listsFit(listed.flatMap(lists), budget, share)) return undefined;
  const bitmaps = new Map(await index.bitmaps.read(keys));
  const count = index.meta.count;
  for (const term of listed) {
    const words = new Uint32Array((count + 31) >>> 5);
    for (const list of await index.postings(lists(term), budget))
      for (const position of list.positions) words[position >>> 5]! |= 1 << (position & 31);
    bitmaps.set(termKey(term), words);
  }
  const found = evaluateBitmaps(root, bitmaps, count);
  const positions = selectBits(found, bounds.start, bounds.end);
  const files = new Map([
    ...index.bitmaps.files(keys),
    ...(await index.streets.filesAt(positions)),
  ]);
  if (!budget.fits(files)) return undefined;
  for (const [path, bytes] of files) budget.charge(path, bytes);
  return { total: countBits(found), page: await index.streets.streetsAt(positions, budget) };
}
