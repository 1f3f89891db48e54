/**
 * A `/Streets` name filter that is a regular expression, planned on the n-gram lists before any
 * list is read (Russ Cox, "Regular Expression Matching with a Trigram Index"; Google Code Search):
 * the literals every match must contain (regex/literals.ts, case-folded as the index's keys) become
 * an and/or tree over the 1-, 2- and 3-gram run lists (store.ts literalKeys). Of an `and` the list
 * with the fewest runs is read, of an `or` every branch's, so the lists read hold every run whose
 * name can match; each candidate run's name is then tested by the engine, once per name.
 *
 * What a pattern would cost is known from the trigram shards (each list's run count) and the place
 * table: a pattern whose candidates (the runs read, or the streets of the places its postal code
 * and locality filters leave, whichever is smaller) exceed MAX_PATTERN_CANDIDATES is refused with
 * PatternTooBroad before any list is read. Without usable n-grams (`.*`, `[a-z]+`) the candidates
 * are every run of the country.
 */
import type { ListTree } from "./algebra.ts";
import { literalQuery, type LiteralQuery } from "../regex/literals.ts";
import { caseFoldKey, filterMatches, type StreetFilter } from "./filter.ts";
import { runsOf, type Runs } from "./filtering.ts";
import type { Postings } from "./postings.ts";
import { EVERY_NAME, literalKeys, listCount, type ListRef } from "./store.ts";
import type { StreetFilters } from "./evaluate.ts";
import type { SearchMeta } from "./meta.ts";
import { matchesEvery } from "../regex/universal.ts";

/**
 * Most candidates a pattern may leave for the engine (names of runs, or streets of places): each
 * costs an engine test, whose first states are built on the request's own CPU.
 */
export const MAX_PATTERN_CANDIDATES = 4000;

/** A pattern that would leave the engine more than MAX_PATTERN_CANDIDATES candidates. */
export class PatternTooBroad extends Error {
  constructor(
    readonly parameter: string,
    readonly candidates: number,
  ) {
    super(
      `The value of ${parameter} matches too many street names to be checked: its letters in a row ` +
        `narrow it to ${candidates} candidates, at most ${MAX_PATTERN_CANDIDATES} are checked. To narrow it, ` +
        `give it three or more letters in a row that every match contains (e.g. 'Schützenstr\\.' rather than ` +
        `'Sch.*str'), or add postalCode or locality.`,
    );
    this.name = "PatternTooBroad";
  }
}

/**
 * The filters without the patterns that match every value of their column (regex/universal.ts,
 * from the shapes in the index's meta): `postalCode=[0-9]{5}` filters nothing and is answered as
 * if it were not given. None left: every street matches.
 */
export function withoutUniversal(filters: StreetFilters, meta: SearchMeta): StreetFilters {
  const kept: { -readonly [K in keyof StreetFilters]: StreetFilters[K] } = {};
  for (const parameter of ["name", "postalCode", "locality"] as const) {
    const filter = filters[parameter];
    const tree = filter?.pattern?.tree;
    const shape =
      parameter === "name"
        ? { ...meta.columns.name, characters: meta.nameCharacters }
        : meta.columns[parameter];
    if (tree !== undefined && matchesEvery(tree, shape)) continue;
    // `^` or `$` alone is plain text: the empty literal, found at the start or end of every value.
    const empty = filter?.pattern === undefined && filter?.literal.length === 0;
    if (empty && !(filter.anchoredStart && filter.anchoredEnd)) continue;
    if (filter !== undefined) kept[parameter] = filter;
  }
  return kept;
}

/** The n-gram keys whose run lists hold every name the pattern can match, as an and/or tree. */
export function gramTree(filter: StreetFilter): ListTree<string> {
  const tree = filter.pattern?.tree;
  if (tree === undefined) throw new Error("gramTree needs a regular-expression filter");
  return fromLiterals(literalQuery(tree, caseFoldKey));
}

function fromLiterals(query: LiteralQuery): ListTree<string> {
  switch (query.op) {
    case "all":
      return { op: "list", list: EVERY_NAME };
    case "literal": {
      const keys = literalKeys(query.text);
      return keys.length === 1
        ? { op: "list", list: keys[0] ?? EVERY_NAME }
        : { op: "and", operands: keys.map((list) => ({ op: "list", list })) };
    }
    case "and":
    case "or":
      return { op: query.op, operands: query.of.map(fromLiterals) };
  }
}

/** The keys of a tree's lists. */
export function treeKeys(tree: ListTree<string>): string[] {
  if (tree.op === "list") return [tree.list];
  if (tree.op === "not") return treeKeys(tree.operand);
  return [...new Set(tree.operands.flatMap(treeKeys))];
}

/** A key's list as the trigram shards give it: [streets, ref], or undefined when no name has the n-gram. */
export type FoundList = readonly [number, ListRef] | undefined;

/** The lists a pattern reads: together they hold every run whose name can match. */
export interface Cover {
  readonly refs: readonly ListRef[];
  /** Runs in the lists, counted with repetition (an upper bound of the candidates). */
  readonly runs: number;
  /** Streets in those runs, counted likewise. */
  readonly streets: number;
}

const NONE: Cover = { refs: [], runs: 0, streets: 0 };

/** The cheapest cover of a tree, from its lists' sizes alone: the fewest runs of an `and`'s operands, every branch of an `or`. */
export function cheapestCover(tree: ListTree<string>, lookup: (key: string) => FoundList): Cover {
  switch (tree.op) {
    case "list": {
      const found = lookup(tree.list);
      return found === undefined
        ? NONE
        : { refs: [found[1]], runs: listCount(found[1]), streets: found[0] };
    }
    case "not":
      throw new Error("a pattern's tree has no negation");
    case "and": {
      let best: Cover | undefined;
      for (const operand of tree.operands) {
        const cover = cheapestCover(operand, lookup);
        if (cover.refs.length === 0) return NONE;
        if (best === undefined || cover.runs < best.runs) best = cover;
      }
      return best ?? NONE;
    }
    case "or": {
      const seen = new Map<number, ListRef>();
      let runs = 0;
      let streets = 0;
      for (const operand of tree.operands) {
        const cover = cheapestCover(operand, lookup);
        for (const ref of cover.refs) {
          if (seen.has(ref[1] ?? 0)) continue;
          seen.set(ref[1] ?? 0, ref);
          runs += listCount(ref);
        }
        streets += cover.streets;
      }
      return { refs: [...seen.values()], runs, streets };
    }
  }
}

/**
 * Refuses a pattern whose candidates exceed MAX_PATTERN_CANDIDATES, counted on the side the search
 * reads (search-filters.ts): the streets of the places the other filters leave (`placeStreets`,
 * Infinity without them) when they are no more than the cover's, else the cover's runs. A plain
 * name filter is never refused here.
 */
export function refuseBroadPattern(filter: StreetFilter, cover: Cover, placeStreets: number): void {
  if (filter.pattern === undefined) return;
  const candidates = placeStreets <= cover.streets ? placeStreets : cover.runs;
  if (candidates > MAX_PATTERN_CANDIDATES) throw new PatternTooBroad(filter.parameter, candidates);
}

/** The runs of the lists (united: a run can be in several) whose name passes the filter, in order. */
export function unitedPassingRuns(
  filter: StreetFilter,
  lists: readonly Postings[],
  onPass?: (start: number, length: number) => void,
): Runs {
  const entries: [position: number, list: number, index: number][] = [];
  lists.forEach((list, l) => {
    for (let i = 0; i < list.length; i++) entries.push([list.positions[i] ?? 0, l, i]);
  });
  entries.sort((a, b) => a[0] - b[0]);
  const starts: number[] = [];
  const lengths: number[] = [];
  const heads: (readonly string[])[] = [];
  const byName = new Map<string, boolean>();
  let streets = 0;
  let last = -1;
  for (const [position, l, i] of entries) {
    if (position === last) continue;
    last = position;
    const run = (lists[l] as Postings).entry(i);
    const name = run.head[run.head.length - 1] ?? "";
    let passed = byName.get(name);
    if (passed === undefined) byName.set(name, (passed = filterMatches(filter, name)));
    if (!passed) continue;
    onPass?.(run.position, run.place);
    starts.push(run.position);
    lengths.push(run.place);
    heads.push(run.head);
    streets += run.place;
  }
  return runsOf(starts, lengths, heads, streets);
}
