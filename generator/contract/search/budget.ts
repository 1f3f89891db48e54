/**
 * How much of the index one search may read: every file it needs (meta, places, lexicon and
 * trigram shards, list chunks, record-table chunks, tails) is charged once, whole, whether or not
 * the isolate holds it already, so a request's answer (its page, or its refusal) never depends on
 * what was read before, and the charge is what a new isolate would fetch for it. List and
 * record-table chunks are charged before they are read.
 *
 * It bounds a request's CPU and memory on the edge (a free plan allows 10 ms of CPU, an isolate
 * 128 MB): without it `name=a` or `-berlin` decoded every street of the country (25 MB of index,
 * seconds of CPU). A search that matches too broadly to be answered within the budget is refused
 * with a 400 problem that says how to narrow it.
 */

/** Bytes of index a search may read by default. */
export const SEARCH_READ_BUDGET = 1024 * 1024;

/** The plan of a search needs more of the index than SEARCH_READ_BUDGET. */
export class SearchTooBroad extends Error {
  constructor(readonly needed: number) {
    super(`the search would read ${needed} bytes of the index`);
    this.name = "SearchTooBroad";
  }
}

export class ReadBudget {
  private spent = 0;
  private readonly files = new Set<string>();
  constructor(private readonly limit = SEARCH_READ_BUDGET) {}

  /** Would these files (not yet charged ones counted) fit in what is left, with a `reserve` share of the budget kept for what follows them? */
  fits(files: ReadonlyMap<string, number>, reserve = 0): boolean {
    let more = 0;
    for (const [file, bytes] of files) if (!this.files.has(file)) more += bytes;
    return this.spent + more <= this.limit * (1 - reserve);
  }

  /** Counts a file the request reads (once per request); throws SearchTooBroad when the files exceed the budget. */
  charge(file: string, bytes: number): void {
    if (this.files.has(file)) return;
    this.files.add(file);
    this.spent += bytes;
    if (this.spent > this.limit) throw new SearchTooBroad(this.spent);
  }
}
