/**
 * What the name tries say of a skeleton (docs/FORMAT.md § 7.11): per street name with that
 * skeleton, a payload
 *
 *   u8 flags (bit 0: the skeleton leaves out the name's leading words, fold.ts; bit 1: another
 *   name has the skeleton too, and a u32 little-endian of how this one is written follows,
 *   fold.ts spellingOf), varint the position of its first street in the country's street
 *   order, varint its streets (they follow one another in the order), u8 words, per word varint
 *   (skeleton length << 2 | allowance)
 *
 * and the keys of the tries a skeleton is in: the pairs of its first four characters (pairsOf). A
 * name is in the trie of each of its pairs, so one typo among a skeleton's first three characters
 * leaves a pair intact among the query's first three, and two among its first four a pair among
 * the query's first six: a walk reads the tries of those pairs (queryPairs) and finds every name
 * within its typos there. A shard file holds the tries of a range of pairs:
 *
 *   varint pairs, per pair its two codes and its trie's bytes (varint), then the tries in order
 */
import { ByteWriter } from "../search/bytes.ts";
import type { WordShape } from "./distance.ts";
import { typoAllowance, type FoldedWord } from "./fold.ts";
import { isFree } from "./trie.ts";
import { varintAt, varintEnd } from "./varint.ts";

export const LEFT_OUT_WORDS = 1;
export const SPELLED = 2;

export interface NamePayload {
  readonly flags: number;
  /**
   * How the name is written (fold.ts spellingOf), when another name has its skeleton (flag
   * SPELLED). Decoded payloads always have the field, so that they share one shape in V8.
   */
  readonly spelling?: number | undefined;
  readonly position: number;
  readonly count: number;
  readonly words: readonly WordShape[];
}

/** Word shapes of folded words: skeleton length and typo allowance. */
export function shapesOf(words: readonly FoldedWord[]): WordShape[] {
  return words.map((word) => ({
    length: Array.from(word.folded).length,
    allowance: /^\d+$/.test(word.folded) ? 0 : typoAllowance(word.letters),
  }));
}

const scratch = new ByteWriter();

export function encodeNamePayload(payload: NamePayload): Uint8Array {
  const out = scratch;
  out.clear();
  const spelled = payload.spelling !== undefined;
  out.raw(Uint8Array.of(payload.flags | (spelled ? SPELLED : 0)));
  if (spelled) {
    const h = payload.spelling ?? 0;
    out.raw(Uint8Array.of(h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff, h >>> 24));
  }
  out.varint(payload.position);
  out.varint(payload.count);
  writeShapes(out, payload.words);
  return out.view().slice();
}

export function writeShapes(out: ByteWriter, words: readonly WordShape[]): void {
  out.raw(Uint8Array.of(Math.min(255, words.length)));
  for (const word of words.slice(0, 255)) out.varint(word.length * 4 + word.allowance);
}

/**
 * Word shapes of up to three words of fewer than 64 characters, one array per shapes (by their
 * bytes as a small integer): a short prefix reads thousands of names of a few shapes, and each new
 * array was garbage for a fresh isolate's first request to collect.
 */
const sharedShapes = new Map<number, readonly WordShape[]>();

/** Reads word shapes at `at` (shared: never changed); the offset after them is shapesEnd(). */
export function readShapes(bytes: Uint8Array, at: number): readonly WordShape[] {
  const count = bytes[at] ?? 0;
  if (count <= 3) {
    let key = count;
    let end = at + 1;
    for (let i = 0; i < count && key >= 0; i++) {
      const value = varintAt(bytes, end);
      end = varintEnd();
      key = value < 256 ? key * 256 + value : -1;
    }
    if (key >= 0) {
      let words = sharedShapes.get(key);
      if (words === undefined) sharedShapes.set(key, (words = decodeShapes(bytes, at)));
      shapesAt = end;
      return words;
    }
  }
  return decodeShapes(bytes, at);
}

function decodeShapes(bytes: Uint8Array, at: number): WordShape[] {
  const count = bytes[at] ?? 0;
  const words: WordShape[] = [];
  shapesAt = at + 1;
  for (let i = 0; i < count; i++) {
    const value = varintAt(bytes, shapesAt);
    shapesAt = varintEnd();
    words.push({ length: Math.floor(value / 4), allowance: value % 4 });
  }
  return words;
}

/** Where the shapes readShapes read last end (no tuple: a fresh isolate's lower tiers pay for each). */
let shapesAt = 0;
export const shapesEnd = (): number => shapesAt;

/** Every payload in bytes [from, to) of a name trie. */
export function namePayloads(bytes: Uint8Array, from: number, to: number): NamePayload[] {
  const out: NamePayload[] = [];
  for (let at = from; at < to;) {
    const flags = bytes[at++] ?? 0;
    let spelling: number | undefined;
    if ((flags & SPELLED) !== 0) {
      spelling =
        ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16)) +
        (bytes[at + 3] ?? 0) * 0x1000000;
      at += 4;
    }
    const position = varintAt(bytes, at);
    const count = varintAt(bytes, varintEnd());
    const words = readShapes(bytes, varintEnd());
    out.push({ flags, position, count, words, spelling });
    at = shapesEnd();
  }
  return out;
}

/**
 * How many leading characters a skeleton's pairs are taken from: an index holds every skeleton in
 * the tries of the pairs of its first INDEXED characters, and a query with `k` typos reads the
 * pairs of its first READ[k]. Two typos among a name's first four characters leave two of them,
 * in order, among the query's first six (two letters added before them at most): one pair the
 * query reads holds the name. One typo among its first three leaves a pair of them among the
 * query's first three.
 */
export const INDEXED = 4;
const READ = [3, 3, 6] as const;

/**
 * The keys of the tries a skeleton is in (`reach`: INDEXED), or that a query with typos reads
 * (READ): the pairs of its first `reach` characters, in order, and of its first `reach` that are
 * not free (trie.ts isFree), so that `mühle` (`muehle`), `mthle` and `muhle` share one, and so do
 * `abend` and `aoend`; with two characters one pair, with one none. The first of each (`exact`:
 * the first two characters) holds every skeleton a query reaches with no typo. A name that starts
 * with leading words (`Am Rosensteg`) is also in the tries of the pairs after them (`ros`), and a
 * query that starts with leading words reads those: the tries of `am…` hold a tenth of all names.
 */
export function pairsOf(codes: Uint8Array, exact = false, reach = INDEXED): string[] {
  const kept: number[] = [];
  for (let i = 0; i < codes.length && kept.length < reach; i++)
    if (i === 0 || !isFree(codes[i] ?? 0, codes[i - 1] ?? 0)) kept.push(codes[i] ?? 0);
  const first = [Array.from(codes.subarray(0, reach)), kept].map(pairsAmong);
  return [...new Set(first.flatMap((pairs) => (exact ? pairs.slice(0, 1) : pairs)))];
}

/** The pairs a query with `k` typos reads (see READ). */
export const queryPairs = (codes: Uint8Array, k: number): string[] =>
  pairsOf(codes, k === 0, READ[Math.min(k, READ.length - 1)] ?? INDEXED);

/** Every pair of the characters (x before y), the first two's first. */
function pairsAmong(chars: readonly number[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < chars.length; i++)
    for (let j = i + 1; j < chars.length; j++)
      pairs.push(String.fromCharCode(chars[i] ?? 0, chars[j] ?? 0));
  return pairs;
}

/** A shard file of the tries of some pairs (in order). */
export function encodeNameShard(
  tries: readonly (readonly [pair: string, trie: Uint8Array])[],
): Uint8Array {
  const out = new ByteWriter();
  out.varint(tries.length);
  for (const [pair, trie] of tries) {
    out.raw(Uint8Array.of(pair.charCodeAt(0), pair.charCodeAt(1)));
    out.varint(trie.length);
  }
  for (const [, trie] of tries) out.raw(trie);
  return out.view().slice();
}

/** The trie of a pair in a shard file; undefined when no name has the pair. */
export function pairTrie(shard: Uint8Array, pair: string): Uint8Array | undefined {
  let count = varintAt(shard, 0);
  let at = varintEnd();
  let offset = 0;
  let [foundAt, foundLength] = [-1, 0];
  const a = pair.charCodeAt(0);
  const b = pair.charCodeAt(1);
  for (; count > 0; count--) {
    const match = shard[at] === a && shard[at + 1] === b;
    const length = varintAt(shard, at + 2);
    if (match) [foundAt, foundLength] = [offset, length];
    offset += length;
    at = varintEnd();
  }
  return foundAt < 0 ? undefined : shard.subarray(at + foundAt, at + foundAt + foundLength);
}
