import type { ReadBudget } from "../contract/search/budget.ts";
import { countBits, countRange, selectBits } from "../contract/search/bitsets.ts";
import { bitmapBytes } from "../contract/search/bitmaps.ts";
import type { StreetFilter } from "../contract/search/filter.ts";
import type { Runs } from "../contract/search/filtering.ts";
import type { SearchMeta } from "../contract/search/meta.ts";
import type { ListRef } from "../contract/search/store.ts";
import { placeFilterKey } from "../contract/search/place-bitmaps.ts";
import type { Found } from "./search-filters.ts";
import type { SearchIndex } from "./search-index.ts";

/** The code points of the localities (the meta's `columns`), worked out once per index. */
const alphabets = new WeakMap<SearchMeta, ReadonlySet<number>>();
function localityCharacters(meta: SearchMeta): ReadonlySet<number> {
  let set = alphabets.get(meta);
  if (set === undefined) {
    const characters = Array.from(meta.columns.locality.characters, (ch) => ch.codePointAt(0) ?? 0);
    alphabets.set(meta, (set = new Set(characters)));
  }
  return set;
}

/** The bitmap keys of place filters of one character, if each has an exact bitmap in the index. */
export function placeBitmapKeys(
  index: SearchIndex,
  filters: readonly (StreetFilter | undefined)[],
): string[] | undefined {
  const keys: string[] = [];
  for (const filter of filters) {
    if (filter === undefined) continue;
    const key = placeFilterKey(filter, localityCharacters(index.meta));
    if (key === undefined || !index.bitmaps.has(key)) return undefined;
    keys.push(key);
  }
  return keys.length === 0 ? undefined : keys;
}

/**
 * A name beside place filters of one character (place-bitmaps.ts): the name's runs are read as
 * when the name side is taken, and instead of each street's place from the record table, each
 * run's streets are counted by a popcount over its range of the places' bitmap; the page is the
 * first matching streets in order, whose places are then read. Undefined when the bitmaps and the
 * name's lists do not fit with a quarter of the budget left, or the places hold no more than
 * `moreThan` streets (their bitmaps are then read, not charged: the caller reads their lists
 * instead, and with no place table read a request asks this first).
 */
export async function runsOnPlaceBitmaps(
  index: SearchIndex,
  keys: readonly string[],
  nameRefs: readonly ListRef[],
  readRuns: (keep: (start: number, length: number) => boolean) => Promise<Runs>,
  budget: ReadBudget,
  start: number,
  end: number,
  moreThan = -1,
): Promise<Found | undefined> {
  const files = index.bitmaps.files(keys);
  // The name's lists as well, with a tenth of the budget left for the page's record chunks and tails.
  const share = (index.bitmaps.bytesOf(keys) + 1) / index.meta.readBudget;
  if (!budget.fits(files, 0.25) || !index.listsFit(nameRefs, budget, 0.1 + share)) return undefined;
  const bits = await intersection(index, keys);
  if (countBits(bits) <= moreThan) return undefined;
  for (const [path, bytes] of files) budget.charge(path, bytes);
  // A run without a street in the places is left out before its name is tested.
  const runs = await readRuns((first, length) => countRange(bits, first, first + length) > 0);
  let total = 0;
  const positions: number[] = [];
  const heads: (readonly string[])[] = [];
  for (let r = 0; r < runs.starts.length; r++) {
    const [first, length] = [runs.starts[r] as number, runs.lengths[r] as number];
    const inRun = countRange(bits, first, first + length);
    if (inRun > 0 && total + inRun > start && total < end)
      for (let p = first, seen = total; p < first + length && seen < end; p++)
        if ((((bits[p >>> 5] as number) >>> (p & 31)) & 1) === 1 && seen++ >= start) {
          positions.push(p);
          heads.push(runs.head(r));
        }
    total += inRun;
  }
  const places = await index.streets.placesAt(positions, budget);
  return {
    total,
    page: positions.map((position, i) => ({
      position,
      place: places[i] ?? 0,
      head: heads[i] ?? [],
    })),
  };
}

/**
 * Page [start, end) of the streets of one-character place filters alone (`postalCode=7&page=2000`)
 * by a select over their bitmaps, words counted up to the page, when the record table scanned from
 * the first street to the page (StreetTable.scanPlaces, `scanned` streets expected) would be more
 * bytes than a bitmap. Undefined when it would not, or the bitmaps do not fit with a tenth of the
 * budget left for the page's record and head chunks.
 */
export async function pageOnPlaceBitmaps(
  index: SearchIndex,
  filters: readonly (StreetFilter | undefined)[],
  scanned: number,
  budget: ReadBudget,
  start: number,
  end: number,
): Promise<number[] | undefined> {
  if (scanned * index.meta.placeWidth <= bitmapBytes(index.meta.count)) return undefined;
  const keys = placeBitmapKeys(index, filters);
  if (keys === undefined) return undefined;
  const files = index.bitmaps.files(keys);
  if (!budget.fits(files, 0.1)) return undefined;
  for (const [path, bytes] of files) budget.charge(path, bytes);
  return selectBits(await intersection(index, keys), start, end);
}

/** The streets in every one of these bitmaps (read, not charged): a kept bitmap itself when there is one. */
async function intersection(index: SearchIndex, keys: readonly string[]): Promise<Uint32Array> {
  const read = await index.bitmaps.read(keys);
  const bitmaps = keys.map((key) => read.get(key) as Uint32Array);
  let bits = bitmaps[0] as Uint32Array;
  for (const other of bitmaps.slice(1)) bits = bits.map((word, w) => word & (other[w] as number));
  return bits;
}
