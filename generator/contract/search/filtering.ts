/**
 * `/Streets` filters as algebra on lists. A name filter is a set of runs (a run: the streets of
 * one head, neighbours in the order): the intersection of its trigrams' run lists (algebra.ts),
 * then each surviving run's name checked once (a literal is longer than its trigrams, and `~*`
 * is finer than the folded trigram keys). A postal code or locality filter is a set of places,
 * each distinct value matched once. What a request costs is known from the lists' and places'
 * sizes before any list is read (FilterPlan), so the Worker takes the cheaper side.
 */
import { intersect } from "./algebra.ts";
import { filterMatches, literalText, type StreetFilter } from "./filter.ts";
import { postalCodeRange, type PlaceRange } from "./filter-places.ts";
import type { PlaceTable } from "./meta.ts";
import { localityCandidates } from "./place-candidates.ts";
import { lowerBound, type Postings } from "./postings.ts";

/** Runs of streets that pass a name filter, in order. */
export interface Runs {
  readonly starts: Int32Array;
  readonly lengths: Int32Array;
  /** Each run's head (every run's at once: `head` decodes only the one asked for). */
  readonly heads: readonly (readonly string[])[];
  /** Run r's head. */
  head(r: number): readonly string[];
  /** Streets in all runs. */
  readonly streets: number;
}

/** Runs that are a whole decoded list (every run of it passes): columns shared, heads decoded when asked for. */
class ListRuns implements Runs {
  readonly streets: number;
  constructor(private readonly list: Postings) {
    let streets = 0;
    for (let i = 0; i < list.length; i++) streets += list.seconds[i] as number;
    this.streets = streets;
  }
  get starts(): Int32Array {
    return this.list.positions;
  }
  get lengths(): Int32Array {
    return this.list.seconds;
  }
  get heads(): readonly (readonly string[])[] {
    return Array.from({ length: this.list.length }, (_, r) => this.head(r));
  }
  head(r: number): readonly string[] {
    return this.list.entry(r).head;
  }
}

/**
 * The runs whose name passes the filter, out of its trigrams' run lists (each holds every passing
 * run). `exact`: the one list holds only passing runs (the list of the literal itself, when
 * foldIsExact), so no run is tested and no head decoded but a page's. `onPass` sees each passing
 * run as it is found (it may throw to stop, e.g. once the runs' record chunks exceed a budget).
 * `keep`: a test of a run's range before its name's (a run it refuses is left out untested).
 */
export function passingRuns(
  filter: StreetFilter,
  lists: readonly Postings[],
  exact = false,
  onPass?: (start: number, length: number) => void,
  keep?: (start: number, length: number) => boolean,
): Runs {
  if (exact && lists.length === 1) {
    const runs = new ListRuns(lists[0] as Postings);
    if (onPass !== undefined)
      for (let r = 0; r < runs.starts.length; r++)
        onPass(runs.starts[r] as number, runs.lengths[r] as number);
    return runs;
  }
  const [smallest, ...others] = [...lists].sort((a, b) => a.length - b.length);
  if (smallest === undefined) return runsOf([], [], [], 0);
  const common = others.reduce((set, list) => intersect(set, list.positions), smallest.positions);
  // Most entries tested: their blocks' head tables decoded whole at once, not head by head.
  if (common.length * 2 >= smallest.length) smallest.decodeHeads();
  const { positions, seconds } = smallest;
  const own = ownText(filter);
  const picks = new Int32Array(common.length);
  const starts = new Int32Array(common.length);
  const lengths = new Int32Array(common.length);
  let [passed, streets] = [0, 0];
  for (let i = 0, at = 0; i < common.length; i++) {
    // One list: its entries are the candidates themselves.
    at = others.length === 0 ? i : lowerBound(positions, common[i] as number, at);
    const start = positions[at] as number;
    const length = seconds[at] as number;
    if (keep !== undefined && !keep(start, length)) continue;
    const head = smallest.entry(at).head;
    const name = head[head.length - 1] ?? "";
    if (!(own !== undefined && name.includes(own)) && !filterMatches(filter, name)) continue;
    onPass?.(start, length);
    picks[passed] = at;
    starts[passed] = start;
    lengths[passed] = length;
    passed++;
    streets += length;
  }
  return new PickedRuns(
    smallest,
    picks.subarray(0, passed),
    starts.subarray(0, passed),
    lengths.subarray(0, passed),
    streets,
  );
}

/**
 * The literal of an unanchored plain filter whose every character `~*` (or `~`) accepts as itself:
 * a name that holds this text passes, found by the engine's string search before the filter's own
 * test (which a name of another case still takes).
 */
function ownText(filter: StreetFilter): string | undefined {
  if (filter.pattern !== undefined || filter.anchoredStart || filter.anchoredEnd) return undefined;
  const { literal, accepts } = filter;
  for (let k = 0; k < literal.length; k++)
    if (literal[k] !== accepts[2 * k] && literal[k] !== accepts[2 * k + 1]) return undefined;
  return literal.length === 0 ? undefined : literalText(literal);
}

/** Runs picked out of a decoded list (entries `picks`): heads decoded when asked for. */
class PickedRuns implements Runs {
  constructor(
    private readonly list: Postings,
    private readonly picks: Int32Array,
    readonly starts: Int32Array,
    readonly lengths: Int32Array,
    readonly streets: number,
  ) {}
  get heads(): readonly (readonly string[])[] {
    return Array.from(this.picks, (_, r) => this.head(r));
  }
  head(r: number): readonly string[] {
    const at = this.picks[r];
    return at === undefined ? [] : this.list.entry(at).head;
  }
}

export const runsOf = (
  starts: readonly number[],
  lengths: readonly number[],
  heads: readonly (readonly string[])[],
  streets: number,
): Runs => ({
  starts: Int32Array.from(starts),
  lengths: Int32Array.from(lengths),
  heads,
  head: (r) => heads[r] ?? [],
  streets,
});

/**
 * The positions of each list whose name passes the filter, each distinct name tested once. Every
 * entry's head is asked for, so the lists' head tables are decoded whole first.
 */
export function passingEntries(filter: StreetFilter, lists: readonly Postings[]): Int32Array[] {
  const byName = new Map<string, boolean>();
  return lists.map((list) => {
    list.decodeHeads();
    // Per head of the list: 0 not yet seen, 1 passes, 2 does not (entries of one head share it).
    const verdicts = new Uint8Array(list.headRefEnd);
    const kept = new Int32Array(list.length);
    let n = 0;
    for (let i = 0; i < list.length; i++) {
      const ref = list.headRef(i);
      let verdict = verdicts[ref];
      if (verdict === 0) {
        const head = list.headOf(ref);
        const name = head[head.length - 1] ?? "";
        let passed = byName.get(name);
        if (passed === undefined) byName.set(name, (passed = filterMatches(filter, name)));
        verdicts[ref] = verdict = passed ? 1 : 2;
      }
      if (verdict === 1) kept[n++] = list.positions[i] as number;
    }
    return kept.subarray(0, n);
  });
}

/** Streets [start, end) of the runs: their positions and heads. */
export function runStreets(
  runs: Runs,
  start: number,
  end: number,
): { readonly positions: number[]; readonly heads: (readonly string[])[] } {
  const positions: number[] = [];
  const heads: (readonly string[])[] = [];
  for (let r = 0, at = 0; r < runs.starts.length && at < end; r++) {
    const length = runs.lengths[r] as number;
    for (let k = Math.max(0, start - at); k < Math.min(length, end - at); k++) {
      positions.push((runs.starts[r] as number) + k);
      heads.push(runs.head(r));
    }
    at += length;
  }
  return { positions, heads };
}

/** Every street of the runs, in order. */
export function allRunStreets(runs: Runs): Int32Array {
  const out = new Int32Array(runs.streets);
  for (let r = 0, n = 0; r < runs.starts.length; r++)
    for (let k = 0; k < (runs.lengths[r] as number); k++) out[n++] = (runs.starts[r] as number) + k;
  return out;
}

/** The run that holds a street, or -1. */
export function runOf(runs: Runs, position: number): number {
  const r = lowerBound(runs.starts, position + 1) - 1;
  return r >= 0 && position < (runs.starts[r] as number) + (runs.lengths[r] as number) ? r : -1;
}

/** The places a request's place filters pass (one flag per place), their streets, and their range when known. */
export interface PlacePass {
  readonly pass: Uint8Array;
  readonly streets: number;
  readonly range?: PlaceRange;
}

/**
 * The places that pass the postal code and locality filters (each distinct value matched once),
 * and their streets. `localityCharacters` (the localities' characters, from the meta): a locality
 * pattern is then tested only on the localities that hold its literals (place-candidates.ts).
 */
export function passingPlaces(
  filters: {
    readonly postalCode?: StreetFilter | undefined;
    readonly locality?: StreetFilter | undefined;
  },
  places: PlaceTable,
  localityCharacters?: string,
): PlacePass {
  const range =
    filters.locality === undefined ? postalCodeRange(filters.postalCode, places) : undefined;
  if (range !== undefined) {
    // A postal-code prefix alone: its places are a range (filter-places.ts).
    const pass = new Uint8Array(places.size).fill(1, range.from, range.to);
    let streets = 0;
    for (let p = range.from; p < range.to; p++) streets += places.counts[p] ?? 0;
    return { pass, streets, range };
  }
  // Each column only when filtered by: the place table builds its strings on first use.
  const codes = filters.postalCode && passingValues(filters.postalCode, places.postalCodes);
  const localities =
    filters.locality && passingLocalities(filters.locality, places, localityCharacters);
  // The columns read once, not through the table object for each of the ~20,000 places.
  const { size, postalCodeOf, localityOf, counts } = places;
  const pass = new Uint8Array(size);
  let streets = 0;
  for (let p = 0; p < size; p++) {
    if (
      (codes !== undefined && codes[postalCodeOf[p] as number] !== 1) ||
      (localities !== undefined && localities[localityOf[p] as number] !== 1)
    )
      continue;
    pass[p] = 1;
    streets += counts[p] as number;
  }
  return { pass, streets };
}

function passingValues(filter: StreetFilter, values: readonly string[]): Uint8Array {
  const pass = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++)
    if (filterMatches(filter, values[i] as string)) pass[i] = 1;
  return pass;
}

/** Per distinct locality, 1 when it passes: a pattern tested only on its candidates, by number. */
function passingLocalities(
  filter: StreetFilter,
  places: PlaceTable,
  characters: string | undefined,
): Uint8Array {
  const candidates =
    characters === undefined
      ? undefined
      : localityCandidates(filter, places.localityText, characters);
  if (candidates === undefined) return passingValues(filter, places.localities);
  for (let i = 0; i < candidates.length; i++)
    if (candidates[i] === 1 && !filterMatches(filter, places.locality(i))) candidates[i] = 0;
  return candidates;
}
