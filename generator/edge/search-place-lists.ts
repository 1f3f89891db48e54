import { SearchTooBroad, type ReadBudget } from "../contract/search/budget.ts";
import { placeList, type PlaceTable } from "../contract/search/meta.ts";
import type { PlaceRange } from "../contract/search/filter-places.ts";
import { SEARCH_CHUNK_BYTES, type ListRef } from "../contract/search/store.ts";
import type { Postings } from "../contract/search/postings.ts";
import { listChunkPath } from "../contract/layout.ts";
import type { SearchIndex } from "./search-index.ts";

/**
 * The lists of the places that pass a request's place filters (often thousands of them): whether
 * their chunks fit in the budget is counted from the place table's list offsets, with nothing
 * built per place, so a request whose places' lists are too many is refused before their refs
 * are made or any chunk is charged; the refs are made only for a read.
 */
export class PlaceLists {
  constructor(
    private readonly index: SearchIndex,
    private readonly places: PlaceTable,
    private readonly pass: Uint8Array,
    /** Where the passing places lie, when known (a postal-code prefix's range): the rest fail. */
    private readonly range: PlaceRange = { from: 0, to: places.size },
  ) {}

  /** Would reading every passing place's list fit in what is left of the budget? As SearchIndex.listsFit with no reserve. */
  fit(budget: ReadBudget): boolean {
    return budget.fits((this.files ??= this.chunkFiles()), 0);
  }

  private files: ReadonlyMap<string, number> | undefined;
  private chunkFiles(): ReadonlyMap<string, number> {
    const { listStarts } = this.places;
    const pass = this.pass;
    const numbers: number[] = [];
    // Lists lie in place order, so a passing place's chunks are mostly the one before's.
    let added = -1;
    for (let p = this.range.from; p < this.range.to; p++) {
      if (pass[p] !== 1) continue;
      const from = listStarts[p] as number;
      const to = listStarts[p + 1] as number;
      if (to <= from) continue;
      const last = Math.floor((to - 1) / SEARCH_CHUNK_BYTES);
      for (
        let chunk = Math.max(added + 1, Math.floor(from / SEARCH_CHUNK_BYTES));
        chunk <= last;
        chunk++
      )
        numbers.push((added = chunk));
    }
    return new Map(
      numbers.map((n) => [listChunkPath(this.index.country, n), SEARCH_CHUNK_BYTES] as const),
    );
  }

  /** The passing places' lists, read; refused when they do not fit in what is left of the budget. */
  async read(budget: ReadBudget): Promise<Postings[]> {
    if (!this.fit(budget)) throw new SearchTooBroad(Infinity);
    return this.index.postings(this.refs(), budget);
  }

  /** The passing places' lists, in place order. */
  refs(): ListRef[] {
    const refs: ListRef[] = [];
    for (let place = this.range.from; place < this.range.to; place++)
      if (this.pass[place] === 1) refs.push(placeList(this.places, place));
    return refs;
  }
}
