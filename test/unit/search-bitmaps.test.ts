import { describe, expect, it } from "vitest";
import {
  bitmapBytes,
  bitmapChecked,
  checkedLexemes,
  checksDocuments,
  bitmapWords,
  BITMAP_DENSITY,
  decodeBitmap,
} from "../../generator/contract/search/bitmaps.ts";
import { writeBitmaps } from "../../generator/build/search-bitmaps.ts";
import type { ListTree } from "../../generator/contract/search/algebra.ts";
import type { QueryLeaf } from "../../generator/contract/search/fulltext.ts";
import type { SearchNode } from "../../generator/contract/postgres/tsquery.ts";

/** A bitmap of `count` streets with these set, as its file's bytes. */
function encodeBitmap(positions: Int32Array, count: number): Uint8Array {
  const words = new Uint32Array(bitmapBytes(count) / 4);
  for (const p of positions) words[p >>> 5]! |= 1 << (p & 31);
  return bitmapWords(words);
}
const setBits = (words: Uint32Array, count: number) =>
  Array.from({ length: count }, (_, p) => p).filter(
    (p) => ((words[p >>> 5] ?? 0) >>> (p & 31)) & 1,
  );

const word = (lexeme: string, prefix = false): SearchNode => ({ op: "lexeme", lexeme, prefix });
const not = (operand: SearchNode): SearchNode => ({ op: "not", operand });
const term = (lexeme: string): ListTree<QueryLeaf> => ({
  op: "list",
  list: { kind: "term", term: { lexeme, prefix: true } },
});
const phrase = {
  op: "phrase",
  terms: [
    { lexeme: "straß", prefix: false, offset: 0 },
    { lexeme: "ring", prefix: false, offset: 1 },
    { lexeme: "ri", prefix: true, offset: 2 },
  ],
} as const;
const checked = (checks: SearchNode[]): ListTree<QueryLeaf> => ({
  op: "list",
  list: { kind: "checked", base: term("ki"), checks },
});

describe("lexeme bitmaps", () => {
  it.each([
    [[], 1],
    [[0, 31, 32, 99], 100],
    [[5, 63], 64],
  ])("round-trips the positions %j of %i streets", (positions, count) => {
    const bytes = encodeBitmap(Int32Array.from(positions), count);
    expect(bytes.byteLength).toBe(bitmapBytes(count));
    const words = decodeBitmap(bytes);
    const set: number[] = [];
    for (let p = 0; p < count; p++) if (((words[p >>> 5] ?? 0) >>> (p & 31)) & 1) set.push(p);
    expect(set).toEqual(positions);
  });

  it("reads a bitmap that does not start at a word boundary", () => {
    const bytes = new Uint8Array(5);
    bytes.set(encodeBitmap(Int32Array.of(3), 32), 1);
    expect(Array.from(decodeBitmap(bytes.subarray(1)))).toEqual([8]);
  });

  const bits = new Map([
    ["=straß", decodeBitmap(encodeBitmap(Int32Array.of(1, 4, 7), 10))],
    ["*ri", decodeBitmap(encodeBitmap(Int32Array.of(2, 7), 10))],
  ]);
  it.each<[string, SearchNode[], number[], number]>([
    ["a word keeps its streets", [word("straß")], [1, 7], 0],
    ["its negation the others", [not(word("straß"))], [2, 3, 9], 0],
    ["a word without a bitmap is left to test", [word("weg")], [1, 2, 3, 7, 9], 1],
    ["so is a prefix without one", [word("straß", true)], [1, 2, 3, 7, 9], 1],
    ["a prefix with one keeps its streets", [word("ri", true)], [2, 7], 0],
    ["both at once", [word("straß"), word("weg")], [1, 7], 1],
    ["a phrase keeps the streets of its words, left to test", [phrase], [7], 1],
  ])("%s", (_, checks, kept, rest) => {
    const out = bitmapChecked(Int32Array.of(1, 2, 3, 7, 9), checks, bits);
    expect([Array.from(out.candidates), out.rest.length]).toEqual([kept, rest]);
  });

  it.each<[string, ListTree<QueryLeaf>, string[], boolean]>([
    ["a term checks nothing", term("ki"), [], false],
    ["a check by bitmap needs no document", checked([word("straß")]), ["=straß"], false],
    ["nor its negation", checked([not(word("straß"))]), ["=straß"], false],
    ["nor a prefix's", checked([word("ri", true)]), ["*ri"], false],
    ["a word without one does", checked([word("weg")]), ["=weg"], true],
    ["a prefix without one does", checked([word("straß", true)]), ["*straß"], true],
    [
      "a phrase does, its whole words but its driver (whose list it reads) narrowed by bitmaps first",
      {
        op: "list",
        list: { kind: "phrase", node: phrase, driver: { lexeme: "ring", prefix: false } },
      },
      ["=straß", "*ri"],
      true,
    ],
  ])("%s", (_, plan, lexemes, documents) => {
    expect([checkedLexemes(plan), checksDocuments(plan, bits)]).toEqual([lexemes, documents]);
  });

  it("are written for dense lexemes and prefixes (longer ones denser), a prefix of the same streets as an alias", () => {
    const count = 2 * BITMAP_DENSITY;
    const range = (from: number, to: number) =>
      Int32Array.from({ length: to - from }, (_, i) => from + i);
    const written: Uint8Array[] = [];
    const keys = writeBitmaps(
      [
        ["a", range(0, 10)], // dense, but too short for a prefix
        ["rab", Int32Array.of(5)],
        ["rin", Int32Array.of(1)],
        ["ring", Int32Array.of(1, 3)], // dense: the prefixes ri, rin and ring are its streets
        ["straß", Int32Array.of(0)],
        ["strauch", Int32Array.of(2)], // st is dense, str and stra (longer) are not
        ["wald", range(20, 28)],
        ["walde", range(30, 38)], // wa, wal, wald: 16 streets, dense; walde: as the lexeme
      ],
      count,
      (n, bytes) => (written[n] = bytes),
    );
    expect(keys).toEqual({
      files: ["=a", "=ring", "=wald", "=walde", "*st", "*wa"],
      aliases: [
        ["*ri", 1],
        ["*wal", 5],
        ["*wald", 5],
        ["*walde", 3],
      ],
    });
    expect(written.map((bytes) => setBits(decodeBitmap(bytes), count))).toEqual([
      Array.from(range(0, 10)),
      [1, 3],
      Array.from(range(20, 28)),
      Array.from(range(30, 38)),
      [0, 2],
      [...range(20, 28), ...range(30, 38)],
    ]);
  });
});
