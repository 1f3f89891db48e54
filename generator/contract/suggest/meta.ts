/**
 * The suggestions index of a country (docs/FORMAT.md § 7.11), beside its street-search index:
 *
 *   /_s/{cc}/suggest/meta.json      SuggestMeta: the alphabet of skeletons, the name shards' first keys
 *   /_s/{cc}/suggest/n/{n}.bin      name shard n: the trie (trie.ts) of the skeletons of the street names
 *                             whose pairs (names.ts pairsOf) fall in its range of keys
 *   /_s/{cc}/suggest/places.bin     postal codes and each place's locality (places.ts)
 *   /_s/{cc}/suggest/l/{n}.bin      locality shard n: the localities' tries, laid out as a name shard
 *
 * Names point into the street-search index by street position, localities by place number: the
 * records are rendered from its record, head and tail tables (edge/suggest-streets.ts).
 */
export {
  suggestLocalitiesPath,
  suggestMetaPath,
  suggestNamesPath,
  suggestPlacesPath,
} from "../layout.ts";

export interface SuggestMeta {
  /** The layout the build wrote (layout.ts FORMAT_VERSION). */
  readonly formatVersion: number;
  /** A short hash of the suggestion files: part of every answer's ETag. */
  readonly hash: string;
  /** The skeletons' characters, coded 1, 2, … in this order (trie.ts Alphabet). */
  readonly alphabet: string;
  /** The first pair key of each name shard, in order (a key's shard: the last whose first key is not above it). */
  readonly shards: readonly string[];
  /** The bytes of each name shard: what reading one will charge, known before it is read. */
  readonly shardBytes: readonly number[];
  /** Likewise of each locality shard. */
  readonly localityShards: readonly string[];
}

/** The shard of a pair key: the last shard whose first key is at most the key. */
export function shardOfPair(shards: readonly string[], pair: string): number {
  let [lo, hi] = [0, shards.length];
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if ((shards[mid] ?? "") <= pair) lo = mid;
    else hi = mid;
  }
  return lo;
}
