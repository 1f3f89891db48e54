/**
 * Dense lists as bitmaps over the street positions (`/_s/{cc}/b/{n}.bin`): bit p of 32-bit
 * little-endian word p >>> 5 is set when street p's document has the term. A lexeme, or a
 * two-character prefix (the union of its lexemes' lists), on at least one street in
 * BITMAP_DENSITY has one, a longer prefix on one in LONG_PREFIX_DENSITY (meta.bitmaps names them by termKey, file n the n-th), so a check
 * against a common word or a short prefix (`straße ki`, `platz he` as typed) is a bit test per
 * candidate, not a decode of long lists nor a lexizing of each candidate's name and place. A list
 * holds exactly the streets whose document has its lexeme, so the test is exact.
 */
import type { ListTree } from "./algebra.ts";
import { termKey, type QueryLeaf } from "./fulltext.ts";
import type { SearchNode } from "../postgres/tsquery.ts";

/** A term on at least one street in this many has a bitmap (of about 150 KB nationally). */
export const BITMAP_DENSITY = 256;
/**
 * A prefix of three or more characters, on at least one street in this many: rarer ones are
 * unions of lists short enough to read (a city beside them costs a merge), and a bitmap for each
 * would add a fifth to the index. One in 128 adds a fifth to the bitmaps (and 3-gram counts) and
 * does not lower the costliest requests, which are not such prefixes.
 */
export const LONG_PREFIX_DENSITY = 64;

/** Bytes of a bitmap over `count` streets: whole 32-bit words. */
export const bitmapBytes = (count: number) => ((count + 31) >>> 5) * 4;

/** A bitmap's words as the file's bytes (little-endian). */
export function bitmapWords(words: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  for (let w = 0; w < words.length; w++) view.setUint32(w * 4, words[w] as number, true);
  return bytes;
}

/** A bitmap file's words (the file's bytes are little-endian, as every engine that runs the Worker). */
export function decodeBitmap(bytes: Uint8Array): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >>> 2);
}

/** A check a bitmap decides: a term (its key: termKey), or its negation. */
function bitmapCheck(
  node: SearchNode,
): { readonly lexeme: string; readonly negated: boolean } | undefined {
  if (node.op === "lexeme") return { lexeme: termKey(node), negated: false };
  if (node.op === "not" && node.operand.op === "lexeme")
    return { lexeme: termKey(node.operand), negated: true };
  return undefined;
}

/** The keys of a phrase's terms (each is in every document the phrase matches). */
const phraseLexemes = (node: SearchNode): string[] =>
  node.op === "phrase" ? node.terms.map(termKey) : [];

/** The lexemes of a plan's checks (and phrases) that a bitmap could decide or narrow (those with one, if the index has it). */
export function checkedLexemes(tree: ListTree<QueryLeaf>): string[] {
  if (tree.op === "not") return checkedLexemes(tree.operand);
  if (tree.op !== "list") return tree.operands.flatMap(checkedLexemes);
  const leaf = tree.list;
  if (leaf.kind === "term") return [];
  // A phrase's candidates are on the lists it reads: only its other words' bitmaps narrow them.
  if (leaf.kind === "phrase") {
    const read = [leaf.driver, ...(leaf.narrowing ?? [])].map(termKey);
    return phraseLexemes(leaf.node).filter((key) => !read.includes(key));
  }
  return [
    ...checkedLexemes(leaf.base),
    ...leaf.checks.flatMap((check) => bitmapCheck(check)?.lexeme ?? []),
  ];
}

/** Does evaluating a plan check a candidate against its document (so need the places), bitmaps given? */
export function checksDocuments(
  tree: ListTree<QueryLeaf>,
  bitmaps: ReadonlyMap<string, Uint32Array>,
): boolean {
  if (tree.op === "not") return checksDocuments(tree.operand, bitmaps);
  if (tree.op !== "list") return tree.operands.some((operand) => checksDocuments(operand, bitmaps));
  const leaf = tree.list;
  if (leaf.kind === "term") return false;
  if (leaf.kind === "phrase") return true;
  return (
    checksDocuments(leaf.base, bitmaps) ||
    leaf.checks.some((check) => !bitmaps.has(bitmapCheck(check)?.lexeme ?? "\u0000"))
  );
}

/** The candidates that pass the checks bitmaps decide, and the checks left to test on documents. */
export function bitmapChecked(
  candidates: Int32Array,
  checks: readonly SearchNode[],
  bitmaps: ReadonlyMap<string, Uint32Array> | undefined,
): { readonly candidates: Int32Array; readonly rest: readonly SearchNode[] } {
  const rest: SearchNode[] = [];
  let kept = candidates;
  for (const check of checks) {
    for (const lexeme of phraseLexemes(check)) {
      // A phrase's words are each in its document: a candidate without one is out, the others are tested.
      const bits = bitmaps?.get(lexeme);
      if (bits !== undefined) kept = withBit(kept, bits, 1);
    }
    const decided = bitmapCheck(check);
    const bits = decided === undefined ? undefined : bitmaps?.get(decided.lexeme);
    if (decided === undefined || bits === undefined) {
      rest.push(check);
      continue;
    }
    const want = decided.negated ? 0 : 1;
    kept = withBit(kept, bits, want);
  }
  return { candidates: kept, rest };
}

/** The positions whose bit is `want` (a loop into one array: a typed array's filter is several times slower). */
function withBit(positions: Int32Array, bits: Uint32Array, want: number): Int32Array {
  const out = new Int32Array(positions.length);
  let n = 0;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i] as number;
    if ((((bits[p >>> 5] as number) >>> (p & 31)) & 1) === want) out[n++] = p;
  }
  return out.subarray(0, n);
}
