/**
 * Lexicon and trigram shards (`/_s/{cc}/l/{n}.json`, `/_s/{cc}/g/{n}.json`): a sorted dictionary
 * of lists (key → ListRef) cut into ranges of keys. The meta holds each shard's first group key
 * (a lexeme's group is its lexiconKey, a trigram's the trigram), so a key's shard is found by a
 * binary search and all lexemes of a prefix of two or more characters are in one shard, next to
 * each other. A shard's lists follow each other in the stream in key order, so a shard stores
 * where the first begins and each list's count and block lengths:
 *
 *   {"at": offset, "keys": [key, …], "lists": [[count, blockBytes, …], …], "streets": [n, …]}
 *
 * `streets` only in trigram shards: the streets in a trigram's runs (its list counts runs).
 */
import { compareText, type ListRef } from "./store.ts";

interface ShardFile {
  readonly at: number;
  readonly keys: readonly string[];
  readonly lists: readonly (readonly number[])[];
  readonly streets?: readonly number[];
}

/** One key of a shard as the build writes it. */
export interface ShardEntry {
  readonly key: string;
  readonly ref: ListRef;
  readonly streets?: number;
}

/** A shard's JSON text; its entries in key order, their lists back to back in the stream. */
export function encodeListShard(entries: readonly ShardEntry[]): string {
  const lists: number[][] = [];
  let end = entries[0]?.ref[1] ?? 0;
  for (const { key, ref } of entries) {
    if ((ref[1] ?? 0) !== end)
      throw new Error(
        `search index: the list of ${JSON.stringify(key)} does not follow the previous one`,
      );
    const list = [ref[0] ?? 0];
    for (let k = 2; k < ref.length; k++) list.push((ref[k] ?? 0) - (ref[k - 1] ?? 0));
    lists.push(list);
    end = ref.at(-1) ?? end;
  }
  const file: ShardFile = {
    at: entries[0]?.ref[1] ?? 0,
    keys: entries.map((e) => e.key),
    lists,
    ...(entries.some((e) => e.streets !== undefined)
      ? { streets: entries.map((e) => e.streets ?? 0) }
      : {}),
  };
  return JSON.stringify(file);
}

/** A shard as the Worker reads it: a key's ListRef is made when asked for (a request asks for a few of a shard's keys). */
export class ListShard {
  private constructor(
    private readonly keys: readonly string[],
    private readonly lists: readonly (readonly number[])[],
    /** Where list i begins in the stream. */
    private readonly starts: Float64Array,
    private readonly streetCounts: readonly number[],
  ) {}

  static parse(text: string): ListShard {
    const file = JSON.parse(text) as ShardFile;
    const starts = new Float64Array(file.lists.length);
    let at = file.at;
    file.lists.forEach((list, i) => {
      starts[i] = at;
      for (let k = 1; k < list.length; k++) at += list[k] ?? 0;
    });
    return new ListShard(file.keys, file.lists, starts, file.streets ?? []);
  }

  /** A key's list, with its number of streets (trigram shards; else 0). */
  get(key: string): { readonly ref: ListRef; readonly streets: number } | undefined {
    const i = lowerBound(this.keys, key);
    return this.keys[i] === key
      ? { ref: this.ref(i), streets: this.streetCounts[i] ?? 0 }
      : undefined;
  }

  /** The lists of every key that starts with `prefix`, in key order (so in stream order). */
  withPrefix(prefix: string): ListRef[] {
    const refs: ListRef[] = [];
    for (
      let i = lowerBound(this.keys, prefix);
      i < this.keys.length && (this.keys[i] as string).startsWith(prefix);
      i++
    )
      refs.push(this.ref(i));
    return refs;
  }

  private ref(i: number): ListRef {
    const list = this.lists[i] ?? [0];
    let at = this.starts[i] ?? 0;
    const ref = [list[0] ?? 0, at];
    for (let k = 1; k < list.length; k++) ref.push((at += list[k] ?? 0));
    return ref;
  }
}

/** The shard of a group key: the last whose first key is not after it. */
export function shardFor(firstKeys: readonly string[], group: string): number {
  return Math.max(0, lowerBound(firstKeys, group, true) - 1);
}

/** The first index whose key is after `key` (`after`), or not before it. */
function lowerBound(keys: readonly string[], key: string, after = false): number {
  let [low, high] = [0, keys.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    const c = compareText(keys[mid] as string, key);
    if (c < 0 || (after && c === 0)) low = mid + 1;
    else high = mid;
  }
  return low;
}
