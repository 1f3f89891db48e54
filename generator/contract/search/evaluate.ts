/**
 * How the Worker answers a search from the index (store.ts): pick the lists whose union holds
 * every match (the drivers, as few entries as possible), read them, and keep the entries that
 * match exactly, checked with the same semantics as everywhere else (`matches`, `filterMatches`).
 * Pure: the Worker fetches what these functions ask for.
 */
import { caseFoldKey, filterMatches, type StreetFilter } from "./filter.ts";
import { lexemesOf, streetLexemes, type DocumentLexemes } from "./lexize.ts";
import { placeList, placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";
import { matches, type LexemeMatch, type SearchNode, type SearchQuery } from "./query.ts";
import { EVERY_NAME, listCount, trigramsOf, type ListEntry, type ListRef } from "./store.ts";

/** Lists whose union holds every match, and how many entries they hold. */
export interface Drivers {
  readonly refs: readonly ListRef[];
  readonly cost: number;
}

/** The lists of one query term: one lexeme's, or every lexeme's that starts with a prefix. */
export type TermLists = (term: LexemeMatch) => readonly ListRef[];

const cheaper = (a: Drivers | null, b: Drivers | null): Drivers | null => (a === null ? b : b === null ? a : b.cost < a.cost ? b : a);

/**
 * The cheapest drivers of a query tree: a match must contain a lexeme of every `and` operand and
 * of every phrase term, and one of either side of an `or`; a `not` requires nothing. Null: the
 * query requires no lexeme (`-berlin`), so every street is a candidate.
 */
export function queryDrivers(node: SearchNode, lists: TermLists): Drivers | null {
  switch (node.op) {
    case "lexeme":
      return termDrivers(node, lists);
    case "phrase":
      return node.terms.reduce<Drivers | null>((best, term) => cheaper(best, termDrivers(term, lists)), null);
    case "not":
      return null;
    case "and":
      return cheaper(queryDrivers(node.left, lists), queryDrivers(node.right, lists));
    case "or": {
      const [left, right] = [queryDrivers(node.left, lists), queryDrivers(node.right, lists)];
      return left === null || right === null ? null : { refs: [...left.refs, ...right.refs], cost: left.cost + right.cost };
    }
  }
}

function termDrivers(term: LexemeMatch, lists: TermLists): Drivers {
  const refs = lists(term);
  return { refs, cost: refs.reduce((sum, ref) => sum + listCount(ref), 0) };
}

/** A one-lexeme query needs no check: its list is the answer. */
export function isSingleList(query: SearchQuery): boolean {
  return query.root?.op === "lexeme" && !query.root.prefix;
}

/** Nor does a lone prefix (search as you type, one word): its lexemes' lists merged are the answer. */
export function isLonePrefix(query: SearchQuery): boolean {
  return query.root?.op === "lexeme" && query.root.prefix;
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

/**
 * The entries that match a full-text query, in order. Without phrases only which lexemes a street
 * has matters, not where: its name's and its place's lexemes, each worked out once per isolate,
 * are looked up side by side. With phrases, positions count: each street's document is lexized.
 */
export function matchingEntries(query: SearchQuery, entries: readonly ListEntry[], places: PlaceTable): ListEntry[] {
  const positional = query.root !== null && hasPhrase(query.root);
  const union = new LexemeUnion();
  return entries.filter((entry) => {
    if (entry.place >= places.size) return false;
    const name = nameOf(entry);
    if (positional || name.includes("<")) return matches(query, streetLexemes(name, placePostalCode(places, entry.place), placeLocality(places, entry.place)));
    union.of(nameLexemes(name), placeLexemes(places, entry.place));
    return matches(query, union as unknown as DocumentLexemes);
  });
}

const hasPhrase = (node: SearchNode): boolean =>
  node.op === "phrase" || (node.op === "not" ? hasPhrase(node.operand) : node.op === "and" || node.op === "or" ? hasPhrase(node.left) || hasPhrase(node.right) : false);

/** A document's lexemes, to look up and to list. */
interface Lexemes {
  readonly set: ReadonlySet<string>;
  readonly list: readonly string[];
}
const lexemesFrom = (text: string): Lexemes => {
  const list = [...lexemesOf(text).keys()];
  return { set: new Set(list), list };
};

/** The lexemes of two documents as one, for `matches` without phrases (which asks only `has` and `keys`). */
class LexemeUnion {
  private first: Lexemes = { set: new Set(), list: [] };
  private second: Lexemes = { set: new Set(), list: [] };
  of(first: Lexemes, second: Lexemes): void {
    this.first = first;
    this.second = second;
  }
  has(lexeme: string): boolean {
    return this.first.set.has(lexeme) || this.second.set.has(lexeme);
  }
  keys(): readonly string[] {
    return this.first.list.concat(this.second.list);
  }
}

/** Lexemes per name and per place, kept per isolate (names repeat across queries; at most NAMES_KEPT). */
const NAMES_KEPT = 100_000;
const byName = new Map<string, Lexemes>();
function nameLexemes(name: string): Lexemes {
  let lexemes = byName.get(name);
  if (lexemes === undefined) {
    if (byName.size >= NAMES_KEPT) byName.clear();
    byName.set(name, (lexemes = lexemesFrom(name)));
  }
  return lexemes;
}
const byPlace = new WeakMap<PlaceTable, (Lexemes | undefined)[]>();
function placeLexemes(places: PlaceTable, id: number): Lexemes {
  let cache = byPlace.get(places);
  if (cache === undefined) byPlace.set(places, (cache = []));
  return (cache[id] ??= lexemesFrom(` ${placePostalCode(places, id)} ${placeLocality(places, id)}`));
}

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
