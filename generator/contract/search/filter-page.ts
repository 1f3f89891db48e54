/**
 * The page of the streets of some places, read from their lists: entries [start, end) of their
 * union in street order. Places' lists are disjoint (a street has one place), so the union needs
 * no deduplication, and only each list's first `end` entries can be on the page: those are
 * sorted (position and list together in one number), and each page entry comes from its own list
 * without searching the others.
 */
import type { ListEntry } from "./store.ts";
import type { Postings } from "./postings.ts";

/** Lists per key: a key is position * LISTS + list, exact in a double for positions below 2^32. */
const LISTS = 0x200000;

export function placeListsPage(
  lists: readonly Postings[],
  start: number,
  end: number,
): ListEntry[] {
  if (lists.length > LISTS) throw new RangeError(`${lists.length} place lists (at most ${LISTS})`);
  let taken = 0;
  for (const list of lists) taken += Math.min(list.length, end);
  const keys = new Float64Array(taken);
  let n = 0;
  lists.forEach((list, l) => {
    const upTo = Math.min(list.length, end);
    for (let i = 0; i < upTo; i++) keys[n++] = (list.positions[i] as number) * LISTS + l;
  });
  keys.sort();
  const page: ListEntry[] = [];
  for (let k = start; k < Math.min(end, keys.length); k++) {
    const key = keys[k] as number;
    const list = lists[key % LISTS] as Postings;
    page.push(list.entry(list.indexOf(Math.floor(key / LISTS))));
  }
  return page;
}
