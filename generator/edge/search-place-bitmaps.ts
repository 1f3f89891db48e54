import type { ReadBudget } from "../contract/search/budget.ts";
import { countRange, selectBits } from "../contract/search/bitsets.ts";
import { bitmapBytes } from "../contract/search/bitmaps.ts";
import type { StreetFilter } from "../contract/search/filter.ts";
import type { Runs } from "../contract/search/filtering.ts";
import type { PlaceTable } from "../contract/search/meta.ts";
import type { ListRef } from "../contract/search/store.ts";
import { placeFilterKey } from "../contract/search/place-bitmaps.ts";
import type { Found } from "./search-filters.ts";
import type { SearchIndex } from "./search-index.ts";

/** The characters of a place table's localities, worked out once per table. */
const alphabets = new WeakMap<PlaceTable, ReadonlySet<number>>();
function localityCharacters(places: PlaceTable): ReadonlySet<number> {
  let set = alphabets.get(places);
  if (set === undefined) {
    const found = new Set<number>();
    for (const locality of places.localities)
      for (const ch of locality) found.add(ch.codePointAt(0) ?? 0);
    alphabets.set(places, (set = found));
  }
  return set;
}

/** The bitmap keys of place filters of one character, if each has an exact bitmap in the index. */
export function placeBitmapKeys(
  index: SearchIndex,
  filters: readonly (StreetFilter | undefined)[],
  places: PlaceTable,
): string[] | undefined {
  const keys: string[] = [];
  for (const filter of filters) {
    if (filter === undefined) continue;
    const key = placeFilterKey(filter, localityCharacters(places));
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
 * name's lists do not fit with a quarter of the budget left.
 */
export async function runsOnPlaceBitmaps(
  index: SearchIndex,
  keys: readonly string[],
  nameRefs: readonly ListRef[],
  readRuns: (keep: (start: number, length: number) => boolean) => Promise<Runs>,
  budget: ReadBudget,
  start: number,
  end: number,
): Promise<Found | undefined> {
  const files = index.bitmaps.files(keys);
  // The name's lists as well, with a tenth of the budget left for the page's record chunks and tails.
  const share = (index.bitmaps.bytesOf(keys) + 1) / index.meta.readBudget;
  if (!budget.fits(files, 0.25) || !index.listsFit(nameRefs, budget, 0.1 + share)) return undefined;
  const bits = await intersection(index, keys, files, budget);
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
  places: PlaceTable,
  scanned: number,
  budget: ReadBudget,
  start: number,
  end: number,
): Promise<number[] | undefined> {
  if (scanned * index.meta.placeWidth <= bitmapBytes(index.meta.count)) return undefined;
  const keys = placeBitmapKeys(index, filters, places);
  if (keys === undefined) return undefined;
  const files = index.bitmaps.files(keys);
  if (!budget.fits(files, 0.1)) return undefined;
  return selectBits(await intersection(index, keys, files, budget), start, end);
}

/** The streets in every one of these bitmaps (read, each file charged): a kept bitmap itself when there is one. */
async function intersection(
  index: SearchIndex,
  keys: readonly string[],
  files: ReadonlyMap<string, number>,
  budget: ReadBudget,
): Promise<Uint32Array> {
  for (const [path, bytes] of files) budget.charge(path, bytes);
  const read = await index.bitmaps.read(keys);
  const bitmaps = keys.map((key) => read.get(key) as Uint32Array);
  let bits = bitmaps[0] as Uint32Array;
  for (const other of bitmaps.slice(1)) bits = bits.map((word, w) => word & (other[w] as number));
  return bits;
}
