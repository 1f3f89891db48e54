/**
 * The `/Streets` plans beside places (streets.ts), and the loops they share: streets counted in
 * order with a page kept, a name's runs verified by a check per street, streets read in order.
 */
import { BLOCK_ENTRIES } from "./store.ts";
import { filterMatches } from "./filter.ts";
import { placeList } from "./meta.ts";
import { COST, Page, union, type Found, type Plan, type Reader } from "./plan.ts";
import * as leaf from "./leaves.ts";
import { combineBits, countRange, gallop, mergeFirst, selectBits } from "./kernels.ts";
import type { PlacePass } from "./values.ts";
import { nameSteps, readRuns, Runs, type NameSide } from "./names.ts";
import { decodePostings, type Postings } from "./postings.ts";
import { scanPlaces } from "./scan.ts";

/** Every street of the name's runs listed, its place looked up and kept or not: a walk, as in `ordered`. */
export const recordSteps = (name: NameSide) => nameSteps(name) + name.streets * COST.walked;
export const positionSteps = (name: NameSide, streets: number) =>
  streets * (COST.position + COST.bit) + nameSteps(name, streets);
/**
 * Summing counts over the places, then reading streets in order as far as the page's end: every
 * street's place looked up, and beside a name each of its list's entries decoded on the way.
 */
export const countedSteps = (r: Reader, streets: number, end: number, name?: NameSide) =>
  r.meta.places * COST.bit +
  Math.min(r.meta.count, (end * r.meta.count) / Math.max(1, streets)) *
    (name === undefined ? COST.entry : COST.walked);

/**
 * The streets of a name's passing runs that `keep` keeps (its place; -2: not kept; -1: kept, its
 * place unknown), counted, page [start, end) kept. `inRun`: how many of a run's streets are kept,
 * when known (a run without any is left out before its name is tested, and one off the page counted).
 */
export function runStreets(
  runs: Runs,
  page: Page,
  keep?: (position: number) => number,
  inRun?: (from: number, to: number) => number,
): Found {
  for (let i = 0; i < runs.starts.length; i++) {
    const from = runs.starts[i] as number;
    const to = from + (runs.lengths[i] as number);
    const kept = inRun?.(from, to) ?? (keep === undefined ? to - from : -1);
    if (kept === 0 || !runs.passes(i)) continue;
    if (kept > 0 && (page.total + kept <= page.start || page.total >= page.end)) page.total += kept;
    else
      for (let p = from; p < to; p++) {
        const place = keep?.(p) ?? -1;
        if (place !== -2 && page.count()) page.keep(p, place, runs.head(i));
      }
  }
  return page.found(page.total, keep !== undefined && inRun === undefined);
}

/** A literal name beside one-character place filters, on their bitmaps: each run counted by a popcount over its range. */
export function bitmapPlan(
  r: Reader,
  name: NameSide,
  keys: readonly number[],
  start: number,
  end: number,
): Plan<Found> {
  return {
    steps: nameSteps(name) + name.runs * COST.word * 2 + andSteps(r, keys),
    files: () => union(leaf.listFiles(r.meta, name.refs), leaf.filesOf(r.meta, "b", keys)),
    run: async () => {
      const bits = placeBits(r, keys);
      const bit = (p: number) => ((((bits[p >>> 5] as number) >>> (p & 31)) & 1) === 1 ? -1 : -2);
      return runStreets(readRuns(r, name), new Page(start, end), bit, (from, to) =>
        countRange(bits, from, to),
      );
    },
  };
}

/** The streets in every one of these place bitmaps. */
function placeBits(r: Reader, keys: readonly number[]): Uint32Array {
  const [first, second] = keys.map((n) => leaf.bitmap(r, n)) as [Uint32Array, Uint32Array?];
  if (second === undefined) return first;
  const out = new Uint32Array(first.length);
  combineBits(out, first, second, 0);
  return out;
}
const andSteps = (r: Reader, keys: readonly number[]) =>
  (keys.length - 1) * ((r.meta.count + 31) >>> 5) * COST.word;
/** With the place table read: the plans for places alone, or beside a name. */
export function placePlans(
  r: Reader,
  name: NameSide | undefined,
  places: PlacePass,
  keys: readonly number[] | undefined,
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
  // Only for a plan that reads the places' streets: a loop over every place (a first request's).
  const starts = () => leaf.streetStarts(r, table);
  const positionFiles = () => leaf.placeStreetFiles(r.meta, starts(), places.list);
  const ofPlaces = (from = starts()) => passing.map((p) => leaf.placeStreets(r, from, p));
  const plans: Plan<Found>[] = [];
  if (keys !== undefined && name === undefined)
    plans.push({
      steps: andSteps(r, keys) + Math.min(end, r.meta.count / 32) * COST.word,
      files: () => leaf.filesOf(r.meta, "b", keys),
      run: async () => ({
        total: places.streets,
        positions: selectBits(placeBits(r, keys), start, end),
      }),
    });
  if (keys !== undefined && name !== undefined) plans.push(bitmapPlan(r, name, keys, start, end));
  if (name === undefined || name.counts !== undefined)
    plans.push({
      // Counted from the places (and the name's per-place counts); streets read in order as far as the page.
      steps: countedSteps(r, places.streets, end, name),
      files: () =>
        name?.counts === undefined ? new Map() : leaf.filesOf(r.meta, "c", [name.counts]),
      run: async () => {
        const counts =
          name?.counts === undefined ? table.counts : leaf.placeCounts(r, name.counts, table.size);
        let total = 0;
        for (let i = 0; i < places.list.length; i++)
          total += counts[places.list[i] as number] as number;
        return name === undefined
          ? await scanPlaces(r, places, total, start, end)
          : await ordered(r, name, places, total, start, end);
      },
    });
  if (name === undefined) {
    plans.push({
      // The places' streets merged in order, as far as the page's end.
      steps: places.streets * COST.position,
      files: positionFiles,
      run: async () => {
        const from: number[] = [];
        const positions = mergeFirst(ofPlaces(), start, end, from);
        return {
          total: places.streets,
          positions,
          places: Int32Array.from(from, (l) => passing[l] as number),
        };
      },
    });
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
    {
      // The name's runs, each passing street's place from the record table.
      steps: recordSteps(name),
      files: () => leaf.listFiles(r.meta, name.refs),
      run: async () => {
        const runs = readRuns(r, name);
        const streets = runs.streets();
        await r.need(leaf.recordFiles(r.meta, streets));
        const of = leaf.placesAt(r, streets);
        // runStreets asks for streets in increasing order: streets[k] is found moving on.
        let k = 0;
        const place = (position: number) => {
          while ((streets[k] as number) < position) k++;
          const p = of[k] as number;
          return places.pass[p] === 1 ? p : -2;
        };
        return runStreets(runs, new Page(start, end), place);
      },
    },
    {
      // The places' streets, each looked up in the name's runs (only the runs they fall in are tested).
      steps: positionSteps(name, places.streets),
      files: () => union(positionFiles(), leaf.listFiles(r.meta, name.refs)),
      run: async () => {
        const runs = readRuns(r, name, false);
        const keys: number[] = [];
        const { starts, lengths } = runs;
        ofPlaces().forEach((streets, l) => {
          // The last run starting at or before each street, searched for from the previous one's.
          for (let k = 0, i = 0; k < streets.length && starts.length > 0; k++) {
            const street = streets[k] as number;
            i = Math.max(0, gallop(starts, street + 1, i) - 1);
            const from = starts[i] as number;
            if (street >= from && street < from + (lengths[i] as number) && runs.passes(i))
              keys.push(street * PLACES + l);
          }
        });
        return sorted(keys, (key) => runs.head(runs.runOf(Math.floor(key / PLACES))));
      },
    },
    {
      // The places' lists: their entries' heads tested (each distinct name once), no name list read.
      steps: places.streets * COST.entry + Math.min(places.streets, name.runs) * name.test,
      files: () =>
        leaf.listFiles(
          r.meta,
          passing.map((p) => placeList(table, p)),
        ),
      run: async () => {
        const lists = passing.map((p) => leaf.list(r, placeList(table, p)));
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
/**
 * Streets [start, end) of a name's one exact list read in order from its first block, each kept
 * when its place passes, a stretch at a time as long as the page is expected to need (`total`: the
 * count, known).
 */
async function ordered(
  r: Reader,
  name: NameSide,
  places: PlacePass,
  total: number,
  start: number,
  end: number,
): Promise<Found> {
  const page = new Page(start, end);
  const [ref] = name.refs;
  if (ref === undefined) return page.found(total);
  const share = Math.max(total / name.streets, 1e-9);
  // The list's blocks decoded so far, and where its next street is: block, entry, street of the run.
  const blocks: Postings[] = [];
  // No destructuring in the loop: a first request runs it in the interpreter, where each allocates.
  let [b, i] = [0, 0];
  let inRun = 0;
  let cursor = 0;
  while (page.total < Math.min(end, total) && cursor < name.streets) {
    const want = Math.min(name.streets - cursor, Math.ceil((end - page.total) / share) + 32);
    const stretch = new Int32Array(want);
    const from = new Int32Array(want);
    for (let k = 0; k < want; k++, cursor++) {
      if (b === blocks.length) {
        // More blocks: as many as the rest of the stretch is expected to take.
        const to = Math.max(
          b + 1,
          Math.min(
            ref.length - 2,
            b + Math.ceil(((want - k) * name.runs) / name.streets / BLOCK_ENTRIES),
          ),
        );
        await r.need(leaf.blockFiles(r.meta, ref, b, to));
        for (let n = b; n < to; n++)
          blocks.push(decodePostings(leaf.blockBytes(r, ref, n, n + 1), BLOCK_ENTRIES));
      }
      const l = blocks[b] as Postings;
      stretch[k] = (l.positions[i] as number) + inRun;
      from[k] = b * BLOCK_ENTRIES + i;
      if (++inRun < (l.seconds[i] as number)) continue;
      i++;
      inRun = 0;
      if (i < l.length) continue;
      b++;
      i = 0;
    }
    await r.need(leaf.recordFiles(r.meta, stretch));
    const of = leaf.placesAt(r, stretch);
    for (let k = 0; k < want && page.total < end; k++) {
      const place = of[k] as number;
      if (places.pass[place] !== 1 || !page.count()) continue;
      const at = from[k] as number;
      const block = blocks[Math.floor(at / BLOCK_ENTRIES)] as Postings;
      page.keep(stretch[k] as number, place, block.entry(at % BLOCK_ENTRIES).head);
    }
  }
  return page.found(total);
}
