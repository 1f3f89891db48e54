/**
 * How a search is evaluated (docs/SEARCH.md, "The planner"): every way to answer a request is a
 * Plan, whose cost is counted in one unit (steps, COST) and whose first files are known from the
 * index's metadata before anything is read; the planner runs the cheapest plan whose files fit the
 * read budget, and the next when one meets the budget later (its reads stay charged). A request is
 * refused (SearchTooBroad) only when every plan would exceed the budget.
 *
 * Plans are built from a few parts: leaves (leaves.ts: a posting list, a bitmap, the streets of
 * the places that pass a place filter, every street), checks (a test per candidate: a name, a
 * place, a document) and three combinators (and, or, and-not), all on the typed-array kernels of
 * kernels.ts. An `and` leads with the side that leaves the fewest candidates and verifies the
 * others, each by its check or by reading it and intersecting, whichever costs fewer steps.
 */
import type { SearchMeta } from "./meta.ts";

/**
 * Bytes of index one search may read by default (`build --search-read-budget` sets another):
 * every file it reads (meta, places, shards, lists, record and head tables, bitmaps, counts,
 * tails) is charged once, whole, whether or not the isolate holds it already, so an answer never
 * depends on what was read before, and the charge is what a new isolate would fetch for it. It
 * bounds a request's CPU and memory on the edge (a free plan allows 10 ms of CPU, an isolate 128
 * MB): without it `name=a` or `-berlin` decoded every street of the country.
 */
export const SEARCH_READ_BUDGET = 1024 * 1024;

/**
 * Estimated steps (the cost unit, COST) one plan may take: a plan over it is not run, as a plan
 * whose files exceed the read budget is not, so a request every plan of which exceeds either
 * budget is refused (SearchTooBroad). It bounds a request's CPU where the read budget does not:
 * a request can read little and decode much (a big city's streets tested against a common word,
 * page after page). Calibrated from warm CPU per step on the national build (docs/SEARCH.md,
 * "Thresholds"; `npm run bench:steps` prints both).
 */
export const SEARCH_STEP_BUDGET = 600_000;

/** The estimated steps of the plans a request ran, outermost first (bench/search-steps.ts reads them). */
export const planTrace: { steps: number[] } = { steps: [] };

/** Every plan of a search would read more of the index than its read budget. */
export class SearchTooBroad extends Error {
  constructor(readonly needed: number) {
    super(`the search would read ${needed} bytes of the index`);
    this.name = "SearchTooBroad";
  }
}

/** Files a plan reads, by path, with their bytes: each is charged once to a request, whole. */
export type Files = Map<string, number>;

/** The index as a plan reads it (edge/search-index.ts). */
export interface Reader {
  readonly meta: SearchMeta;
  /** Charges files (each once per request), then fetches those not kept; SearchTooBroad past the budget. */
  need(files: Files): Promise<void>;
  /** Would these files (those not charged yet) fit what is left of the budget, a `reserve` share of it kept? */
  fits(files: Files, reserve?: number): boolean;
  /** A file `need` has charged and fetched. */
  bytes(path: string): Uint8Array;
  /** A value made from fetched files, kept per isolate under `key` (about `bytes` of memory). */
  kept<T>(key: number | string, bytes: number, make: () => T): T;
  /** A fetched file decoded by `make`, kept as long as the isolate keeps the file. */
  decoded<T>(path: string, make: (bytes: Uint8Array) => T): T;
}

/**
 * The cost unit: one step is one list entry decoded (three varints). The other prices are in
 * steps, measured as the time each takes beside decoding an entry (docs/SEARCH.md, "Cost").
 */
export const COST = {
  entry: 1,
  /** A street position read from the streets of places, or a place from the record table. */
  position: 0.25,
  /** A 32-bit word of a bitmap combined, counted or selected. */
  word: 0.25,
  /** A candidate tested against a bit of a bitmap, or a place against the places that pass. */
  bit: 0.25,
  /** A distinct name tested by string search (a literal filter). */
  name: 4,
  /** A distinct name tested by the regular-expression engine. */
  pattern: 40,
  /** A candidate's document (name and place) tested against query terms or a phrase. */
  document: 30,
  /**
   * A street of a name's list read in order from its first block: its entry decoded with its head,
   * its place looked up in the record table, a stretch at a time (measured: three entries' time).
   */
  walked: 3,
  /** A street rendered into the page (its head, its place's tail). */
  row: 20,
} as const;

/** What a search found: its count and the page's streets, with their places and heads when known. */
export interface Found {
  readonly total: number;
  readonly positions: Int32Array;
  readonly places?: Int32Array;
  readonly heads?: readonly (readonly string[])[];
}

/** A way to answer: what it costs, what it reads first (worked out when asked), and the run (which may need more files). */
export interface Plan<T> {
  readonly steps: number;
  files(): Files;
  run(): Promise<T>;
}

/**
 * Runs the cheapest plan whose first files fit what is left of the budget; a plan that meets the
 * budget later (its further reads, known only from what it read) gives way to the next, its reads
 * charged. SearchTooBroad when none fits.
 */
export async function cheapest<T>(plans: readonly Plan<T>[], r: Reader): Promise<T> {
  const ordered = [...plans].sort((a, b) => a.steps - b.steps);
  let refusal: SearchTooBroad | undefined;
  for (const plan of ordered) {
    if (plan.steps > SEARCH_STEP_BUDGET) break; // sorted: every later plan costs more
    const files = plan.files();
    if (!r.fits(files)) continue;
    planTrace.steps.push(plan.steps);
    try {
      await r.need(files);
      return await plan.run();
    } catch (error) {
      if (!(error instanceof SearchTooBroad)) throw error;
      refusal = error;
    }
  }
  throw refusal ?? new SearchTooBroad(Infinity);
}

/** Files of several parts, each once. */
export function union(...parts: readonly Files[]): Files {
  const out: Files = new Map();
  for (const part of parts) for (const [path, bytes] of part) out.set(path, bytes);
  return out;
}

/** Streets counted in order, those of the page [start, end) kept with their places and heads. */
export class Page {
  total = 0;
  readonly positions: number[] = [];
  readonly places: number[] = [];
  readonly heads: (readonly string[])[] = [];
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}
  /** Counts one street; true when it falls on the page (then `keep` it). No closure per street: a bundle with keep_names wraps each one created. */
  count(): boolean {
    return this.total++ >= this.start && this.total <= this.end;
  }
  keep(position: number, place: number, head: readonly string[]): void {
    this.positions.push(position);
    this.places.push(place);
    this.heads.push(head);
  }
  found(total = this.total, places = true): Found {
    const page = { total, positions: Int32Array.from(this.positions), heads: this.heads };
    return places ? { ...page, places: Int32Array.from(this.places) } : page;
  }
}
