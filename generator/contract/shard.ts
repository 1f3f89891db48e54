/**
 * The index shard format: `/_i/{resource}/{shard}.json` maps the view keys that hash to the shard
 * to where their records are. The build encodes, the Worker decodes.
 *
 *   {"sizes":[…],"entries":[[key, slug, total, hash], [key, slug, total, hash, [record, …]], …]}
 *
 * `sizes` are the page sizes materialised as files for the resource. A view that fits in one
 * canonical page may be inlined: its records are the entry's fifth element and it has no page
 * files (the Worker renders its pages from them, byte-identical to page files).
 */
export interface ShardEntry {
  readonly slug: string;
  readonly total: number;
  /** A short hash of the view's records: part of every page's ETag. */
  readonly hash: string;
  /** An inlined view's records (it has no page files). */
  readonly records: readonly unknown[] | undefined;
}

export interface ShardLookup {
  readonly sizes: ReadonlySet<number>;
  readonly entries: ReadonlyMap<string, ShardEntry>;
}

/** A shard that does not exist: no view hashes to it. */
export const EMPTY_SHARD: ShardLookup = { sizes: new Set(), entries: new Map() };

type EntryTuple = readonly [key: string, slug: string, total: number, hash: string, records?: readonly unknown[]];

/** One entry; an inlined view's records go in as rendered (`jsonRecords`), so the Worker re-renders them byte for byte. */
export function encodeShardEntry(key: string, entry: Omit<ShardEntry, "records">, jsonRecords?: readonly string[]): string {
  const tuple = JSON.stringify([key, entry.slug, entry.total, entry.hash] satisfies EntryTuple);
  return jsonRecords === undefined ? tuple : `${tuple.slice(0, -1)},[${jsonRecords.join(",")}]]`;
}

export function encodeShard(sizes: readonly number[], encodedEntries: readonly string[]): string {
  return `{"sizes":${JSON.stringify(sizes)},"entries":[${encodedEntries.join(",")}]}`;
}

export function decodeShard(text: string): ShardLookup {
  const shard = JSON.parse(text) as { sizes: number[]; entries: EntryTuple[] };
  return {
    sizes: new Set(shard.sizes),
    entries: new Map(shard.entries.map(([key, slug, total, hash, records]) => [key, { slug, total, hash, records }])),
  };
}
