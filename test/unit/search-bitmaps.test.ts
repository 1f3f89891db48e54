import { describe, expect, it } from "vitest";
import {
  bitmapBytes,
  bitmapChecked,
  checkedLexemes,
  checksDocuments,
  decodeBitmap,
  encodeBitmap,
} from "../../generator/contract/search/bitmaps.ts";
import type { ListTree } from "../../generator/contract/search/algebra.ts";
import type { QueryLeaf } from "../../generator/contract/search/fulltext.ts";
import type { SearchNode } from "../../generator/contract/postgres/tsquery.ts";

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
    { lexeme: "ka", prefix: true, offset: 2 },
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

  const bits = new Map([["straß", decodeBitmap(encodeBitmap(Int32Array.of(1, 4, 7), 10))]]);
  it.each<[string, SearchNode[], number[], number]>([
    ["a word keeps its streets", [word("straß")], [1, 7], 0],
    ["its negation the others", [not(word("straß"))], [2, 3, 9], 0],
    ["a word without a bitmap is left to test", [word("weg")], [1, 2, 3, 7, 9], 1],
    ["so is a prefix", [word("straß", true)], [1, 2, 3, 7, 9], 1],
    ["both at once", [word("straß"), word("weg")], [1, 7], 1],
    ["a phrase keeps the streets of its words, left to test", [phrase], [1, 7], 1],
  ])("%s", (_, checks, kept, rest) => {
    const out = bitmapChecked(Int32Array.of(1, 2, 3, 7, 9), checks, bits);
    expect([Array.from(out.candidates), out.rest.length]).toEqual([kept, rest]);
  });

  it.each<[string, ListTree<QueryLeaf>, string[], boolean]>([
    ["a term checks nothing", term("ki"), [], false],
    ["a check by bitmap needs no document", checked([word("straß")]), ["straß"], false],
    ["nor its negation", checked([not(word("straß"))]), ["straß"], false],
    ["a word without one does", checked([word("weg")]), ["weg"], true],
    ["a prefix does", checked([word("straß", true)]), [], true],
    [
      "a phrase does, its whole words narrowed by bitmaps first",
      {
        op: "list",
        list: { kind: "phrase", node: phrase, driver: { lexeme: "ring", prefix: false } },
      },
      ["straß", "ring"],
      true,
    ],
  ])("%s", (_, plan, lexemes, documents) => {
    expect([checkedLexemes(plan), checksDocuments(plan, bits)]).toEqual([lexemes, documents]);
  });
});
