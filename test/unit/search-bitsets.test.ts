import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bitmapsAnswer,
  countBits,
  evaluateBitmaps,
  selectBits,
} from "../../generator/contract/search/bitsets.ts";
import type { SearchNode } from "../../generator/contract/postgres/tsquery.ts";

const word = (lexeme: string, prefix = false): SearchNode => ({ op: "lexeme", lexeme, prefix });

function bitmapOf(positions: readonly number[], size: number): Uint32Array {
  const words = new Uint32Array((size + 31) >>> 5);
  for (const p of positions) words[p >>> 5]! |= 1 << (p & 31);
  return words;
}

/** The query over plain sets of positions. */
function plain(
  node: SearchNode,
  sets: ReadonlyMap<string, Set<number>>,
  size: number,
): Set<number> {
  const all = Array.from({ length: size }, (_, p) => p);
  switch (node.op) {
    case "lexeme":
      return sets.get(`${node.prefix ? "*" : "="}${node.lexeme}`) ?? new Set();
    case "not": {
      const operand = plain(node.operand, sets, size);
      return new Set(all.filter((p) => !operand.has(p)));
    }
    case "and": {
      const [l, r] = [plain(node.left, sets, size), plain(node.right, sets, size)];
      return new Set(all.filter((p) => l.has(p) && r.has(p)));
    }
    case "or": {
      const [l, r] = [plain(node.left, sets, size), plain(node.right, sets, size)];
      return new Set(all.filter((p) => l.has(p) || r.has(p)));
    }
    case "phrase":
      throw new Error("no phrase here");
  }
}

describe("queries evaluated on bitmaps", () => {
  it.each<[string, SearchNode, boolean]>([
    ["a word with a bitmap", word("a"), true],
    ["a prefix with one", word("b", true), true],
    ["a word without one", word("c"), false],
    ["a phrase", { op: "phrase", terms: [{ lexeme: "a", prefix: false, offset: 0 }] }, false],
    [
      "a and not b*",
      { op: "and", left: word("a"), right: { op: "not", operand: word("b", true) } },
      true,
    ],
    ["a or c", { op: "or", left: word("a"), right: word("c") }, false],
  ])("%s: answered by bitmaps %s", (_, node, expected) => {
    expect(bitmapsAnswer(node, (key) => key === "=a" || key === "*b")).toBe(expected);
  });

  const terms = ["=a", "=b", "*c"];
  const tree: fc.Arbitrary<SearchNode> = fc.letrec<{ node: SearchNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom(word("a"), word("b"), word("c", true)),
      fc.record({ op: fc.constant("not" as const), operand: tie("node") }),
      fc.record({
        op: fc.constantFrom("and" as const, "or" as const),
        left: tie("node"),
        right: tie("node"),
      }),
    ),
  })).node;

  it("counts and pages as the same query over plain sets (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.array(fc.nat(99)), { minLength: 3, maxLength: 3 }),
        tree,
        fc.nat(100),
        fc.integer({ min: 1, max: 50 }),
        (size, lists, node, start, length) => {
          const sets = new Map(
            terms.map((key, i) => [key, new Set((lists[i] ?? []).filter((p) => p < size))]),
          );
          const bitmaps = new Map([...sets].map(([key, set]) => [key, bitmapOf([...set], size)]));
          const expected = [...plain(node, sets, size)].sort((a, b) => a - b);
          const found = evaluateBitmaps(node, bitmaps, size);
          expect(countBits(found)).toBe(expected.length);
          expect(selectBits(found, start, start + length)).toEqual(
            expected.slice(start, start + length),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
