import type { PackRef } from "./pack.ts";
import type { Format } from "./query.ts";

/**
 * The index shard format: `/_i/{resource}/{shard}.json` maps the view keys that hash to the shard
 * to where their records are. The build encodes, the Worker decodes.
 *
 *   {"sizes":[…],
 *    "entries":[[key, slug, total, hash, [record, …]],                                  inlined
 *               [key, slug, total, hash, {"json":[start,bytes,first,[later…]],"csv":[…]}], …],   packed
 *    "slugs":[[slug, key], …]}
 *
 * `sizes` are the page sizes materialised as files for the resource. A small view may be inlined:
 * its records are in its entry (the Worker renders its pages from them, byte-identical to page
 * files). Every other view is packed (pack.ts), and also a page file for each materialised size.
 * `slugs` maps the slugs that hash to this shard (see `slugShardKey`) to their view keys, for the
 * per-view downloads, whose paths name the slug.
 */
export interface ShardEntry {
  readonly slug: string;
  readonly total: number;
  /** A short hash of the view's records: part of every page's ETag. */
  readonly hash: string;
  /** An inlined view's records. */
  readonly records: readonly unknown[] | undefined;
  /** Where a packed view's records are, in each format's stream. */
  readonly packed: Readonly<Record<Format, PackRef>> | undefined;
}

export interface ShardLookup {
  readonly sizes: ReadonlySet<number>;
  readonly entries: ReadonlyMap<string, ShardEntry>;
  readonly slugs: ReadonlyMap<string, string>;
}

/** A shard that does not exist: no view hashes to it. */
export const EMPTY_SHARD: ShardLookup = { sizes: new Set(), entries: new Map(), slugs: new Map() };

/** The key a slug is sharded by: no view key starts with a control character (readers reject them). */
export function slugShardKey(slug: string): string {
  return `\u0000${slug}`;
}

type WirePacked = Readonly<
  Record<
    Format,
    readonly [start: number, bytes: number, firstIndex: number, later: readonly number[]]
  >
>;
type WireEntry = readonly [
  key: string,
  slug: string,
  total: number,
  hash: string,
  where: readonly unknown[] | WirePacked,
];

/** One entry: an inlined view's records go in as rendered (`jsonRecords`), so the Worker re-renders them byte for byte. */
export function encodeShardEntry(
  key: string,
  entry: Pick<ShardEntry, "slug" | "total" | "hash">,
  where:
    { readonly inline: readonly string[] } | { readonly packed: Readonly<Record<Format, PackRef>> },
): string {
  const head = JSON.stringify([key, entry.slug, entry.total, entry.hash]).slice(0, -1);
  if ("inline" in where) return `${head},[${where.inline.join(",")}]]`;
  const wire = ({ start, bytes, firstIndex, later }: PackRef) =>
    [start, bytes, firstIndex, later] as const;
  const packed: WirePacked = { json: wire(where.packed.json), csv: wire(where.packed.csv) };
  return `${head},${JSON.stringify(packed)}]`;
}

export function encodeShard(
  sizes: readonly number[],
  encodedEntries: readonly string[],
  slugs: readonly (readonly [slug: string, key: string])[],
): string {
  return `{"sizes":${JSON.stringify(sizes)},"entries":[${encodedEntries.join(",")}],"slugs":${JSON.stringify(slugs)}}`;
}

export function decodeShard(text: string): ShardLookup {
  const shard = JSON.parse(text) as {
    sizes: number[];
    entries: WireEntry[];
    slugs: [string, string][];
  };
  return {
    sizes: new Set(shard.sizes),
    entries: new Map(
      shard.entries.map(([key, slug, total, hash, where]) => [
        key,
        Array.isArray(where)
          ? { slug, total, hash, records: where, packed: undefined }
          : { slug, total, hash, records: undefined, packed: packedOf(where as WirePacked) },
      ]),
    ),
    slugs: new Map(shard.slugs),
  };
}

function packedOf(wire: WirePacked): Record<Format, PackRef> {
  const ref = ([start, bytes, firstIndex, later]: WirePacked[Format]): PackRef => ({
    start,
    bytes,
    firstIndex,
    later,
  });
  return { json: ref(wire.json), csv: ref(wire.csv) };
}
