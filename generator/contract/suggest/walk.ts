/**
 * A bounded edit-distance walk over a trie (trie.ts): every skeleton within `k` edits of the
 * query (insertions, deletions, substitutions and transpositions of neighbours: the optimal string
 * alignment distance, with trie.ts isFree's free letters and its pairs swapped as one), and in
 * prefix mode every skeleton one of whose prefixes is (search as you type). One row of the
 * edit-distance table per trie character on the path, computed only where a cell can be within
 * `k` (the cells of the rows above that are, and their neighbours: Ukkonen's cut-off); a subtree
 * is left as soon as no cell of its row is within `k`, so a walk reads a few thousand characters
 * however large the trie. In prefix mode a pruned subtree whose path already held a prefix within
 * `k` is a match as a whole: its payloads are collected without computing rows.
 *
 * A walk may answer shorter queries too, each a beginning of `query` (`also`): the first columns
 * of the table are theirs, so one walk serves `Gaenlusstraße 9` as typed and `Gaenlusstraße`
 * beside the postal code 9; a node with payloads is a hit when one of them is within `k` there,
 * and onHit reads their distances with fullAt.
 *
 * Written for a fresh isolate's first request, whose code runs in V8's lower tiers: typed arrays
 * read inline, no allocation per node or row, no call per cell.
 */
import { isDigit, isFree } from "./trie.ts";
import { varintAt, varintEnd } from "./varint.ts";

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
  /** Per row: the cells computed [start, end] (any other is over k), the cells within k [lo, hi], the least cell. */
  private start = new Int32Array(0);
  private end = new Int32Array(0);
  private lo = new Int32Array(0);
  private hi = new Int32Array(0);
  private least = new Int32Array(0);
  /** The cost of inserting the query's j-th character (0 when isFree). */
  private inserts = new Int32Array(0);
  /** 1 where the query's j-th character is a digit (isDigit). */
  private digits = new Uint8Array(0);
  private path = new Uint8Array(0);
  private bytes: Uint8Array = new Uint8Array(0);
  private query: Uint8Array = new Uint8Array(0);
  private depths = 0;
  private k = 0;
  private prefix = false;
  private onHit: OnHit = () => true;
  private stopped = false;
  private also: readonly number[] = [];
  /** The depth of the hit being reported (-1 in a collected subtree, whose rows are not computed). */
  private hitDepth = -1;
  /** Collected subtrees so far, in every walk of this walker: the number of the one being collected. */
  private subtrees = 0;

  /**
   * Walks the trie `bytes` for `query` within `k` edits (prefix mode: of a prefix of a skeleton),
   * and for its beginnings of the lengths `also` (whole skeletons only: fullAt).
   */
  walk(
    bytes: Uint8Array,
    query: Uint8Array,
    k: number,
    prefix: boolean,
    onHit: OnHit,
    also: readonly number[] = [],
  ): void {
    const m = query.length;
    const depths = m + k + FREE_DEPTH;
    if (this.rows.length < (m + 1) * depths) this.rows = new Int32Array((m + 1) * depths);
    if (this.lo.length < depths) {
      for (const name of ["start", "end", "lo", "hi", "least"] as const)
        this[name] = new Int32Array(depths);
      this.path = new Uint8Array(depths);
    }
    if (this.inserts.length < m + 2) {
      this.inserts = new Int32Array(m + 2);
      this.digits = new Uint8Array(m + 2);
    }
    const { rows, inserts, digits } = this;
    let hi = 0;
    rows[0] = 0;
    for (let j = 1; j <= m; j++) {
      inserts[j] = isFree(query[j - 1] as number, query[j - 2] ?? 0) ? 0 : 1;
      digits[j] = isDigit(query[j - 1] as number) ? 1 : 0;
      rows[j] = (rows[j - 1] as number) + (inserts[j] as number);
      if ((rows[j] as number) <= k) hi = j;
    }
    inserts[m + 1] = 1;
    [this.start[0], this.end[0], this.lo[0], this.hi[0], this.least[0]] = [0, m, 0, hi, 0];
    this.bytes = bytes;
    this.query = query;
    this.depths = depths;
    this.k = k;
    this.prefix = prefix;
    this.onHit = onHit;
    this.also = also;
    this.stopped = false;
    if (bytes.length > 0) this.visit(0, 0, prefix ? this.within(0, m) : FAR);
  }

  /** During onHit: the distance of the query's first `length` characters to the hit's skeleton (FAR when over k). */
  fullAt(length: number): number {
    return this.hitDepth < 0 ? FAR : this.within(this.hitDepth, length);
  }

  /** During onHit: the collected subtree of the hit (a number of its own; its names share path, depth and prefix distance), -1 when none. */
  get subtree(): number {
    return this.hitDepth < 0 ? this.subtrees : -1;
  }

  /** Whether a beginning of the query (`also`) is within k of row d's skeleton. */
  private alsoWithin(d: number): boolean {
    const also = this.also;
    for (let i = 0; i < also.length; i++)
      if (this.within(d, also[i] as number) <= this.k) return true;
    return false;
  }

  /** Cell (d, j) when within k; FAR otherwise. */
  private within(d: number, j: number): number {
    if (j < (this.start[d] as number) || j > (this.end[d] as number)) return FAR;
    const v = this.rows[d * (this.query.length + 1) + j] as number;
    return v <= this.k ? v : FAR;
  }

  private visit(at: number, depth: number, best: number): void {
    const bytes = this.bytes;
    const m = this.query.length;
    let p = at;
    const length = bytes[p++] as number;
    let d = depth;
    for (let i = 0; i < length; i++) {
      const code = bytes[p + i] as number;
      this.path[d] = code;
      d++;
      const alive = d < this.depths && this.row(d, code);
      if (this.prefix && alive) {
        const reached = this.within(d, m);
        if (reached < best) best = reached;
      }
      if (!alive) {
        if (this.prefix && best <= this.k) {
          this.subtrees++;
          this.collect(p + length, best, d);
        }
        return;
      }
    }
    p += length;
    const payloadBytes = varintAt(bytes, p);
    const from = varintEnd();
    p = from + payloadBytes;
    if (payloadBytes > 0) {
      const full = this.within(d, m);
      if (full <= this.k || (this.prefix && best <= this.k) || this.alsoWithin(d)) {
        this.hitDepth = d;
        if (!this.onHit(from, p, full, this.prefix ? best : FAR, this.path, d)) {
          this.stopped = true;
          return;
        }
      }
    }
    let children = varintAt(bytes, p);
    let next = varintEnd();
    for (; children > 0 && !this.stopped; children--) {
      const childBytes = varintAt(bytes, next);
      const child = varintEnd();
      this.visit(child, d, best);
      next = child + childBytes;
    }
  }

  /** Every payload from `at` (a node's payload bytes) down its subtree, as prefix matches at distance `best`. */
  private collect(at: number, best: number, depth: number): void {
    const bytes = this.bytes;
    const payloadBytes = varintAt(bytes, at);
    const from = varintEnd();
    const p = from + payloadBytes;
    this.hitDepth = -1;
    if (payloadBytes > 0 && !this.onHit(from, p, FAR, best, this.path, depth)) {
      this.stopped = true;
      return;
    }
    let children = varintAt(bytes, p);
    let next = varintEnd();
    for (; children > 0 && !this.stopped; children--) {
      const childBytes = varintAt(bytes, next);
      const child = varintEnd();
      this.collect(child + 1 + (bytes[child] as number), best, depth);
      next = child + childBytes;
    }
  }

  /**
   * Row `d` of the table (the path's d-th character is `code`), only where a cell can be within
   * k; records the cells computed and those within k, and returns whether a row below may still
   * have one: this row has, or a swap from one of the two rows above it may (a cell within k - 1).
   */
  private row(d: number, code: number): boolean {
    const { query, rows, inserts, digits, k, path, start, end, lo, hi, least } = this;
    const m = query.length;
    const width = m + 1;
    const cur = d * width;
    const prev = cur - width;
    const before = d >= 2 ? (path[d - 2] as number) : -1;
    const third = d >= 3 ? (path[d - 3] as number) : -1;
    // A letter swapped with a transliteration's pair (ü written ue: `rcue` for `ruec`) is one swap.
    const pairFirst = d >= 3 && isFree(before, third);
    const pairLast = d >= 3 && isFree(code, before);
    const remove = isFree(code, before) ? 0 : 1;
    const codeIsDigit = isDigit(code) ? 1 : 0;
    // The rows above: computed cells [s, e] (others over k).
    const s1 = start[d - 1] as number;
    const e1 = end[d - 1] as number;
    const s2 = d >= 2 ? (start[d - 2] as number) : 1;
    const e2 = d >= 2 ? (end[d - 2] as number) : 0;
    const s3 = d >= 3 ? (start[d - 3] as number) : 1;
    const e3 = d >= 3 ? (end[d - 3] as number) : 0;
    // Where this row's cells can be within k: beside the cells within k of the rows above.
    let from = lo[d - 1] as number;
    let to = (hi[d - 1] as number) + 1;
    if (d >= 2 && (hi[d - 2] as number) >= 0) {
      from = Math.min(from, (lo[d - 2] as number) + 2);
      to = Math.max(to, (hi[d - 2] as number) + 2);
    }
    if (d >= 3 && (hi[d - 3] as number) >= 0) {
      from = Math.min(from, (lo[d - 3] as number) + 3);
      to = Math.max(to, (hi[d - 3] as number) + 3);
    }
    let rowLo = width;
    let rowHi = -1;
    let rowLeast = FAR;
    let left = FAR;
    let first = from;
    if (from <= 0) {
      left = (s1 <= 0 ? (rows[prev] as number) : FAR) + remove;
      rows[cur] = left;
      rowLeast = left;
      if (left <= k) rowLo = rowHi = 0;
      first = 0;
      from = 1;
    }
    let j = from;
    for (; j <= m && (j <= to || left + (inserts[j] as number) <= k); j++) {
      const q = query[j - 1] as number;
      const substitute = q === code ? 0 : digits[j] === codeIsDigit ? 1 : FAR;
      let v = (j - 1 >= s1 && j - 1 <= e1 ? (rows[prev + j - 1] as number) : FAR) + substitute;
      const up = (j >= s1 && j <= e1 ? (rows[prev + j] as number) : FAR) + remove;
      if (up < v) v = up;
      const insertion = left + (inserts[j] as number);
      if (insertion < v) v = insertion;
      if (j >= 2 && q === before && query[j - 2] === code && j - 2 >= s2 && j - 2 <= e2) {
        const swap = (rows[prev - width + j - 2] as number) + 1;
        if (swap < v) v = swap;
      }
      if (
        j >= 3 &&
        j - 3 >= s3 &&
        j - 3 <= e3 &&
        ((pairFirst && query[j - 3] === code && query[j - 2] === third && q === before) ||
          (pairLast && query[j - 3] === before && query[j - 2] === code && q === third))
      ) {
        const swap = (rows[prev - 2 * width + j - 3] as number) + 1;
        if (swap < v) v = swap;
      }
      rows[cur + j] = v;
      left = v;
      if (v < rowLeast) rowLeast = v;
      if (v <= k) {
        if (rowLo > j) rowLo = j;
        rowHi = j;
      }
    }
    start[d] = first;
    end[d] = j - 1;
    lo[d] = rowLo;
    hi[d] = rowHi;
    least[d] = rowLeast;
    return rowHi >= 0 || (least[d - 1] as number) < k || (d >= 2 && (least[d - 2] as number) < k);
  }
}
