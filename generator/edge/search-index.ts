import { formatMismatch } from "../contract/layout.ts";
import { bytesOf, chunkNumbers } from "./search-chunks.ts";
import { ReadBudget } from "../contract/search/budget.ts";
import { decodePlaceTable, type PlaceTable, type SearchMeta } from "../contract/search/meta.ts";
import { decodePostings, Postings } from "../contract/search/postings.ts";
import type { LexemeMatch } from "../contract/postgres/tsquery.ts";
import { ListShard, shardFor } from "../contract/search/shards.ts";
import {
  BLOCK_ENTRIES,
  decodeBlocks,
  lexiconKey,
  lexiconPath,
  listChunkPath,
  listCount,
  placesPath,
  SEARCH_CHUNK_BYTES,
  searchMetaPath,
  TAILS_PER_SHARD,
  tailsPath,
  trigramPath,
  type ListEntry,
  type ListRef,
} from "../contract/search/store.ts";
import { TailShard } from "../contract/search/tails.ts";
import type { AssetStore } from "./assets.ts";
import { BitmapStore } from "./search-bitmaps.ts";
import { GramCountStore } from "./search-gram-counts.ts";
import { StreetTable } from "./search-streets.ts";

/** List chunks kept per isolate (of SEARCH_CHUNK_BYTES each): the lists of common words stay warm. */
const CHUNK_CACHE = 96;
/** Decoded lists kept per isolate, up to this many entries in all (12 bytes each: about 18 MB). */
const DECODED_ENTRIES = 1_500_000;

/**
 * One country's search index as the Worker reads it. Per isolate it keeps what requests share
 * (the meta, the places once a request needed them, lexicon and trigram shards, the rendered
 * tails) and the most recently read list chunks; only resolved data is kept (see AssetStore).
 */
export class SearchIndex {
  private placeTable: { readonly table: PlaceTable; readonly bytes: number } | undefined;
  private readonly shards = new Map<
    string,
    { readonly shard: ListShard; readonly bytes: number }
  >();
  private readonly tails = new Map<number, { readonly tails: TailShard; readonly bytes: number }>();
  private readonly chunks = new Map<number, Uint8Array>();
  private readonly decoded = new Map<number, Postings>();
  private decodedEntries = 0;
  /** Streets by position: their places and heads. */
  readonly streets: StreetTable;
  /** Bitmaps of common lexemes. */
  readonly bitmaps: BitmapStore;
  /** Per-place counts of short n-grams. */
  readonly gramCounts: GramCountStore;
  /** The code points of meta.nameCharacters. */
  readonly nameCharacters: ReadonlySet<number>;

  private constructor(
    private readonly store: AssetStore,
    private readonly origin: string,
    readonly country: string,
    readonly meta: SearchMeta,
    private readonly metaBytes: number,
  ) {
    this.streets = new StreetTable(store, origin, country, meta);
    this.bitmaps = new BitmapStore(store, origin, country, meta);
    this.gramCounts = new GramCountStore(store, origin, country, meta);
    this.nameCharacters = new Set(Array.from(meta.nameCharacters, (ch) => ch.codePointAt(0) ?? 0));
  }

  static async open(store: AssetStore, origin: string, country: string): Promise<SearchIndex> {
    const bytes = new Uint8Array(
      await (await store.require(origin, searchMetaPath(country))).arrayBuffer(),
    );
    const meta = JSON.parse(decoder.decode(bytes)) as SearchMeta;
    const mismatch = formatMismatch(searchMetaPath(country), meta.formatVersion);
    if (mismatch !== undefined) throw new Error(mismatch);
    return new SearchIndex(store, origin, country, meta, bytes.byteLength);
  }

  /** A request's budget (meta.readBudget), charged with the meta, which every request reads. */
  budget(): ReadBudget {
    const budget = new ReadBudget(this.meta.readBudget);
    budget.charge(searchMetaPath(this.country), this.metaBytes);
    return budget;
  }

  /** The places (read on first use: a one-word search or a name filter alone does without). */
  async places(budget: ReadBudget): Promise<PlaceTable> {
    if (this.placeTable === undefined) {
      const bytes = await this.file(placesPath(this.country));
      this.placeTable = { table: decodePlaceTable(bytes), bytes: bytes.byteLength };
    }
    budget.charge(placesPath(this.country), this.placeTable.bytes);
    return this.placeTable.table;
  }

  /** The lists of query terms: a lexeme's own, or for a prefix every lexeme's that starts with it. */
  async termLists(
    terms: readonly LexemeMatch[],
    budget: ReadBudget,
  ): Promise<(term: LexemeMatch) => readonly ListRef[]> {
    const paths = new Map(
      terms.map(({ lexeme }) => [
        lexeme,
        lexiconPath(this.country, shardFor(this.meta.lexiconShards, lexiconKey(lexeme))),
      ]),
    );
    const shards = await this.shardsAt(new Set(paths.values()), budget);
    return (term) => {
      const shard = shards.get(paths.get(term.lexeme) ?? "");
      if (shard === undefined) return [];
      if (term.prefix) return shard.withPrefix(term.lexeme);
      const found = shard.get(term.lexeme);
      return found === undefined ? [] : [found.ref];
    };
  }

  /** The list of each trigram with its number of streets (undefined: no name has it). */
  async trigramLists(
    trigrams: readonly string[],
    budget: ReadBudget,
  ): Promise<(readonly [number, ListRef] | undefined)[]> {
    const paths = trigrams.map((trigram) =>
      trigramPath(this.country, shardFor(this.meta.trigramShards, trigram)),
    );
    const shards = await this.shardsAt(new Set(paths), budget);
    return trigrams.map((trigram, i) => {
      const found = shards.get(paths[i] ?? "")?.get(trigram);
      return found === undefined ? undefined : ([found.streets, found.ref] as const);
    });
  }

  /** Whole lists decoded as columns (each chunk they lie in fetched once; lists kept decoded per isolate). */
  async postings(refs: readonly ListRef[], budget: ReadBudget): Promise<Postings[]> {
    const ranges = refs.map((ref) => [ref[1] ?? 0, ref.at(-1) ?? 0] as const);
    this.chargeChunks(ranges, budget);
    // The kept lists first, each made the most recent (keeping the others may drop them).
    const kept = ranges.map(([from]) => {
      const list = this.decoded.get(from);
      if (list !== undefined && this.decoded.delete(from)) this.decoded.set(from, list);
      return list;
    });
    const chunks = await this.chunksOf(ranges.filter((_, i) => kept[i] === undefined));
    return ranges.map(([from, to], i) => {
      const list = kept[i] ?? decodePostings(bytesOf(chunks, from, to), listCount(refs[i] ?? []));
      if (list !== kept[i]) this.keepDecoded(from, list);
      return list;
    });
  }

  /** Would reading these lists (their chunks) leave a `reserve` share of the budget? Nothing is charged. */
  listsFit(refs: readonly ListRef[], budget: ReadBudget, reserve: number): boolean {
    const numbers = chunkNumbers(refs.map((ref) => [ref[1] ?? 0, ref.at(-1) ?? 0] as const));
    return budget.fits(
      new Map(
        [...numbers].map((number) => [listChunkPath(this.country, number), SEARCH_CHUNK_BYTES]),
      ),
      reserve,
    );
  }

  /** Keeps a decoded list, dropping the least recently used while more than DECODED_ENTRIES entries are kept. */
  private keepDecoded(from: number, list: Postings): void {
    this.decoded.set(from, list);
    this.decodedEntries += list.length;
    for (const [key, old] of this.decoded) {
      if (this.decodedEntries <= DECODED_ENTRIES || key === from) break;
      this.decoded.delete(key);
      this.decodedEntries -= old.length;
    }
  }

  /** Entries [start, end) of one list: only the blocks that hold them are read (a ref with every block's offset). */
  async slice(
    ref: ListRef,
    start: number,
    end: number,
    budget: ReadBudget,
  ): Promise<readonly ListEntry[]> {
    if (end <= start) return [];
    if (ref.length < 2 + Math.ceil(listCount(ref) / BLOCK_ENTRIES)) {
      const [list = Postings.EMPTY] = await this.postings([ref], budget);
      return Array.from({ length: Math.max(0, Math.min(end, list.length) - start) }, (_, i) =>
        list.entry(start + i),
      );
    }
    const [first, last] = [
      Math.floor(start / BLOCK_ENTRIES),
      Math.floor((end - 1) / BLOCK_ENTRIES),
    ];
    return decodeBlocks(
      await this.streamBytes(ref[1 + first] ?? 0, ref[2 + last] ?? 0, budget),
      [],
      start - first * BLOCK_ENTRIES,
      end - first * BLOCK_ENTRIES,
    );
  }

  /** Bytes [from, to) of the list stream, its chunks charged first. */
  async streamBytes(from: number, to: number, budget: ReadBudget): Promise<Uint8Array> {
    this.chargeChunks([[from, to]], budget);
    return bytesOf(await this.chunksOf([[from, to]]), from, to);
  }

  /** The rendered tails of places, JSON (0) or CSV (1). */
  async tailsOf(
    places: readonly number[],
    budget: ReadBudget,
  ): Promise<(place: number, format: 0 | 1) => string> {
    const shards = [...new Set(places.map((place) => Math.floor(place / TAILS_PER_SHARD)))];
    await Promise.all(
      shards
        .filter((shard) => !this.tails.has(shard))
        .map(async (shard) => {
          const bytes = await this.file(tailsPath(this.country, shard));
          this.tails.set(shard, { tails: new TailShard(bytes), bytes: bytes.byteLength });
        }),
    );
    for (const shard of shards)
      budget.charge(tailsPath(this.country, shard), this.tails.get(shard)?.bytes ?? 0);
    return (place, format) => {
      const shard = this.tails.get(Math.floor(place / TAILS_PER_SHARD))?.tails;
      return shard === undefined || place % TAILS_PER_SHARD >= shard.size
        ? (["}", "\r\n"][format] ?? "")
        : shard.tail(place % TAILS_PER_SHARD, format);
    };
  }

  /** Lexicon or trigram shards by path, each charged once to the budget. */
  private async shardsAt(
    paths: ReadonlySet<string>,
    budget: ReadBudget,
  ): Promise<ReadonlyMap<string, ListShard>> {
    const shards = await Promise.all(
      [...paths].map(async (path) => [path, await this.shard(path)] as const),
    );
    for (const [path, { bytes }] of shards) budget.charge(path, bytes);
    return new Map(shards.map(([path, { shard }]) => [path, shard]));
  }

  /** A shard and its size in bytes, kept per isolate once read. */
  private async shard(
    path: string,
  ): Promise<{ readonly shard: ListShard; readonly bytes: number }> {
    let parsed = this.shards.get(path);
    if (parsed === undefined) {
      const bytes = await this.file(path);
      this.shards.set(path, (parsed = { shard: ListShard.parse(bytes), bytes: bytes.byteLength }));
    }
    return parsed;
  }

  /** A file of the index, as bytes. */
  private async file(path: string): Promise<Uint8Array> {
    return new Uint8Array(await (await this.store.require(this.origin, path)).arrayBuffer());
  }

  /** Charges the list-stream chunks that byte ranges lie in (whole: a chunk is one file), before they are read. */
  private chargeChunks(ranges: readonly (readonly [number, number])[], budget: ReadBudget): void {
    for (const number of chunkNumbers(ranges))
      budget.charge(listChunkPath(this.country, number), SEARCH_CHUNK_BYTES);
  }

  /** The list-stream chunks that byte ranges lie in, each fetched once (kept for this request even when the cache drops them). */
  private async chunksOf(
    ranges: readonly (readonly [number, number])[],
  ): Promise<ReadonlyMap<number, Uint8Array>> {
    return new Map(
      await Promise.all(
        [...chunkNumbers(ranges)].map(
          async (number) => [number, await this.chunk(number)] as const,
        ),
      ),
    );
  }

  private async chunk(number: number): Promise<Uint8Array> {
    const cached = this.chunks.get(number);
    if (cached !== undefined) {
      this.chunks.delete(number);
      this.chunks.set(number, cached);
      return cached;
    }
    const path = listChunkPath(this.country, number);
    const bytes = await this.file(path);
    this.chunks.set(number, bytes);
    if (this.chunks.size > CHUNK_CACHE)
      this.chunks.delete(this.chunks.keys().next().value as number);
    return bytes;
  }
}

const decoder = new TextDecoder();
