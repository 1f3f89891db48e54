/**
 * The planner (docs/SEARCH.md, "The interface"): a Plan's cost in steps (COST) and its first files
 * are known from the meta before anything is read; the cheapest that fits the budgets runs.
 */
import type { SearchMeta } from "./meta.ts";

/** Bytes of index one search may read by default (`build --search-read-budget` sets another). */
export const SEARCH_READ_BUDGET = 1024 * 1024;

/** Estimated steps (COST) one plan may take: a plan over it is not run. */
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

/** The index as a plan reads it (edge/search-reader.ts). */
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

/** The cost unit: one step is one list entry decoded; the other prices in steps (docs/SEARCH.md, "The cost unit"). */
export const COST = {
  entry: 1,
  position: 0.25,
  word: 0.25,
  bit: 0.25,
  name: 4,
  pattern: 40,
  document: 30,
  walked: 3,
  row: 20,
  file: 1500,
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
  let refusal: SearchTooBroad | undefined;
  for (const plan of [...plans].sort((a, b) => a.steps - b.steps)) {
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
