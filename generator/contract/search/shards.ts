/**
 * Lexicon and n-gram shards (`/_s/{cc}/l/{n}.bin`, `/_s/{cc}/g/{n}.bin`): a sorted dictionary of
 * lists (key → ListRef) cut into ranges of keys. The meta holds each shard's first group key (a
 * lexeme's group is its lexiconKey, an n-gram's the n-gram), so a key's shard is found by a
 * binary search and all lexemes of a prefix of two or more characters are in one shard, next to
 * each other. A shard's lists follow each other in the stream in key order, so a shard stores
 * where the first begins and each list's count and block lengths, as varints:
 *
 *   at (the first list's stream offset), keys, has streets (0 or 1), text bytes; the keys' text
 *   (UTF-8, back to back); per key: its length (UTF-16 units), its list's count, blocks and each
 *   block's bytes, and (n-gram shards) the streets in its runs (its list counts runs)
 *
 * Binary rather than JSON: a request reads one to six shards, and a fresh isolate parsed each
 * JSON shard's nested arrays in about a millisecond; this is one pass over its numbers.
 */
import { ByteReader, ByteWriter } from "./bytes.ts";
import { compareText, type ListRef } from "./store.ts";

/** A key's list and the streets in its runs, as a shard gives it. */
export type Listed = { readonly ref: ListRef; readonly streets: number };

/** One key of a shard as the build writes it. */
export interface ShardEntry {
  readonly key: string;
  readonly ref: ListRef;
  readonly streets?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A shard's bytes; its entries in key order, their lists back to back in the stream. */
export function encodeListShard(entries: readonly ShardEntry[]): Uint8Array {
  const out = new ByteWriter();
  const withStreets = entries.some((e) => e.streets !== undefined);
  const text = encoder.encode(entries.map((e) => e.key).join(""));
  for (const n of [entries[0]?.ref[1] ?? 0, entries.length, withStreets ? 1 : 0, text.length])
    out.varint(n);
  out.raw(text);
  let end = entries[0]?.ref[1] ?? 0;
  for (const { key, ref, streets } of entries) {
    if ((ref[1] ?? 0) !== end)
      throw new Error(
        `search index: the list of ${JSON.stringify(key)} does not follow the previous one`,
      );
    out.varint(key.length);
    out.varint(ref[0] ?? 0);
    out.varint(ref.length - 2);
    for (let k = 2; k < ref.length; k++) out.varint((ref[k] ?? 0) - (ref[k - 1] ?? 0));
    if (withStreets) out.varint(streets ?? 0);
    end = ref.at(-1) ?? end;
  }
  return out.view().slice();
}

/**
 * A shard as the Worker reads it: one pass over its numbers gives each key's place in the text
 * and in the numbers; a key is compared as a slice of the text, and its ListRef is made when
 * asked for (a request asks for a few of a shard's keys).
 */
export class ListShard {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly text: string,
    /** Key i is text[keyStarts[i], keyStarts[i + 1]). */
    private readonly keyStarts: Int32Array,
    /** Where key i's count is in `bytes`. */
    private readonly numbersAt: Int32Array,
    /** Where list i begins in the stream. */
    private readonly starts: Float64Array,
    private readonly streetCounts: Int32Array | undefined,
  ) {}

  static parse(bytes: Uint8Array): ListShard {
    const reader = new ByteReader(bytes);
    let at = reader.varint();
    const keys = reader.varint();
    const withStreets = reader.varint() === 1;
    const text = reader.text(reader.varint());
    const keyStarts = new Int32Array(keys + 1);
    const numbersAt = new Int32Array(keys);
    const starts = new Float64Array(keys);
    const streets = withStreets ? new Int32Array(keys) : undefined;
    for (let i = 0; i < keys; i++) {
      keyStarts[i + 1] = (keyStarts[i] ?? 0) + reader.varint();
      numbersAt[i] = reader.at;
      starts[i] = at;
      reader.varint();
      for (let blocks = reader.varint(); blocks > 0; blocks--) at += reader.varint();
      if (streets !== undefined) streets[i] = reader.varint();
    }
    return new ListShard(bytes, text, keyStarts, numbersAt, starts, streets);
  }

  /** A key's list, with its number of streets (n-gram shards; else 0). */
  get(key: string): Listed | undefined {
    const i = this.lowerBound(key);
    return i < this.numbersAt.length && this.key(i) === key
      ? { ref: this.ref(i), streets: this.streetCounts?.[i] ?? 0 }
      : undefined;
  }

  /** The lists of every key that starts with `prefix`, in key order (so in stream order). */
  withPrefix(prefix: string): ListRef[] {
    const refs: ListRef[] = [];
    for (
      let i = this.lowerBound(prefix);
      i < this.numbersAt.length && this.key(i).startsWith(prefix);
      i++
    )
      refs.push(this.ref(i));
    return refs;
  }

  private key(i: number): string {
    return this.text.slice(this.keyStarts[i], this.keyStarts[i + 1]);
  }

  /** The first key not before `key`. */
  private lowerBound(key: string): number {
    let [low, high] = [0, this.numbersAt.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareText(this.key(mid), key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private ref(i: number): ListRef {
    const reader = new ByteReader(this.bytes, this.numbersAt[i] ?? 0);
    let at = this.starts[i] ?? 0;
    const ref = [reader.varint(), at];
    for (let blocks = reader.varint(); blocks > 0; blocks--) ref.push((at += reader.varint()));
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
