/**
 * How the Worker answers a `/Streets` filter request from the index (store.ts): pick the lists
 * whose union holds every match (the drivers, as few entries as possible), read them, and keep
 * the entries that match exactly (`filterMatches`). Full-text queries: fulltext.ts.
 * Pure: the Worker fetches what these functions ask for.
 */
import { caseFoldKey, filterMatches, type StreetFilter } from "./filter.ts";
import { placeList, type PlaceTable } from "./meta.ts";
import type { SearchQuery } from "./query.ts";
import { EVERY_NAME, trigramsOf, type ListEntry, type ListRef } from "./store.ts";

/** Lists whose union holds every match, and how many entries they hold. */
export interface Drivers {
  readonly refs: readonly ListRef[];
  readonly cost: number;
}

/** A one-lexeme query needs no check: its list is the answer. */
export function isSingleList(query: SearchQuery): boolean {
  return query.root?.op === "lexeme" && !query.root.prefix;
}

/** Merges lists (each in position order) into one, without repeats. */
export function mergeLists(lists: readonly (readonly ListEntry[])[]): readonly ListEntry[] {
  // (A list may be kept decoded by the Worker: never modified here.)
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 1) return nonEmpty[0] ?? [];
  const all = nonEmpty.flat();
  // Sorted as numbers (position, then index: exact below 2^53), without a comparator: a prefix's lists can hold tens of thousands.
  const scale = 2 ** Math.ceil(Math.log2(all.length + 1));
  const keys = Float64Array.from(all, (entry, i) => entry.position * scale + i).sort();
  const merged: ListEntry[] = [];
  let last = -1;
  for (const key of keys) {
    const entry = all[key % scale] as ListEntry;
    if (entry.position !== last) merged.push(entry);
    last = entry.position;
  }
  return merged;
}

/** Where a street's name is among its head values. */
export const nameOf = (entry: ListEntry) => entry.head[entry.head.length - 1] ?? "";

/** The parsed `/Streets` filters of one request (at least one). */
export interface StreetFilters {
  readonly name?: StreetFilter;
  readonly postalCode?: StreetFilter;
  readonly locality?: StreetFilter;
}

/**
 * Which places pass the postal code and locality filters: each distinct postal code and locality
 * is matched once, not once per place.
 */
export function placesPassing(filters: StreetFilters, places: PlaceTable): (place: number) => boolean {
  const passing = (filter: StreetFilter | undefined, values: readonly string[]) => {
    if (filter === undefined) return undefined;
    const pass = new Uint8Array(values.length);
    for (let i = 0; i < values.length; i++) if (filterMatches(filter, values[i] as string)) pass[i] = 1;
    return pass;
  };
  const codes = passing(filters.postalCode, places.postalCodes);
  const localities = passing(filters.locality, places.localities);
  return (place) => place < places.size && (codes === undefined || codes[places.postalCodeOf[place] ?? 0] === 1) && (localities === undefined || localities[places.localityOf[place] ?? 0] === 1);
}

/** The trigrams a name filter's literal must contain; EVERY_NAME (every run) when it is shorter than three characters. */
export function filterTrigrams(filter: StreetFilter): string[] {
  const trigrams = trigramsOf(caseFoldKey(String.fromCodePoint(...filter.literal)));
  return trigrams.length > 0 ? trigrams : [EVERY_NAME];
}

/** What a filter request reads: the lists of places, or one trigram's list of name runs. */
export type FilterDrivers = (Drivers & { readonly kind: "places" }) | (Drivers & { readonly kind: "runs" });

/**
 * The cheapest drivers of a filter request: the lists of the places that pass the postal code and
 * locality filters, or the runs of the name's rarest trigram (of a name of one or two characters:
 * every run); null when there is no filter.
 */
export function filterDrivers(filters: StreetFilters, places: PlaceTable | undefined, trigramLists: readonly (readonly [number, ListRef] | undefined)[]): FilterDrivers | null {
  let best: FilterDrivers | null = null;
  if (places !== undefined && (filters.postalCode !== undefined || filters.locality !== undefined)) {
    const pass = placesPassing(filters, places);
    const refs: ListRef[] = [];
    let cost = 0;
    for (let place = 0; place < places.size; place++) {
      if (!pass(place)) continue;
      refs.push(placeList(places, place));
      cost += places.counts[place] ?? 0;
    }
    best = { kind: "places", refs, cost };
  }
  for (const trigram of trigramLists) {
    const [cost, ref] = trigram ?? [0, undefined];
    if (best === null || cost < best.cost) best = { kind: "runs", refs: ref === undefined ? [] : [ref], cost };
  }
  return best;
}

/** The runs (trigram list entries: first position, length, head) whose name passes the name filter. */
export function matchingRuns(filters: StreetFilters, runs: readonly ListEntry[]): ListEntry[] {
  return filters.name === undefined ? [...runs] : runs.filter((run) => filterMatches(filters.name as StreetFilter, nameOf(run)));
}

/** Streets [start, end) of runs, in order: their positions and heads (a run's length is its entry's `place`). */
export function streetsOfRuns(runs: readonly ListEntry[], start = 0, end = Infinity): { readonly positions: number[]; readonly heads: (readonly string[])[] } {
  const positions: number[] = [];
  const heads: (readonly string[])[] = [];
  let at = 0;
  for (const run of runs) {
    if (at >= end) break;
    const from = Math.max(0, start - at);
    const to = Math.min(run.place, end - at);
    for (let k = from; k < to; k++) {
      positions.push(run.position + k);
      heads.push(run.head);
    }
    at += run.place;
  }
  return { positions, heads };
}

/** The entries that pass every filter, in order. */
export function filteredEntries(filters: StreetFilters, entries: readonly ListEntry[], places: PlaceTable): ListEntry[] {
  const pass = placesPassing(filters, places);
  return entries.filter((entry) => pass(entry.place) && (filters.name === undefined || filterMatches(filters.name, nameOf(entry))));
}
