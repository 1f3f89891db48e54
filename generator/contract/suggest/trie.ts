/**
 * The suggestions' dictionaries (docs/FORMAT.md § 7.11): skeletons as a compressed trie (a
 * Patricia trie, one edge label per run of single children) written in preorder, so that a
 * bounded edit-distance walk (walk.ts) reads the bytes as they are, without decoding, and skips a
 * subtree it has pruned by its length. A node:
 *
 *   label length (one byte, < 128), label (alphabet codes), varint payload bytes, payloads,
 *   varint children, per child: varint child bytes, child node
 *
 * The payloads of the skeletons that end at the node follow its label (what they hold is the
 * owner's: names.ts, places.ts). Skeleton characters are coded by the index's alphabet (1..254);
 * a character of a request outside it is NO_CODE, which equals no character of a name.
 */

export const NO_CODE = 255;
/** Longest edge label: its length is one byte below 0x80, a varint of one byte. */
const MAX_LABEL = 127;

/** Every alphabet starts with these (Alphabet.of), so their codes are fixed. */
const BASE = "abcdefghijklmnopqrstuvwxyz0123456789";
const [A, E, O, S, U] = ["a", "e", "o", "s", "u"].map((ch) => BASE.indexOf(ch) + 1);

/**
 * Whether a character (code) after another is free to add or leave out: an `e` after `a`, `o` or
 * `u` (ä is written ae) and an `s` after `s` (ß is written ss). Muller is then Müller, and Strase
 * Straße, without a typo.
 */
export const isFree = (code: number, before: number): boolean =>
  (code === E && (before === A || before === O || before === U)) || (code === S && before === S);

const [ZERO, NINE] = [BASE.indexOf("0") + 1, BASE.indexOf("9") + 1];

/**
 * Whether a character (code) is a digit. A digit and a letter are never one typo apart, only a
 * deletion and an insertion: the house number typed after `Kieler Straeß 6` is not the last `e`
 * of Kieler Straße, so Kieler Straße 6 (one typo) ranks before it (two).
 */
export const isDigit = (code: number): boolean => code >= ZERO && code <= NINE;

/** The skeleton characters of an index, coded 1..254 in the order given (the meta's `alphabet`). */
export class Alphabet {
  private readonly codes = new Map<number, number>();
  constructor(readonly characters: string) {
    Array.from(characters).forEach((ch, i) =>
      this.codes.set(ch.codePointAt(0) ?? 0, Math.min(i + 1, NO_CODE)),
    );
  }

  /** A skeleton as codes (characters outside the alphabet: NO_CODE). */
  encode(skeleton: string): Uint8Array {
    const chars = Array.from(skeleton);
    const out = new Uint8Array(chars.length);
    chars.forEach((ch, i) => (out[i] = this.codes.get(ch.codePointAt(0) ?? 0) ?? NO_CODE));
    return out;
  }

  /** The alphabet of some skeletons: a–z and 0–9 first, then the others by code point. */
  static of(skeletons: Iterable<string>): Alphabet {
    const base = BASE;
    const others = new Set<string>();
    for (const skeleton of skeletons)
      for (const ch of skeleton) if (!base.includes(ch)) others.add(ch);
    return new Alphabet(
      base +
        [...others]
          .sort()
          .slice(0, NO_CODE - 1 - base.length)
          .join(""),
    );
  }
}

/** One skeleton of a trie with what its payload says of it. */
export interface TrieEntry {
  readonly key: Uint8Array;
  readonly payload: Uint8Array;
  /** Characters of the key's leading words (fold.ts withoutLeadingWords): it is also keyed by the pairs after them (names.ts). */
  readonly lead?: number;
}

export function compareCodes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return a.length - b.length;
}

/** The trie of some entries (an entry's key may repeat: its payloads follow one another). */
export function encodeTrie(entries: readonly TrieEntry[]): Uint8Array {
  const sorted = [...entries].sort(
    (a, b) => compareCodes(a.key, b.key) || compareCodes(a.payload, b.payload),
  );
  const root = nodeOf(sorted, 0, sorted.length, 0);
  const out = new Uint8Array(root.size);
  write(root, out, 0);
  return out;
}

/** A node before it is written: views of its label and payloads, its children, its size in bytes. */
interface Node {
  readonly label: Uint8Array;
  readonly payloads: readonly Uint8Array[];
  readonly payloadBytes: number;
  readonly children: readonly Node[];
  readonly size: number;
}

const varintLength = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : 4);

function nodeOf(sorted: readonly TrieEntry[], lo: number, hi: number, depth: number): Node {
  const first = (sorted[lo] as TrieEntry).key;
  const last = (sorted[hi - 1] as TrieEntry).key;
  // Sorted: what the first and the last share, every entry of the range shares.
  let end = depth;
  const limit = Math.min(first.length, last.length, depth + MAX_LABEL);
  while (end < limit && first[end] === last[end]) end++;
  let at = lo;
  const payloads: Uint8Array[] = [];
  let payloadBytes = 0;
  for (; at < hi && (sorted[at] as TrieEntry).key.length === end; at++) {
    const payload = (sorted[at] as TrieEntry).payload;
    payloads.push(payload);
    payloadBytes += payload.length;
  }
  const children: Node[] = [];
  while (at < hi) {
    const code = (sorted[at] as TrieEntry).key[end];
    let next = at + 1;
    while (next < hi && (sorted[next] as TrieEntry).key[end] === code) next++;
    children.push(nodeOf(sorted, at, next, end));
    at = next;
  }
  let size = 1 + (end - depth) + varintLength(payloadBytes) + payloadBytes;
  size += varintLength(children.length);
  for (const child of children) size += varintLength(child.size) + child.size;
  return { label: first.subarray(depth, end), payloads, payloadBytes, children, size };
}

function write(node: Node, out: Uint8Array, at: number): number {
  out[at++] = node.label.length;
  out.set(node.label, at);
  at += node.label.length;
  at = writeVarint(out, at, node.payloadBytes);
  for (const payload of node.payloads) {
    out.set(payload, at);
    at += payload.length;
  }
  at = writeVarint(out, at, node.children.length);
  for (const child of node.children) {
    at = writeVarint(out, at, child.size);
    at = write(child, out, at);
  }
  return at;
}

function writeVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 0x80);
  }
  out[at++] = value;
  return at;
}
