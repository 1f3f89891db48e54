import { indexPath } from "../contract/address.ts";
import { ROUTE_TABLE_PATH, type RouteTable } from "../contract/routes.ts";
import { decodeShard, EMPTY_SHARD, type ShardLookup } from "../contract/shard.ts";

/**
 * Bytes of packed chunks an isolate keeps: the pages of popular localities then read no file. Kept
 * small, because every kept chunk is heap the garbage collector walks, which the requests that
 * find no kept chunk pay for (docs/OPERATIONS.md, "Scale", has what this size bought).
 */
export const CHUNK_CACHE_BYTES = 1024 * 1024;

/**
 * The static-assets binding: fetches a file of the build, with its `_headers` rules applied. The
 * Worker asks by absolute URL, as Cloudflare's Fetcher allows: no Request is made per file.
 */
export interface Assets {
  fetch(input: Request | string): Promise<Response>;
}

/** The URL a binding was asked for. */
export const urlOf = (input: Request | string): string =>
  typeof input === "string" ? input : input.url;

/**
 * The build's files as the Worker reads them. Per isolate it keeps the route table and the index
 * shards it has read, so a warm request fetches only page files. Only resolved data is kept: a
 * promise started by one request must not be awaited by another (workerd cancels such a request
 * as hung), so concurrent cold requests each read what they need.
 */
export class AssetStore {
  private readonly shards = new Map<string, ShardLookup>();
  /** Chunks of packed records read lately, least recently used first, within `CHUNK_CACHE_BYTES`. */
  private readonly chunks = new Map<string, Uint8Array>();
  private chunkBytes = 0;

  constructor(private readonly assets: Assets) {}

  /** A chunk file of packed records (pack.ts), kept in the isolate while it is among the recently read. */
  async chunk(origin: string, path: string): Promise<Uint8Array> {
    const cached = this.chunks.get(path);
    if (cached !== undefined) {
      this.chunks.delete(path);
      this.chunks.set(path, cached);
      return cached;
    }
    const bytes = new Uint8Array(await (await this.require(origin, path)).arrayBuffer());
    this.chunks.set(path, bytes);
    this.chunkBytes += bytes.byteLength;
    for (const [oldest, old] of this.chunks) {
      if (this.chunkBytes <= CHUNK_CACHE_BYTES) break;
      this.chunks.delete(oldest);
      this.chunkBytes -= old.byteLength;
    }
    return bytes;
  }

  fetch(origin: string, path: string): Promise<Response> {
    return this.assets.fetch(`${origin}${path}`);
  }

  /** A file that must exist (a page or list the index points to): its response, or an error. */
  async require(origin: string, path: string): Promise<Response> {
    const response = await this.fetch(origin, path);
    if (!response.ok) throw new Error(`${path} missing: HTTP ${response.status}`);
    return response;
  }

  async routeTable(origin: string): Promise<RouteTable> {
    return (await (await this.require(origin, ROUTE_TABLE_PATH)).json()) as RouteTable;
  }

  async shard(origin: string, resource: string, shard: number): Promise<ShardLookup> {
    const path = indexPath(resource, shard);
    const cached = this.shards.get(path);
    if (cached !== undefined) return cached;
    const response = await this.fetch(origin, path);
    let lookup: ShardLookup;
    if (response.status === 404) lookup = EMPTY_SHARD;
    else if (!response.ok) throw new Error(`index ${path}: HTTP ${response.status}`);
    else lookup = decodeShard(await response.text());
    this.shards.set(path, lookup);
    return lookup;
  }
}
