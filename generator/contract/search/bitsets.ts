/**
 * A query every term of which has a bitmap (bitmaps.ts), and no phrase, evaluated on the bitmaps
 * themselves: `and`, `or` and `-` word by word over the street positions, the count a popcount
 * and a page a select. So `straße fr` as typed costs a few passes over 37,000 words (1.2 million
 * streets), however long its lists.
 */
import type { SearchNode } from "../postgres/tsquery.ts";
import { termKey } from "./fulltext.ts";

/** Can bitmaps answer the query: no phrase, and every term has one (`has`: by termKey)? */
export function bitmapsAnswer(node: SearchNode, has: (key: string) => boolean): boolean {
  switch (node.op) {
    case "lexeme":
      return has(termKey(node));
    case "phrase":
      return false;
    case "not":
      return bitmapsAnswer(node.operand, has);
    default:
      return bitmapsAnswer(node.left, has) && bitmapsAnswer(node.right, has);
  }
}

/** The streets of [0, size) that match, as a bitmap. */
export function evaluateBitmaps(
  node: SearchNode,
  bitmaps: ReadonlyMap<string, Uint32Array>,
  size: number,
): Uint32Array {
  const words = (size + 31) >>> 5;
  const of = (n: SearchNode): Uint32Array => {
    switch (n.op) {
      case "lexeme":
        return bitmaps.get(termKey(n)) ?? new Uint32Array(words);
      case "phrase":
        throw new Error("evaluateBitmaps: a phrase needs positions");
      case "not": {
        const operand = of(n.operand);
        const out = new Uint32Array(words);
        for (let w = 0; w < words; w++) out[w] = ~(operand[w] ?? 0);
        // The universe ends at size: no bit beyond it.
        if (size % 32 !== 0) out[words - 1]! &= (1 << (size % 32)) - 1;
        return out;
      }
      default: {
        const [left, right] = [of(n.left), of(n.right)];
        const out = new Uint32Array(words);
        if (n.op === "and") for (let w = 0; w < words; w++) out[w] = left[w]! & right[w]!;
        else for (let w = 0; w < words; w++) out[w] = left[w]! | right[w]!;
        return out;
      }
    }
  };
  return of(node);
}

/** The number of set bits. */
export function countBits(bits: Uint32Array): number {
  let count = 0;
  for (let w = 0; w < bits.length; w++) count += popcount(bits[w] as number);
  return count;
}

/** The positions of set bits [start, end) in order: words counted up to the start, then read. */
export function selectBits(bits: Uint32Array, start: number, end: number): number[] {
  const out: number[] = [];
  let seen = 0;
  for (let w = 0; w < bits.length && seen < end; w++) {
    let word = bits[w] as number;
    const count = popcount(word);
    if (seen + count <= start) {
      seen += count;
      continue;
    }
    while (word !== 0 && seen < end) {
      const low = word & -word;
      if (seen++ >= start) out.push(w * 32 + 31 - Math.clz32(low));
      word ^= low;
    }
  }
  return out;
}

export function popcount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The number of set bits of positions [from, to). */
export function countRange(bits: Uint32Array, from: number, to: number): number {
  if (to <= from) return 0;
  const [first, last] = [from >>> 5, (to - 1) >>> 5];
  const head = (bits[first] as number) & (-1 << (from & 31));
  const tailMask = (to & 31) === 0 ? -1 : (1 << (to & 31)) - 1;
  if (first === last) return popcount(head & tailMask);
  let count = popcount(head) + popcount((bits[last] as number) & tailMask);
  for (let w = first + 1; w < last; w++) count += popcount(bits[w] as number);
  return count;
}
