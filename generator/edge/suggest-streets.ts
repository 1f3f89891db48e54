/**
 * Suggestions' one way into the street-search index (edge/search-reader.ts, edge/search.ts and the
 * leaves of contract/search/): what a name's streets and a page of suggestions need of it, and
 * nothing else. A name of the suggestions index is a range of street positions and a locality a
 * set of place numbers of that index (the build writes both from its numbering,
 * build/emit-suggest.ts), so the suggestions' engine never reads the search index's files but
 * through this class:
 *
 * - the street order's size and the index's read budget and hash (meta.json);
 * - a request's reader, whose budget the suggestions index's files are charged to as well;
 * - the places of streets by position (the record table `/_s/{cc}/r/…`), and the files and bytes
 *   such a read is charged, to plan it before it is made;
 * - a page of streets rendered in FullTextSearch's JSON shape and CSV columns with the paging
 *   headers and ETag (edge/search.ts answerFound);
 * - streets rendered as JSON records (the address check's suggestions).
 *
 * Moving suggestions onto another evaluation of the search index is a change of this file.
 */
import type { ParsedQuery } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import {
  headFiles,
  headsAt,
  placesAt,
  placesIn,
  recordFiles,
  recordRangeFiles,
  tailFiles,
  tailOf,
} from "../contract/search/leaves.ts";
import type { Files } from "../contract/search/plan.ts";
import { headJson, RECORD_CHUNK_STREETS as CHUNK } from "../contract/search/store.ts";
import type { AssetStore } from "./assets.ts";
import type { ServeContext } from "./context.ts";
import { answerFound } from "./search.ts";
import { SearchFiles, type RequestReader } from "./search-reader.ts";

/** A request's reads of both indexes, charged to the search index's read budget. */
export type ReadBudget = RequestReader;

export class SuggestStreets {
  private constructor(private readonly files: SearchFiles) {}

  /** A country's search index, as FullTextSearch opens it (shared per isolate). */
  static async open(store: AssetStore, origin: string, country: string): Promise<SuggestStreets> {
    return new SuggestStreets(await SearchFiles.open(store, origin, country));
  }

  /** Streets in the street order. */
  get count(): number {
    return this.files.meta.count;
  }

  /** The search index's hash (part of an answer's ETag). */
  get hash(): string {
    return this.files.meta.hash;
  }

  /** A request's budget, charged with the search index's meta. */
  budget(): ReadBudget {
    return this.files.reader();
  }

  /** Places of the index (a place's number is below it). */
  get places(): number {
    return this.files.meta.places;
  }

  /** Bytes one request may read. */
  get readBudget(): number {
    return this.files.meta.readBudget;
  }

  /**
   * The place numbers of each name's streets [position, position + count) (the record table), in
   * order: a name's files are charged while they fit with `reserve` of the budget left (undefined,
   * and nothing charged, for one that does not), then every charged file is fetched at once.
   */
  async placesOfNames(
    names: readonly { readonly position: number; readonly count: number }[],
    budget: ReadBudget,
    reserve: number,
  ): Promise<(Int32Array | undefined)[]> {
    const charged: Files = new Map();
    const fits = new Uint8Array(names.length);
    // Names found together lie close in the street order: most have the record chunks of the name
    // before, and then its verdict (charged, its files cost nothing more; not, nothing changed).
    // A loop without a closure per name: a fresh isolate runs it in its lower tiers.
    for (let i = 0, first = -1, last = -1, fit = 0; i < names.length; i++) {
      const { position, count } = names[i] as (typeof names)[number];
      const from = Math.floor(position / CHUNK);
      const to = Math.floor((position + count - 1) / CHUNK);
      if (count === 0 || from !== first || to !== last) {
        first = from;
        last = to;
        const files = recordRangeFiles(budget.meta, position, count);
        fit = budget.fits(files, reserve) ? 1 : 0;
        if (fit === 1)
          for (const [path, bytes] of files) {
            budget.charge(path, bytes);
            charged.set(path, bytes);
          }
      }
      fits[i] = fit;
    }
    await budget.need(charged);
    const out: (Int32Array | undefined)[] = [];
    for (let i = 0; i < names.length; i++) {
      const { position, count } = names[i] as (typeof names)[number];
      out.push(fits[i] === 1 ? placesIn(budget, position, count) : undefined);
    }
    return out;
  }

  /** A page of streets (positions in the answer's order) as a paged JSON or CSV response. */
  async page(
    ctx: ServeContext,
    resource: RouteResource,
    budget: ReadBudget,
    total: number,
    positions: readonly number[],
    query: ParsedQuery,
    question: string,
  ): Promise<Response> {
    const found = { total, positions: Int32Array.from(positions) };
    return await answerFound(ctx, resource, budget, found, query, question);
  }

  /** Streets (positions) as JSON records, with their place numbers. */
  async records(
    positions: readonly number[],
    budget: ReadBudget,
  ): Promise<{ readonly json: string; readonly place: number }[]> {
    const at = Int32Array.from(positions);
    await budget.need(recordFiles(budget.meta, at));
    await budget.need(headFiles(budget.meta, at));
    const places = placesAt(budget, at);
    const heads = headsAt(budget, at);
    await budget.need(tailFiles(budget.meta, places));
    const keys = budget.meta.headKeys;
    return Array.from(places, (place, i) => ({
      json: headJson(keys, heads[i] ?? []) + tailOf(budget, place, 0),
      place,
    }));
  }
}
