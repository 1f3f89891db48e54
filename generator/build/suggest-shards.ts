import { encodeNameShard, pairsOf } from "../contract/suggest/names.ts";
import { encodeTrie, type TrieEntry } from "../contract/suggest/trie.ts";

/** A shard is cut at about this many bytes of tries (never inside a pair's trie). */
const SHARD_TARGET_BYTES = 16 * 1024;

/** Shard files of tries by pair (names.ts): their first pair keys, in order, and their bytes. */
export interface PairShards {
  readonly firstKeys: string[];
  readonly files: Uint8Array[];
}

/**
 * Every entry in the trie of each pair of its key (names.ts pairsOf), the pairs in order, their
 * tries cut into shard files of about SHARD_TARGET_BYTES: the names' and the localities' layout.
 */
export function pairShards(entries: Iterable<TrieEntry>): PairShards {
  const byPair = new Map<string, TrieEntry[]>();
  for (const entry of entries)
    for (const pair of new Set([
      ...pairsOf(entry.key),
      ...(entry.lead ? pairsOf(entry.key.subarray(entry.lead)) : []),
    ])) {
      const list = byPair.get(pair);
      if (list === undefined) byPair.set(pair, [entry]);
      else list.push(entry);
    }
  const firstKeys: string[] = [];
  const files: Uint8Array[] = [];
  let shard: (readonly [string, Uint8Array])[] = [];
  let size = 0;
  const flush = () => {
    if (shard.length > 0) files.push(encodeNameShard(shard));
    [shard, size] = [[], 0];
  };
  for (const pair of [...byPair.keys()].sort()) {
    const trie = encodeTrie(byPair.get(pair) as TrieEntry[]);
    if (shard.length > 0 && size + trie.length > SHARD_TARGET_BYTES) flush();
    if (shard.length === 0) firstKeys.push(pair);
    shard.push([pair, trie]);
    size += trie.length;
  }
  flush();
  return { firstKeys, files };
}
