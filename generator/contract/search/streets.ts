/**
 * `/Streets` filters planned: the name a set of runs (names.ts), postal code and locality a set of
 * places (values.ts), their `and` led by the cheaper side (docs/SEARCH.md, "Combinators and plans"):
 * in street order by the cursor (cursor.ts), or led by the places, their matches sorted.
 */
import { filterMatches, type StreetFilter } from "./filter.ts";
import { placeList } from "./meta.ts";
import { COST, cheapest, type Found, type Plan, type Reader } from "./plan.ts";
import * as leaf from "./leaves.ts";
import {
  combineBits,
  countBits,
  fillPositions,
  gallop,
  inRuns,
  mergeFirst,
  selectBits,
} from "./kernels.ts";
import { passingPlaces, type PlacePass } from "./values.ts";
import { countedPlan, countedSteps, namePlans, recordSteps, runsPlan, walk } from "./cursor.ts";
import { nameSide, nameSteps, readRuns, refuseBroadPattern, type NameSide } from "./names.ts";
import type { Postings } from "./postings.ts";
import type { StreetFilters } from "./request.ts";
import { placeFilterKey } from "./bitmaps.ts";

/** The streets that pass `/Streets` filters (patterns that match every value gone), counted, and streets [start, end) of them. */
export async function findStreets(
  r: Reader,
  filters: StreetFilters,
  start: number,
  end: number,
): Promise<Found> {
  const { name: nameFilter, postalCode, locality } = filters;
  const count = r.meta.count;
  if (nameFilter === undefined && postalCode === undefined && locality === undefined) {
    const to = Math.max(start, Math.min(end, count));
    return {
      total: count,
      positions: Int32Array.from({ length: to - start }, (_, i) => start + i),
    };
  }
  const name = nameFilter === undefined ? undefined : await nameSide(r, nameFilter);
  if (name?.refs.length === 0) return { total: 0, positions: new Int32Array() };
  if (postalCode === undefined && locality === undefined) {
    refuseBroadPattern(name as NameSide, Infinity);
    return await cheapest(namePlans(r, name as NameSide, start, end), r);
  }
  // Place filters with a bitmap (one character; a postal code's scattered digits, `33`, `3$`, `^3`):
  // beside a literal name, known without the place table.
  const keys =
    name?.filter.pattern === undefined ? placeBitmaps(r, [postalCode, locality]) : undefined;
  const withTable = (steps: number): Plan<Found> => ({
    // The place table: four varints a place (an entry is three), decoded once per isolate.
    steps: (r.meta.places * 4) / 3 + steps,
    files: () => leaf.placeTableFiles(r.meta),
    run: async () => {
      const { characters } = r.meta.columns.locality;
      const places = passingPlaces(postalCode, locality, leaf.placeTable(r), characters);
      if (name !== undefined) refuseBroadPattern(name, places.streets);
      const plans = placePlans(r, name, places, start, end);
      return await cheapest(plans.map(pageRead(r)), r);
    },
  });
  if (keys === undefined) return await cheapest([withTable(0)], r);
  if (name === undefined)
    return await cheapest([pageRead(r)(placeBitsPlan(r, keys, start, end)), withTable(0)], r);
  // Before the table, the places' streets are at most those of their rarest bitmap.
  const streets = Math.min(...keys.map((n) => r.meta.bitmapStreets[n] ?? count));
  const beside = Math.min(
    recordSteps(name),
    positionSteps(name, streets),
    name.counts === undefined ? Infinity : countedSteps(r, streets, end, name),
  );
  return await cheapest([pageRead(r)(bitmapPlan(r, name, keys, start, end)), withTable(beside)], r);
}

/**
 * A plan that reads its page's record and head chunks itself (edge/search.ts reads those it did
 * not): a page whose streets lie all over the street order (a bitmap's) may not fit what is left of
 * the budget, and then the next plan runs instead of the request being refused after the search.
 */
const pageRead =
  (r: Reader) =>
  (plan: Plan<Found>): Plan<Found> => ({
    ...plan,
    run: async () => {
      const found = await plan.run();
      await r.need(leaf.pageFiles(r.meta, found));
      return found;
    },
  });

/** The bitmap files of place filters, when every one has an exact bitmap (bitmaps.ts placeFilterKey). */
function placeBitmaps(
  r: Reader,
  filters: readonly (StreetFilter | undefined)[],
): number[] | undefined {
  const occurring = leaf.codePoints(r, "locality characters", r.meta.columns.locality.characters);
  const numbers = filters.flatMap((f) => {
    const key = f === undefined ? "" : placeFilterKey(f, occurring);
    return key === "" ? [] : [key === undefined ? -1 : (leaf.bitmapNumber(r, key) ?? -1)];
  });
  return numbers.length === 0 || numbers.includes(-1) ? undefined : numbers;
}

/** A literal name beside place bitmaps: each run counted by a popcount over its range. */
const bitmapPlan = (
  r: Reader,
  name: NameSide,
  keys: readonly number[],
  start: number,
  end: number,
) =>
  runsPlan(
    r,
    name,
    nameSteps(name) + name.runs * COST.word * 2 + andSteps(r, keys),
    () => placeBits(r, keys),
    start,
    end,
    leaf.filesOf(r.meta, "b", keys),
  );

/** Place filters alone, each a bitmap: counted (one a count the meta gives) and the page selected, no place table read. */
const placeBitsPlan = (
  r: Reader,
  keys: readonly number[],
  start: number,
  end: number,
): Plan<Found> => ({
  // The bitmaps combined, then counted (more than one), and words selected as far as the page.
  steps:
    andSteps(r, keys) +
    (keys.length > 1 ? words(r) * COST.word : 0) +
    Math.min(end, r.meta.count / 32) * COST.word,
  files: () => leaf.filesOf(r.meta, "b", keys),
  run: async () => {
    const bits = placeBits(r, keys);
    const [only] = keys;
    const total = keys.length === 1 ? (r.meta.bitmapStreets[only as number] ?? 0) : countBits(bits);
    return { total, positions: selectBits(bits, start, end) };
  },
});

/** The streets in every one of these place bitmaps. */
function placeBits(r: Reader, keys: readonly number[]): Uint32Array {
  const [first, second] = keys.map((n) => leaf.bitmap(r, n)) as [Uint32Array, Uint32Array?];
  if (second === undefined) return first;
  const out = new Uint32Array(first.length);
  combineBits(out, first, second, 0);
  return out;
}
const andSteps = (r: Reader, keys: readonly number[]) => (keys.length - 1) * words(r) * COST.word;
/** Words of a bitmap over every street. */
const words = (r: Reader) => (r.meta.count + 31) >>> 5;

const positionSteps = (name: NameSide, streets: number) =>
  streets * (COST.position + COST.bit) + nameSteps(name, streets);

/** Each page street's place: the passing place (`passing[l]`) whose streets (`lists[l]`) hold it. */
export function placesInLists(
  page: Int32Array,
  lists: Int32Array[],
  passing: number[],
): Int32Array {
  const out = new Int32Array(page.length);
  const last = page[page.length - 1] ?? -1;
  for (const [l, streets] of lists.entries())
    for (let j = gallop(streets, page[0] ?? 0); (streets[j] ?? Infinity) <= last; j++) {
      const k = gallop(page, streets[j] as number);
      if (page[k] === streets[j]) out[k] = passing[l] as number;
    }
  return out;
}

/** With the place table read: the plans for places alone, or beside a name. */
function placePlans(
  r: Reader,
  name: NameSide | undefined,
  places: PlacePass,
  start: number,
  end: number,
): Plan<Found>[] {
  const table = leaf.placeTable(r);
  const passing: number[] = [];
  const { counts } = table;
  for (let i = 0; i < places.list.length; i++) {
    const p = places.list[i] as number;
    if ((counts[p] as number) > 0) passing.push(p);
  }
  // Only where the places' streets are read or their files priced: a loop over every place.
  const starts = () => leaf.streetStarts(r, table);
  const positionFiles = () => leaf.placeStreetFiles(r.meta, starts(), places.list);
  const ofPlaces = () => leaf.streetsOfPlaces(r, starts(), passing);
  const bitsOf = (lists: Int32Array[]) => {
    const bits = new Uint32Array(words(r));
    for (const streets of lists) fillPositions(bits, streets);
    return bits;
  };
  const placeLists = () => passing.map((p) => placeList(table, p));
  const plans: Plan<Found>[] = [];
  if (name === undefined || name.counts !== undefined)
    plans.push(countedPlan(r, name, places, table, start, end));
  if (name === undefined) {
    // Beside the counted plan (a record chunk for a first page), each file is priced: a big city's
    // places' streets lie in dozens, a postal-code pattern's in hundreds.
    const files = positionFiles();
    const fileSteps = files.size * COST.file;
    plans.push(
      {
        // The places' streets merged in order as far as the page's end: a heap of the lists.
        steps:
          fileSteps +
          places.streets * COST.position +
          Math.min(end, places.streets) * Math.log2(passing.length + 1) * COST.position,
        files: () => files,
        run: async () => {
          const from: number[] = [];
          const positions = mergeFirst(ofPlaces(), start, end, from);
          const found = Int32Array.from(from, (l) => passing[l] as number);
          return { total: places.streets, positions, places: found };
        },
      },
      {
        // The places' streets set in a bitmap of every street, the page selected on it.
        steps: fileSteps + places.streets * (COST.position + COST.bit) + words(r) * COST.word,
        files: () => files,
        run: async () => ({
          total: places.streets,
          positions: selectBits(bitsOf(ofPlaces()), start, end),
        }),
      },
    );
    return plans;
  }
  // When the places lead, the matches are sorted as (street, place) keys.
  const sorted = (keys: number[], headOf: (key: number) => readonly string[]): Found => {
    const page = Float64Array.from(keys).sort().subarray(start, end);
    const positions = Int32Array.from(page, (key) => Math.floor(key / PLACES));
    const found = Int32Array.from(page, (key) => passing[key % PLACES] as number);
    return { total: keys.length, positions, places: found, heads: Array.from(page, headOf) };
  };
  plans.push(
    runsPlan(r, name, recordSteps(name), () => places, start, end),
    {
      // The places' streets, each looked up in the name's runs (only the runs they fall in are tested).
      steps: positionSteps(name, places.streets),
      files: () => new Map([...positionFiles(), ...leaf.listFiles(r.meta, name.refs)]),
      run: async () => {
        const lists = ofPlaces();
        // Many places' streets: set in a bitmap the name's runs are counted on, as `unite` does for
        // many lists, rather than each galloped to in the runs and the matches sorted.
        if (places.streets * COST.entry > words(r) * COST.word + name.runs * COST.word * 2) {
          const found = await walk(r, readRuns(r, name), bitsOf(lists), start, end);
          return { ...found, places: placesInLists(found.positions, lists, passing) };
        }
        const runs = readRuns(r, name, false);
        const keys: number[] = [];
        // Room for two numbers a street of the longest list: written over for each place.
        const found = new Int32Array(2 * lists.reduce((most, l) => Math.max(most, l.length), 0));
        lists.forEach((streets, l) => {
          const n = inRuns(streets, runs.starts, runs.lengths, found);
          for (let j = 0; j < n; j += 2)
            if (name.exact || runs.passes(found[j + 1] as number))
              keys.push((streets[found[j] as number] as number) * PLACES + l);
        });
        return sorted(keys, (key) => runs.head(runs.runOf(Math.floor(key / PLACES))));
      },
    },
    {
      // The places' lists: their entries' heads tested (each distinct name once), no name list read.
      steps: places.streets * COST.entry + Math.min(places.streets, name.runs) * name.test,
      files: () => leaf.listFiles(r.meta, placeLists()),
      run: async () => {
        const lists = placeLists().map((ref) => leaf.list(r, ref));
        const keys: number[] = [];
        lists.forEach((l, k) => {
          // Per head of the list (entries of one head share it): 0 not yet tested, 1 passes, 2 not.
          const verdicts = new Uint8Array(l.headRefEnd);
          for (let i = 0; i < l.length; i++) {
            const ref = l.headRef(i);
            if (verdicts[ref] === 0)
              verdicts[ref] = filterMatches(name.filter, l.headOf(ref).at(-1) ?? "") ? 1 : 2;
            if (verdicts[ref] === 1) keys.push((l.positions[i] as number) * PLACES + k);
          }
        });
        return sorted(keys, (key) => {
          const l = lists[key % PLACES] as Postings;
          return l.entry(l.indexOf(Math.floor(key / PLACES))).head;
        });
      },
    },
  );
  return plans;
}

/** A street's key in a sort of (street, place) pairs: places are fewer than this. */
const PLACES = 2 ** 24;
