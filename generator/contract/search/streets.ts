/**
 * `/Streets` filters planned: the name a set of runs (names.ts), postal code and locality a set of
 * places (values.ts), their `and` led by the cheaper side (docs/SEARCH.md, "Combinators and plans").
 */
import { BLOCK_ENTRIES, runStreetsOf } from "./store.ts";
import type { StreetFilter } from "./filter.ts";
import { COST, cheapest, Page, type Found, type Plan, type Reader } from "./plan.ts";
import * as leaf from "./leaves.ts";
import { passingPlaces } from "./values.ts";
import {
  bitmapPlan,
  countedSteps,
  placePlans,
  positionSteps,
  recordSteps,
  runStreets,
} from "./places.ts";
import { nameSide, nameSteps, readRuns, refuseBroadPattern, type NameSide } from "./names.ts";
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
      const places = passingPlaces(
        postalCode,
        locality,
        leaf.placeTable(r),
        r.meta.columns.locality.characters,
      );
      if (name !== undefined) refuseBroadPattern(name, places.streets);
      const plans = placePlans(r, name, places, keys, start, end);
      return await cheapest(
        plans.map((plan) => pageRead(r, plan)),
        r,
      );
    },
  });
  if (name === undefined || keys === undefined) return await cheapest([withTable(0)], r);
  // Before the table, the places' streets are at most those of their rarest bitmap.
  const streets = Math.min(...keys.map((n) => r.meta.bitmapStreets[n] ?? count));
  const beside = Math.min(
    recordSteps(name),
    positionSteps(name, streets),
    name.counts === undefined ? Infinity : countedSteps(r, streets, end, name),
  );
  return await cheapest([pageRead(r, bitmapPlan(r, name, keys, start, end)), withTable(beside)], r);
}

/**
 * A plan that reads its page's record and head chunks itself (edge/search.ts reads those it did
 * not): a page whose streets lie all over the street order (a bitmap's) may not fit what is left of
 * the budget, and then the next plan runs instead of the request being refused after the search.
 */
function pageRead(r: Reader, plan: Plan<Found>): Plan<Found> {
  return {
    ...plan,
    run: async () => {
      const found = await plan.run();
      await r.need(leaf.pageFiles(r.meta, found));
      return found;
    },
  };
}

/** The bitmap files of place filters, when every one has an exact bitmap (bitmaps.ts placeFilterKey). */
function placeBitmaps(
  r: Reader,
  filters: readonly (StreetFilter | undefined)[],
): number[] | undefined {
  const localities = r.kept("locality characters", 0, () =>
    Array.from(r.meta.columns.locality.characters),
  );
  const numbers = filters.flatMap((f) => {
    const key = f === undefined ? "" : placeFilterKey(f, localities);
    return key === "" ? [] : [key === undefined ? -1 : (leaf.bitmapNumber(r, key) ?? -1)];
  });
  return numbers.length === 0 || numbers.includes(-1) ? undefined : numbers;
}

/** A name alone: its runs read and tested, or its one exact list read from the first block as far as the page. */
function namePlans(r: Reader, name: NameSide, start: number, end: number): Plan<Found>[] {
  const whole: Plan<Found> = {
    steps: nameSteps(name),
    files: () => leaf.listFiles(r.meta, name.refs),
    run: async () => runStreets(readRuns(r, name), new Page(start, end)),
  };
  const [ref] = name.refs;
  if (!name.exact || ref === undefined || name.refs.length > 1) return [whole];
  const perBlock = (BLOCK_ENTRIES * name.streets) / Math.max(1, name.runs);
  const lazy: Plan<Found> = {
    steps: Math.min(name.runs, Math.ceil(end / perBlock) * BLOCK_ENTRIES) * COST.entry,
    files: () => leaf.blockFiles(r.meta, ref, 0, Math.ceil(end / perBlock)),
    run: async () => {
      const page = new Page(start, end);
      // Blocks from the first, as many at a time as the page is expected to need.
      for (let block = 0, seen = 0; block < ref.length - 2 && seen < end;) {
        const next = Math.min(
          ref.length - 2,
          block + Math.max(1, Math.ceil((end - seen) / perBlock)),
        );
        await r.need(leaf.blockFiles(r.meta, ref, block, next));
        const bytes = leaf.blockBytes(r, ref, block, next);
        seen = runStreetsOf(bytes, seen, start, end, page.positions, page.heads);
        block = next;
      }
      return page.found(name.streets, false);
    },
  };
  return [whole, lazy];
}
