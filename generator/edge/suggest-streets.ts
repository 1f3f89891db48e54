/**
 * Suggestions' one way into the street-search index (edge/search-index.ts and the codecs of
 * contract/search/): what a name's streets and a page of suggestions need of it, and nothing
 * else. A name of the suggestions index is a range of street positions and a locality a set of
 * place numbers of that index (the build writes both from its numbering, build/emit-suggest.ts),
 * so the suggestions' engine never reads the search index's files but through this class:
 *
 * - the street order's size and the index's read budget and hash (meta.json);
 * - the places of streets by position (the record table `/_s/{cc}/r/…`), and the files and bytes
 *   such a read is charged, to plan it before it is made;
 * - a page of streets rendered in FullTextSearch's JSON shape and CSV columns with the paging
 *   headers and ETag (record, head and tail tables, through search-answer.ts);
 * - streets rendered as JSON records (the address check's suggestions).
 *
 * Moving suggestions onto another evaluation of the search index is a change of this file.
 */
import type { ParsedQuery } from "../contract/query.ts";
import type { RouteResource } from "../contract/routes.ts";
import type { ReadBudget } from "../contract/search/budget.ts";
import { headJson, RECORD_CHUNK_STREETS, recordsPath } from "../contract/search/store.ts";
import type { AssetStore } from "./assets.ts";
import type { ServeContext } from "./context.ts";
import { answer } from "./search-answer.ts";
import { SearchIndex } from "./search-index.ts";

/** Search indexes opened per isolate, by store and country (resolved ones only; see AssetStore). */
const opened = new WeakMap<AssetStore, Map<string, SearchIndex>>();

export class SuggestStreets {
  private constructor(private readonly index: SearchIndex) {}

  static async open(store: AssetStore, origin: string, country: string): Promise<SuggestStreets> {
    let byCountry = opened.get(store);
    if (byCountry === undefined) opened.set(store, (byCountry = new Map()));
    let index = byCountry.get(country);
    if (index === undefined) {
      index = await SearchIndex.open(store, origin, country);
      byCountry.set(country, index);
    }
    return new SuggestStreets(index);
  }

  /** Streets in the street order. */
  get count(): number {
    return this.index.meta.count;
  }

  /** The search index's hash (part of an answer's ETag). */
  get hash(): string {
    return this.index.meta.hash;
  }

  /** A request's read budget, charged with the search index's meta. */
  budget(): ReadBudget {
    return this.index.budget();
  }

  /** Bytes one request may read. */
  get readBudget(): number {
    return this.index.meta.readBudget;
  }

  /** The record-table files (path → bytes) that the places of streets [first, first + count) are read from. */
  placeFiles(first: number, count: number): Map<string, number> {
    const { count: streets, placeWidth } = this.index.meta;
    const files = new Map<string, number>();
    const last = Math.floor((first + count - 1) / RECORD_CHUNK_STREETS);
    for (let chunk = Math.floor(first / RECORD_CHUNK_STREETS); chunk <= last; chunk++)
      files.set(
        recordsPath(this.index.country, chunk),
        Math.min(RECORD_CHUNK_STREETS, streets - chunk * RECORD_CHUNK_STREETS) * placeWidth,
      );
    return files;
  }

  /** The place numbers of streets [first, first + count), charged to the budget. */
  async placesOf(first: number, count: number, budget: ReadBudget): Promise<Int32Array> {
    const positions = new Int32Array(count);
    for (let i = 0; i < count; i++) positions[i] = first + i;
    return await this.index.streets.placesAt(positions, budget);
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
    const page = await this.index.streets.streetsAt(positions, budget);
    return await answer(ctx, resource, this.index, budget, { total, page }, query, question);
  }

  /** Streets (positions) as JSON records, with their place numbers. */
  async records(
    positions: readonly number[],
    budget: ReadBudget,
  ): Promise<{ readonly json: string; readonly place: number }[]> {
    const entries = await this.index.streets.streetsAt(positions, budget);
    const tailOf = await this.index.tailsOf(
      entries.map((entry) => entry.place),
      budget,
    );
    const keys = this.index.meta.headKeys;
    return entries.map((entry) => ({
      json: headJson(keys, entry.head) + tailOf(entry.place, 0),
      place: entry.place,
    }));
  }
}
