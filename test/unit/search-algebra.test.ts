import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  and,
  difference,
  evaluateTree,
  intersect,
  not,
  or,
  selectRange,
  setCount,
  treeCost,
  unite,
  type ListTree,
  type PositionSet,
} from "../../generator/contract/search/algebra.ts";
import { ByteWriter } from "../../generator/contract/search/bytes.ts";
import { parseStreetFilter } from "../../generator/contract/search/filter.ts";
import {
  allRunStreets,
  passingPlaces,
  passingRuns,
  runOf,
  runStreets,
} from "../../generator/contract/search/filtering.ts";
import { decodePlaceTable, encodePlaceTable } from "../../generator/contract/search/meta.ts";
import { decodePostings } from "../../generator/contract/search/postings.ts";
import { decodeBlocks, encodeBlock } from "../../generator/contract/search/store.ts";

/** Set algebra on posting lists (contract/search/algebra.ts) and lists decoded as columns (postings.ts). */

const list = (...values: number[]) => Int32Array.from(values);
const plain = (...values: number[]): PositionSet => ({
  positions: list(...values),
  negated: false,
});
const negated = (...values: number[]): PositionSet => ({
  positions: list(...values),
  negated: true,
});
const SIZE = 10;
/** The members of a set within [0, SIZE). */
const members = (set: PositionSet) =>
  Array.from({ length: SIZE }, (_, p) => p).filter(
    (p) => set.positions.includes(p) !== set.negated,
  );

describe("set algebra", () => {
  it.each([
    ["intersect", intersect(list(1, 3, 5, 7), list(3, 4, 5, 9)), [3, 5]],
    ["intersect, one empty", intersect(list(), list(1, 2)), []],
    [
      "intersect, sparse against dense (galloping)",
      intersect(
        list(2, 900),
        Int32Array.from({ length: 1000 }, (_, i) => i),
      ),
      [2, 900],
    ],
    ["difference", difference(list(1, 2, 3, 4), list(2, 4, 6)), [1, 3]],
    ["difference of nothing", difference(list(1, 2), list()), [1, 2]],
    ["unite two", unite([list(1, 4), list(2, 4, 9)], 1000), [1, 2, 4, 9]],
    [
      "unite many sparse (sorted)",
      unite([list(5), list(1), list(3, 5), list(0)], 1_000_000),
      [0, 1, 3, 5],
    ],
    [
      "unite dense (bitmap)",
      unite([list(0, 31, 32, 63), list(1, 31, 64)], 70),
      [0, 1, 31, 32, 63, 64],
    ],
  ])("%s", (_, got, expected) => {
    expect(Array.from(got)).toEqual(expected);
  });

  it.each([
    ["a & b", and(plain(1, 2, 3), plain(2, 3, 4), SIZE), [2, 3]],
    ["a & !b", and(plain(1, 2, 3), negated(2), SIZE), [1, 3]],
    ["!a & b", and(negated(1), plain(1, 2), SIZE), [2]],
    ["!a & !b", and(negated(1, 2), negated(2, 3), SIZE), [0, 4, 5, 6, 7, 8, 9]],
    ["a | b", or(plain(1), plain(2), SIZE), [1, 2]],
    ["a | !b", or(plain(1), negated(1, 2), SIZE), [0, 1, 3, 4, 5, 6, 7, 8, 9]],
    ["!a | !b", or(negated(1, 2), negated(2, 3), SIZE), [0, 1, 3, 4, 5, 6, 7, 8, 9]],
    ["!a", not(plain(0, 9)), [1, 2, 3, 4, 5, 6, 7, 8]],
  ])("%s", (_, got, expected) => {
    expect(members(got)).toEqual(expected);
    expect(setCount(got, SIZE)).toBe(expected.length);
  });

  it("evaluates and/or/not trees as the same tree over plain sets would (fast-check)", () => {
    const seed = Number(process.env["SEARCH_SEED"] ?? Date.now() % 2 ** 31);
    console.log(`algebra trees: seed ${seed}`);
    const universe = 200;
    const lists = fc.array(
      fc
        .uniqueArray(fc.nat(universe - 1), { maxLength: 120 })
        .map((values) => Int32Array.from(values.sort((a, b) => a - b))),
      { minLength: 1, maxLength: 5 },
    );
    const tree = (count: number) =>
      fc.letrec<{ tree: ListTree<number> }>((t) => ({
        tree: fc.oneof(
          { depthSize: "small", withCrossShrink: true },
          fc.nat(count - 1).map((list) => ({ op: "list" as const, list })),
          t("tree").map((operand) => ({ op: "not" as const, operand })),
          fc
            .tuple(
              fc.constantFrom("and" as const, "or" as const),
              fc.array(t("tree"), { minLength: 1, maxLength: 3 }),
            )
            .map(([op, operands]) => ({ op, operands })),
        ),
      })).tree;
    const naive = (t: ListTree<number>, sets: Int32Array[], p: number): boolean =>
      t.op === "list"
        ? (sets[t.list] as Int32Array).includes(p)
        : t.op === "not"
          ? !naive(t.operand, sets, p)
          : t.op === "and"
            ? t.operands.every((o) => naive(o, sets, p))
            : t.operands.some((o) => naive(o, sets, p));
    fc.assert(
      fc.property(
        lists.chain((sets) => fc.tuple(fc.constant(sets), tree(sets.length))),
        ([sets, t]) => {
          const got = evaluateTree(
            t,
            (i) => ({ positions: sets[i] as Int32Array, negated: false }),
            universe,
            (x) => treeCost(x, (i) => (sets[i] as Int32Array).length),
          );
          const expected = Array.from({ length: universe }, (_, p) => p).filter((p) =>
            naive(t, sets, p),
          );
          const members = Array.from({ length: universe }, (_, p) => p).filter(
            (p) => got.positions.includes(p) !== got.negated,
          );
          expect(members).toEqual(expected);
          expect(setCount(got, universe)).toBe(expected.length);
          for (const [start, end] of [
            [0, 7],
            [3, 60],
            [expected.length - 2, expected.length + 5],
          ] as const)
            expect(Array.from(selectRange(got, universe, Math.max(0, start), end))).toEqual(
              expected.slice(Math.max(0, start), end),
            );
        },
      ),
      { seed, numRuns: 500 },
    );
  });

  it("the cost model sums the entries of the lists a tree names", () => {
    const t: ListTree<string> = {
      op: "and",
      operands: [
        { op: "list", list: "ab" },
        {
          op: "not",
          operand: {
            op: "or",
            operands: [
              { op: "list", list: "abcd" },
              { op: "list", list: "x" },
            ],
          },
        },
      ],
    };
    expect(treeCost(t, (name) => name.length)).toBe(7);
  });
});

describe("postings", () => {
  it("decodes blocks as columns: the same entries as decodeBlocks, over several blocks", () => {
    const heads = [["Aachener Straße"], ["Zeil"]];
    const out = new ByteWriter();
    encodeBlock(out, heads, [3, 4, 900], [70_000, 0, 5], [0, 1, 1], 3);
    encodeBlock(out, heads.slice(1), [1_000_000, 1_000_001], [1, 2], [0, 0], 2);
    const postings = decodePostings(out.view(), 5);
    expect(Array.from(postings.positions)).toEqual([3, 4, 900, 1_000_000, 1_000_001]);
    const entries = Array.from({ length: 5 }, (_, i) => postings.entry(i)).map((e) => ({
      position: e.position,
      place: e.place,
      head: e.head,
    }));
    const expected = decodeBlocks(out.view()).map((e) => ({
      position: e.position,
      place: e.place,
      head: e.head,
    }));
    expect(entries).toEqual(expected);
    expect([postings.indexOf(900), postings.indexOf(901)]).toEqual([2, -1]);
  });
});

describe("filters as runs and places", () => {
  const heads = [["Ahornweg"], ["Birkenstraße"], ["Eichenweg"]];
  const out = new ByteWriter();
  // Runs of streets: Ahornweg at 0 (2 streets), Birkenstraße at 2 (3), Eichenweg at 10 (1).
  encodeBlock(out, heads, [0, 2, 10], [2, 3, 1], [0, 1, 2], 3);
  const runs = passingRuns(parseStreetFilter("name", "weg"), [decodePostings(out.view(), 3)]);

  it("keeps the runs whose name passes, with their streets", () => {
    expect([Array.from(runs.starts), Array.from(runs.lengths), runs.heads, runs.streets]).toEqual([
      [0, 10],
      [2, 1],
      [["Ahornweg"], ["Eichenweg"]],
      3,
    ]);
    expect(Array.from(allRunStreets(runs))).toEqual([0, 1, 10]);
  });

  it.each([
    [
      "tested",
      false,
      [
        [0, 2],
        [10, 1],
      ],
    ],
    [
      "a literal's own list, untested",
      true,
      [
        [0, 2],
        [2, 3],
        [10, 1],
      ],
    ],
  ])("shows each passing run as it is found, %s", (_, exact, seen) => {
    const passed: [number, number][] = [];
    const list = decodePostings(out.view(), 3);
    passingRuns(parseStreetFilter("name", "weg"), [list], exact as boolean, (start, length) =>
      passed.push([start, length]),
    );
    expect(passed).toEqual(seen);
  });

  it.each([
    [0, 3, [0, 1, 10]],
    [1, 2, [1]],
    [2, 50, [10]],
  ])("streets [%i, %i) of the runs", (start, end, positions) => {
    expect(runStreets(runs, start, end).positions).toEqual(positions);
  });

  it.each([
    [0, 0],
    [1, 0],
    [2, -1],
    [10, 1],
    [11, -1],
  ])("street %i is in run %i", (position, run) => {
    expect(runOf(runs, position)).toBe(run);
  });

  it("passes places by postal code and locality, each value matched once, and counts their streets", () => {
    const table = decodePlaceTable(
      encodePlaceTable(
        [
          { postalCode: "10115", locality: "Berlin", count: 4, listBytes: 1 },
          { postalCode: "20095", locality: "Hamburg", count: 7, listBytes: 1 },
          { postalCode: "10117", locality: "Berlin", count: 2, listBytes: 1 },
        ],
        0,
      ),
    );
    const { pass, streets } = passingPlaces(
      {
        postalCode: parseStreetFilter("postalCode", "^1"),
        locality: parseStreetFilter("locality", "BERL"),
      },
      table,
    );
    expect([Array.from(pass), streets]).toEqual([[1, 0, 1], 6]);
  });
});
