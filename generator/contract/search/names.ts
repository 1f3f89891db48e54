/**
 * A `/Streets` name as a leaf (docs/SEARCH.md, "Combinators and plans"): the n-gram lists whose
 * runs (a run: one name's streets) hold every name that can pass, and its name check, once per run.
 */
import { literalQuery, type LiteralQuery } from "../regex/literals.ts";
import {
  caseFoldKey,
  filterMatches,
  foldIsExact,
  literalText,
  type StreetFilter,
} from "./filter.ts";
import { codePoints, list, listFiles, shardFiles, shardOf } from "./leaves.ts";
import { COST, type Reader } from "./plan.ts";
import type { Postings } from "./postings.ts";
import type { Listed } from "./shards.ts";
import { EVERY_NAME, literalKeys, listCount, NAME_END, NAME_START, type ListRef } from "./store.ts";
import { gallop, intersect, unite } from "./kernels.ts";

/** The lists a name reads: their runs (an upper bound of the candidates) and streets (likewise). */
interface Cover {
  readonly refs: readonly ListRef[];
  readonly runs: number;
  readonly streets: number;
}

/**
 * A name's side: its lists, intersected (`and`: a literal's rarest n-grams) or united (a pattern's
 * branches); `exact`: every run of its one list passes, no name is tested; `counts`: its per-place
 * counts file (gram-counts.ts), when exact; `test`: steps per distinct name tested.
 */
export interface NameSide extends Cover {
  readonly filter: StreetFilter;
  readonly and: boolean;
  readonly exact: boolean;
  readonly counts: number | undefined;
  readonly test: number;
}

/** Most candidates a pattern may leave for the engine (docs/SEARCH.md, "Thresholds"). */
const MAX_PATTERN_CANDIDATES = 4000;

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
 * Refuses a pattern whose candidates exceed MAX_PATTERN_CANDIDATES, counted on the side a search
 * would read: the streets of the places the other filters leave (Infinity without them) when they
 * are no more than the cover's, else the cover's runs. A literal is never refused here.
 */
export function refuseBroadPattern(name: NameSide, placeStreets: number): void {
  if (name.filter.pattern === undefined) return;
  const candidates = placeStreets <= name.streets ? placeStreets : name.runs;
  if (candidates > MAX_PATTERN_CANDIDATES)
    throw new PatternTooBroad(name.filter.parameter, candidates);
}

/** The name's side, from the n-gram shards (charged and read here): no list is read yet. */
export async function nameSide(r: Reader, filter: StreetFilter): Promise<NameSide> {
  const side = { filter, and: true, exact: false, counts: undefined, test: COST.name };
  if (filter.pattern !== undefined) {
    const tree = fromLiterals(literalQuery(filter.pattern.tree, caseFoldKey));
    const found = await lookup(r, treeKeys(tree));
    return { ...side, ...cheapestCover(tree, found), and: false, test: COST.pattern };
  }
  const occurring = codePoints(r, "name characters", r.meta.nameCharacters);
  const text = caseFoldKey(literalText(filter.literal));
  const atStart = filter.anchoredStart && filter.literal.length > 0;
  // Anchored at both ends, the name's start leads.
  const atEnd = !atStart && filter.anchoredEnd && filter.literal.length > 0;
  const key = (atStart ? NAME_START : "") + text + (atEnd ? NAME_END : "");
  // Its lists, their runs and streets, and (exact, not anchored at the start) its per-place counts file.
  const of = (refs: ListRef[], runs: number, streets: number, exact: boolean): NameSide => {
    const n = exact && !atStart ? r.meta.gramCounts.indexOf(key) : -1;
    return { ...side, refs, runs, streets, exact, counts: n < 0 ? undefined : n };
  };
  // Four or more characters, or anchored, may be a list of its own (a common n-gram, a name's start or end).
  if (atStart || atEnd || filter.literal.length >= 4) {
    const own = (await lookup(r, [key])).get(key);
    if (own !== undefined) {
      const exact = foldIsExact(filter, occurring, atStart, atEnd);
      return of([own.ref], listCount(own.ref), own.streets, exact);
    }
    if ((atStart || atEnd) && filter.literal.length <= 2) return of([], 0, 0, true);
  }
  // Its rarest n-gram's runs, intersected with the rarest that does not overlap it when that is at
  // most COST.name times as long: decoding it costs less than testing the names it rules out.
  const keys = literalKeys(key);
  const found = await lookup(r, keys);
  const lists = keys.map((key) => found.get(key));
  if (lists.some((l) => l === undefined)) return of([], 0, 0, true);
  const runs = (i: number) => listCount((lists[i] as Listed).ref);
  const rarest = (ok: (i: number) => boolean) =>
    lists.reduce((best, _, i) => (ok(i) && (best < 0 || runs(i) < runs(best)) ? i : best), -1);
  const at = rarest(() => true);
  const { streets, ref: first } = lists[at] as Listed;
  const second =
    lists[rarest((i) => Math.abs(i - at) >= 3 && runs(i) <= COST.name * runs(at))]?.ref;
  const both = second !== undefined && r.fits(listFiles(r.meta, [first, second]), 0.5);
  const exact = filter.literal.length <= 3 && foldIsExact(filter, occurring);
  return of(both ? [first, second] : [first], runs(at), streets, exact);
}

/** Each key's list and the streets in its runs, from the n-gram shards (charged and read). */
async function lookup(r: Reader, keys: readonly string[]): Promise<Map<string, Listed>> {
  await r.need(shardFiles(r.meta, keys, false));
  const out = new Map<string, Listed>();
  for (const key of keys) {
    const found = shardOf(r, key, false).get(key);
    if (found !== undefined) out.set(key, found);
  }
  return out;
}

/** The n-gram keys whose run lists hold every name a pattern's literals allow, as an and/or tree. */
type GramTree = string | { readonly op: "and" | "or"; readonly of: readonly GramTree[] };

function fromLiterals(query: LiteralQuery): GramTree {
  if (query.op === "all") return EVERY_NAME;
  if (query.op !== "literal") return { op: query.op, of: query.of.map(fromLiterals) };
  const keys = literalKeys(query.text);
  return keys.length === 1 ? (keys[0] as string) : { op: "and", of: keys };
}

const treeKeys = (tree: GramTree): string[] =>
  typeof tree === "string" ? [tree] : [...new Set(tree.of.flatMap(treeKeys))];

const NONE: Cover = { refs: [], runs: 0, streets: 0 };

/** The cheapest cover of a tree, from its lists' sizes alone: the fewest runs of an `and`'s operands, every branch of an `or`. */
function cheapestCover(tree: GramTree, found: ReadonlyMap<string, Listed>): Cover {
  if (typeof tree === "string") {
    const list = found.get(tree);
    return list === undefined
      ? NONE
      : { refs: [list.ref], runs: listCount(list.ref), streets: list.streets };
  }
  const covers = tree.of.map((t) => cheapestCover(t, found));
  if (tree.op === "and")
    return covers.some((c) => c.refs.length === 0)
      ? NONE
      : covers.reduce((a, b) => (b.runs < a.runs ? b : a));
  const refs = new Map(covers.flatMap((c) => c.refs.map((ref) => [ref[1] ?? 0, ref] as const)));
  return {
    refs: [...refs.values()],
    runs: [...refs.values()].reduce((sum, ref) => sum + listCount(ref), 0),
    streets: covers.reduce((sum, c) => sum + c.streets, 0),
  };
}

/** The candidate runs of a name's lists (read), each distinct name tested once when asked: a cursor's lead. */
export class Runs {
  readonly starts: Int32Array;
  readonly lengths: Int32Array;
  /** Per run its list and its entry there (one list: the run's index). */
  private readonly which: Int32Array | undefined;
  private readonly at: Int32Array | undefined;
  private readonly verdicts: Uint8Array;
  private read = false;

  /**
   * `lists`: the name's lists, decoded; `size`: the country's streets; `most`: most runs will be
   * tested, so their lists' head tables are decoded whole at once, not head by head.
   */
  constructor(
    private readonly lists: Postings[],
    private readonly name: Pick<NameSide, "filter" | "and" | "exact">,
    size: number,
    most = false,
  ) {
    lists.sort((x, y) => x.length - y.length);
    const [first, second] = lists as [Postings, Postings?];
    if (most && !name.exact) for (const l of lists) l.decodeHeads();
    if (second === undefined) {
      [this.starts, this.lengths] = [first.positions, first.seconds];
      this.verdicts = new Uint8Array(this.starts.length).fill(name.exact ? 1 : 0);
      return;
    }
    // A run is the same in every n-gram list: of an `and`, the runs at the lists' common starts;
    // of an `or` (a pattern's branches), every list's, each once.
    this.starts = name.and
      ? intersect(first.positions, second.positions)
      : unite(
          lists.map((l) => l.positions),
          size,
        );
    const n = this.starts.length;
    const [which, at, lengths] = [new Int32Array(n), new Int32Array(n), new Int32Array(n)];
    const next = new Int32Array(lists.length);
    for (let i = 0; i < n; i++) {
      const start = this.starts[i] as number;
      // The first list holding the run's start gives its length and head.
      for (let l = 0; ; l++) {
        const { positions, seconds } = lists[l] as Postings;
        const j = (next[l] = gallop(positions, start, next[l]));
        if (positions[j] !== start) continue;
        [which[i], at[i], lengths[i]] = [l, j, seconds[j] as number];
        break;
      }
    }
    [this.lengths, this.which, this.at] = [lengths, which, at];
    this.verdicts = new Uint8Array(n);
  }

  head(i: number): readonly string[] {
    const l = this.lists[this.which?.[i] ?? 0] as Postings;
    return l.headOf(l.headRef(this.at?.[i] ?? i));
  }

  /** Does run i's name pass? A run is one name's streets: each name is tested once. */
  passes(i: number): boolean {
    if (this.verdicts[i] === 0) {
      const head = this.head(i);
      this.verdicts[i] = filterMatches(this.name.filter, head[head.length - 1] ?? "") ? 1 : 2;
    }
    return this.verdicts[i] === 1;
  }

  /** As the cursor's lead (cursor.ts): every run, in one stretch. */
  async next(): Promise<number> {
    const n = this.read ? 0 : this.starts.length;
    this.read = true;
    return n;
  }

  /** The run holding a street (searched from run `from` on), or -1. */
  runOf(position: number, from = 0): number {
    const i = gallop(this.starts, position + 1, from) - 1;
    return i >= 0 && position < (this.starts[i] as number) + (this.lengths[i] as number) ? i : -1;
  }
}

/** The candidate runs of a name's lists, read (their files fetched). */
export const readRuns = (r: Reader, name: NameSide, most = true) =>
  new Runs(
    name.refs.map((ref) => list(r, ref)),
    name,
    r.meta.count,
    most,
  );

/** Steps of reading a name's lists and testing their runs' names (`tested` of them at most). */
export const nameSteps = (name: NameSide, tested = name.runs) =>
  name.runs * COST.entry + (name.exact ? 0 : Math.min(tested, name.runs) * name.test);
