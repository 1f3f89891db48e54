/**
 * A bounded edit-distance walk over a trie (trie.ts): every skeleton within `k` edits of the
 * query (insertions, deletions, substitutions and transpositions of neighbours: the optimal string
 * alignment distance, with trie.ts isFree's free letters and its pairs swapped as one), and in
 * prefix mode every skeleton one of whose prefixes is (search as you type). One row of the
 * edit-distance table per trie character on the path, computed only where a cell can be within
 * `k` (the cells of the row above that are, and their neighbours: Ukkonen's cut-off); a subtree is
 * left as soon as no cell of its row is within `k`, so a walk reads a few thousand characters
 * however large the trie. In prefix mode a pruned subtree whose path already held a prefix within
 * `k` is a match as a whole: its payloads are collected without computing rows.
 */
import { isFree } from "./trie.ts";

/** No distance within any bound a walk takes (a walk's k is at most MAX_TYPOS). */
export const FAR = 99;

/** Depth past the query's length and k to which rows are kept: free letters (isFree) let a skeleton run longer. */
const FREE_DEPTH = 8;

/**
 * What a walk found at a node with payloads: the payloads' bytes [from, to); `full`, the query's
 * distance to the node's skeleton (FAR when over k); `prefix`, its least distance to a prefix of
 * it (prefix walks; FAR otherwise); `path`, the skeleton's codes [0, depth) as far as the walk
 * computed rows (a collected subtree's path ends where its rows did). Returns false to stop.
 */
export type OnHit = (
  from: number,
  to: number,
  full: number,
  prefix: number,
  path: Uint8Array,
  depth: number,
) => boolean;

export class TrieWalker {
  private rows = new Int32Array(0);
  /** Per row, the first and last cell within k (lo > hi: none), and its least cell. */
  private lo = new Int32Array(0);
  private hi = new Int32Array(0);
  private least = new Int32Array(0);
  /** The cost of inserting the query's j-th character (0 when isFree). */
  private inserts = new Int32Array(0);
  private path = new Uint8Array(0);
  private bytes = new Uint8Array(0);
  private query = new Uint8Array(0);
  private depths = 0;
  private k = 0;
  private prefix = false;
  private onHit: OnHit = () => true;
  private stopped = false;

  /** Walks the trie `bytes` for `query` within `k` edits (prefix mode: of a prefix of a skeleton). */
  walk(bytes: Uint8Array, query: Uint8Array, k: number, prefix: boolean, onHit: OnHit): void {
    const m = query.length;
    const width = m + 1;
    const depths = m + k + FREE_DEPTH;
    if (this.rows.length < width * depths) this.rows = new Int32Array(width * depths);
    if (this.lo.length < depths) {
      this.lo = new Int32Array(depths);
      this.hi = new Int32Array(depths);
      this.least = new Int32Array(depths);
      this.path = new Uint8Array(depths);
    }
    if (this.inserts.length < width + 1) this.inserts = new Int32Array(width + 1);
    let hi = 0;
    this.rows[0] = 0;
    for (let j = 1; j <= m; j++) {
      this.inserts[j] = isFree(query[j - 1] ?? 0, query[j - 2] ?? 0) ? 0 : 1;
      this.rows[j] = (this.rows[j - 1] ?? 0) + (this.inserts[j] ?? 1);
      if ((this.rows[j] ?? FAR) <= k) hi = j;
    }
    this.inserts[m + 1] = 1;
    this.lo[0] = 0;
    this.hi[0] = hi;
    this.least[0] = 0;
    Object.assign(this, { bytes, query, depths, k, prefix, onHit, stopped: false });
    if (bytes.length > 0) this.visit(0, 0, prefix ? this.cell(0, m) : FAR);
  }

  /** Cell (d, j): its distance when within k, FAR otherwise. */
  private cell(d: number, j: number): number {
    return j >= (this.lo[d] ?? 1) && j <= (this.hi[d] ?? 0)
      ? (this.rows[d * (this.query.length + 1) + j] ?? FAR)
      : FAR;
  }

  private visit(at: number, depth: number, best: number): void {
    const bytes = this.bytes;
    const m = this.query.length;
    let p = at;
    const length = bytes[p++] ?? 0;
    let d = depth;
    for (let i = 0; i < length; i++) {
      const code = bytes[p + i] ?? 0;
      this.path[d] = code;
      d++;
      const within = d < this.depths && this.row(d, code);
      if (this.prefix && within) best = Math.min(best, this.cell(d, m));
      if (!within) {
        if (this.prefix && best <= this.k) this.collect(p + length, best, d);
        return;
      }
    }
    p += length;
    const [payloadBytes, from] = readVarint(bytes, p);
    p = from + payloadBytes;
    if (payloadBytes > 0) {
      const full = this.cell(d, m);
      if (full <= this.k || (this.prefix && best <= this.k)) {
        const prefixDistance = this.prefix ? best : FAR;
        if (!this.onHit(from, p, full, prefixDistance, this.path, d)) {
          this.stopped = true;
          return;
        }
      }
    }
    let [children, next] = readVarint(bytes, p);
    for (; children > 0 && !this.stopped; children--) {
      const [childBytes, child] = readVarint(bytes, next);
      this.visit(child, d, best);
      next = child + childBytes;
    }
  }

  /** Every payload from `at` (a node's payload bytes) down its subtree, as prefix matches at distance `best`. */
  private collect(at: number, best: number, depth: number): void {
    const bytes = this.bytes;
    const [payloadBytes, from] = readVarint(bytes, at);
    const p = from + payloadBytes;
    if (payloadBytes > 0 && !this.onHit(from, p, FAR, best, this.path, depth)) {
      this.stopped = true;
      return;
    }
    let [children, next] = readVarint(bytes, p);
    for (; children > 0 && !this.stopped; children--) {
      const [childBytes, child] = readVarint(bytes, next);
      this.collect(child + 1 + (bytes[child] ?? 0), best, depth);
      next = child + childBytes;
    }
  }

  /**
   * Row `d` of the table (the path's d-th character is `code`), only where a cell can be within
   * k; records the row's cells within k (lo, hi) and returns whether a row below may still have
   * one: this row has, or a swap from one of the two rows above it may (a cell within k - 1).
   */
  private row(d: number, code: number): boolean {
    const { query, rows, inserts, k } = this;
    const m = query.length;
    const width = m + 1;
    const cur = d * width;
    const before = d >= 2 ? (this.path[d - 2] ?? 0) : -1;
    const third = d >= 3 ? (this.path[d - 3] ?? 0) : -1;
    // A letter swapped with a transliteration's pair (ü written ue: `rcue` for `ruec`) is one swap.
    const pairFirst = d >= 3 && isFree(before, third);
    const pairLast = d >= 3 && isFree(code, before);
    const remove = isFree(code, before) ? 0 : 1;
    let start = this.lo[d - 1] ?? 0;
    let end = (this.hi[d - 1] ?? 0) + 1;
    if (d >= 2) {
      start = Math.min(start, (this.lo[d - 2] ?? 0) + 2);
      end = Math.max(end, (this.hi[d - 2] ?? 0) + 2);
    }
    if (d >= 3) {
      start = Math.min(start, (this.lo[d - 3] ?? 0) + 3);
      end = Math.max(end, (this.hi[d - 3] ?? 0) + 3);
    }
    let [lo, hi, least] = [width, -1, FAR];
    let left = FAR;
    if (start <= 0) {
      left = this.cell(d - 1, 0) + remove;
      rows[cur] = left;
      least = left;
      if (left <= k) [lo, hi] = [0, 0];
      start = 1;
    }
    for (let j = start; j <= m && (j <= end || left + (inserts[j] ?? 1) <= k); j++) {
      const q = query[j - 1] ?? 0;
      let v = this.cell(d - 1, j - 1) + (q === code ? 0 : 1);
      const deletion = this.cell(d - 1, j) + remove;
      if (deletion < v) v = deletion;
      const insertion = left + (inserts[j] ?? 1);
      if (insertion < v) v = insertion;
      if (j >= 2 && d >= 2 && q === before && query[j - 2] === code) {
        const transposition = this.cell(d - 2, j - 2) + 1;
        if (transposition < v) v = transposition;
      }
      if (
        j >= 3 &&
        ((pairFirst && query[j - 3] === code && query[j - 2] === third && q === before) ||
          (pairLast && query[j - 3] === before && query[j - 2] === code && q === third))
      ) {
        const swap = this.cell(d - 3, j - 3) + 1;
        if (swap < v) v = swap;
      }
      rows[cur + j] = v;
      left = v;
      if (v < least) least = v;
      if (v <= k) {
        if (lo > j) lo = j;
        hi = j;
      }
    }
    this.lo[d] = lo;
    this.hi[d] = hi;
    this.least[d] = least;
    return hi >= 0 || (this.least[d - 1] ?? FAR) < k || (d >= 2 && (this.least[d - 2] ?? FAR) < k);
  }
}

/** A varint at `at`: its value and the offset after it. */
export function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let byte = bytes[at++] ?? 0;
  if (byte < 0x80) return [byte, at];
  let value = byte & 0x7f;
  let scale = 0x80;
  for (;;) {
    byte = bytes[at++] ?? 0;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, at];
    scale *= 0x80;
  }
}
