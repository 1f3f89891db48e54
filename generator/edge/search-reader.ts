import { formatMismatch } from "../contract/layout.ts";
import { internPaths } from "../contract/search/leaves.ts";
import { SearchTooBroad, type Files, type Reader } from "../contract/search/plan.ts";
import type { SearchMeta } from "../contract/search/meta.ts";
import { searchMetaPath } from "../contract/search/store.ts";
import type { AssetStore } from "./assets.ts";

/** What an isolate keeps of an index, files and values made of them (docs/SEARCH.md, "Thresholds"). */
const KEPT_BYTES = 32 * 1024 * 1024;

/** Indexes opened per isolate, by store and country (resolved ones only; see AssetStore). */
const opened = new WeakMap<AssetStore, Map<string, SearchFiles>>();

/** One country's search index: its meta, and per isolate its files and values (KEPT_BYTES, least recently used dropped). */
export class SearchFiles {
  private readonly kept = new Map<number | string, { value: unknown; bytes: number }>();
  /** Files decoded, by their bytes: a decoded file goes when its bytes go. */
  readonly decoded = new WeakMap<Uint8Array, unknown>();
  private keptBytes = 0;

  private constructor(
    private readonly store: AssetStore,
    private readonly origin: string,
    readonly meta: SearchMeta,
    readonly metaBytes: number,
  ) {}

  /** A country's index, opened once per isolate and store (FullTextSearch, Streets and Suggestions share it). */
  static async open(store: AssetStore, origin: string, country: string): Promise<SearchFiles> {
    let byCountry = opened.get(store);
    if (byCountry === undefined) opened.set(store, (byCountry = new Map()));
    const cached = byCountry.get(country);
    if (cached !== undefined) return cached;
    const path = searchMetaPath(country);
    const bytes = new Uint8Array(await (await store.require(origin, path)).arrayBuffer());
    const meta = JSON.parse(new TextDecoder().decode(bytes)) as SearchMeta;
    const mismatch = formatMismatch(path, meta.formatVersion);
    if (mismatch !== undefined) throw new Error(mismatch);
    internPaths(meta);
    const files = new SearchFiles(store, origin, meta, bytes.byteLength);
    byCountry.set(country, files);
    return files;
  }

  /** A request's reader: its budget (the meta's readBudget) charged with the meta, which every request reads. */
  reader(): RequestReader {
    return new RequestReader(this);
  }

  get(key: number | string): unknown {
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    this.kept.delete(key);
    this.kept.set(key, entry);
    return entry.value;
  }

  keep(key: number | string, value: unknown, bytes: number): void {
    if (this.kept.has(key)) return;
    this.kept.set(key, { value, bytes });
    this.keptBytes += bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.keptBytes <= KEPT_BYTES) break;
      this.kept.delete(oldest);
      this.keptBytes -= entry.bytes;
    }
  }

  async fetch(path: string): Promise<Uint8Array> {
    return new Uint8Array(await (await this.store.require(this.origin, path)).arrayBuffer());
  }
}

/** One request's reads: each file charged once, whole, before it is read, whether or not the isolate keeps it. */
export class RequestReader implements Reader {
  private spent = 0;
  private readonly got = new Map<string, Uint8Array | undefined>();
  readonly meta: SearchMeta;

  constructor(private readonly files: SearchFiles) {
    this.meta = files.meta;
    this.charge(searchMetaPath(files.meta.country), files.metaBytes);
  }

  fits(files: Files, reserve = 0): boolean {
    let more = 0;
    for (const [path, bytes] of files) if (!this.got.has(path)) more += bytes;
    return this.spent + more <= this.meta.readBudget * (1 - reserve);
  }

  async need(files: Files): Promise<void> {
    // The whole set is checked first: files a plan does not get to read are not charged.
    if (!this.fits(files)) throw new SearchTooBroad(this.spent);
    for (const [path, bytes] of files) this.charge(path, bytes);
    const missing = [...files.keys()].filter((path) => this.got.get(path) === undefined);
    await Promise.all(
      missing.map(async (path) => {
        const bytes = (this.files.get(path) as Uint8Array) ?? (await this.files.fetch(path));
        this.got.set(path, bytes);
        this.files.keep(path, bytes, bytes.byteLength);
      }),
    );
  }

  bytes(path: string): Uint8Array {
    const bytes = this.got.get(path);
    if (bytes === undefined) throw new Error(`search: ${path} read before it was charged`);
    return bytes;
  }

  kept<T>(key: number | string, bytes: number, make: () => T): T {
    let value = this.files.get(key) as T | undefined;
    if (value === undefined) this.files.keep(key, (value = make()), bytes);
    return value;
  }

  decoded<T>(path: string, make: (bytes: Uint8Array) => T): T {
    const bytes = this.bytes(path);
    let value = this.files.decoded.get(bytes) as T | undefined;
    if (value === undefined) this.files.decoded.set(bytes, (value = make(bytes)));
    return value;
  }

  /**
   * Charges a file read beside the index's own (the suggestions index's, edge/suggest-index.ts):
   * once per request; SearchTooBroad past the budget.
   */
  charge(path: string, bytes: number): void {
    if (this.got.has(path)) return;
    this.got.set(path, undefined);
    this.spent += bytes;
    if (this.spent > this.meta.readBudget) throw new SearchTooBroad(this.spent);
  }
}
