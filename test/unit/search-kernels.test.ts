import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as k from "../../generator/contract/search/kernels.ts";

/** The typed-array kernels of street search (contract/search/kernels.ts) against plain sets. */

const list = (...values: number[]) => Int32Array.from(values);
const set = (negated: boolean, ...values: number[]): k.Streets => ({
  positions: list(...values),
  negated,
});
const SIZE = 10;
/** The members of a set within [0, SIZE). */
const members = (s: k.Streets, size = SIZE) =>
  Array.from({ length: size }, (_, p) => p).filter((p) => s.positions.includes(p) !== s.negated);
const bitmapOf = (positions: readonly number[], size: number) => {
  const bits = new Uint32Array((size + 31) >>> 5);
  k.fillPositions(bits, Int32Array.from(positions));
  return bits;
};
const sorted = fc
  .uniqueArray(fc.nat(199), { maxLength: 120 })
  .map((values) => Int32Array.from(values.sort((a, b) => a - b)));

describe("sets of streets", () => {
  it.each([
    ["intersect", k.intersect(list(1, 3, 5, 7), list(3, 4, 5, 9)), [3, 5]],
    ["intersect, one empty", k.intersect(list(), list(1, 2)), []],
    ["intersect, a rare list in a long one", k.intersect(list(900), list(1, 2, 900, 901)), [900]],
    ["difference", k.difference(list(1, 2, 3, 4), list(2, 4, 6)), [1, 3]],
    ["difference of nothing", k.difference(list(1, 2), list()), [1, 2]],
    ["unite two", k.unite([list(1, 4), list(2, 4, 9)], 1000), [1, 2, 4, 9]],
    ["unite many", k.unite([list(5), list(), list(1, 5), list(3)], 10), [1, 3, 5]],
    ["unite one", k.unite([list(), list(7)], 10), [7]],
    ["merge, the first list's rest copied", k.merge(list(1, 8, 9), list(2, 8)), [1, 2, 8, 9]],
    ["merge, the second list's rest copied", k.merge(list(3), list(1, 3, 6, 7)), [1, 3, 6, 7]],
  ])("%s", (_, got, expected) => {
    expect(Array.from(got)).toEqual(expected);
  });

  it.each([
    ["a & b", k.combine(set(false, 1, 2, 3), set(false, 2, 3, 4), SIZE, true), [2, 3]],
    ["a & !b", k.combine(set(false, 1, 2, 3), set(true, 2), SIZE, true), [1, 3]],
    ["!a & b", k.combine(set(true, 1), set(false, 1, 2), SIZE, true), [2]],
    ["!a & !b", k.combine(set(true, 1, 2), set(true, 2, 3), SIZE, true), [0, 4, 5, 6, 7, 8, 9]],
    ["a | b", k.combine(set(false, 1), set(false, 2), SIZE, false), [1, 2]],
    ["a | !b", k.combine(set(false, 1), set(true, 1, 2), SIZE, false), [0, 1, 3, 4, 5, 6, 7, 8, 9]],
    [
      "!a | !b",
      k.combine(set(true, 1, 2), set(true, 2, 3), SIZE, false),
      [0, 1, 3, 4, 5, 6, 7, 8, 9],
    ],
    ["!a", k.negate(set(false, 0, 9)), [1, 2, 3, 4, 5, 6, 7, 8]],
  ])("%s", (_, got, expected) => {
    expect(members(got)).toEqual(expected);
  });

  it("combines as plain sets, on positions and on bitmaps alike (fast-check)", () => {
    const size = 200;
    fc.assert(
      fc.property(sorted, sorted, fc.boolean(), fc.boolean(), fc.boolean(), (a, b, na, nb, and) => {
        const [x, y] = [
          { positions: a, negated: na },
          { positions: b, negated: nb },
        ];
        const [inX, inY] = [members(x, size), members(y, size)];
        const expected = members(x, size)
          .concat(inY)
          .filter((p, i, all) => all.indexOf(p) === i);
        const want = and ? inX.filter((p) => inY.includes(p)) : expected.sort((p, q) => p - q);
        expect(members(k.combine(x, y, size, and), size)).toEqual(want);
        // The same on bitmaps: x and y as bitmaps of their members.
        const bits = new Uint32Array((size + 31) >>> 5);
        k.combineBits(bits, bitmapOf(inX, size), bitmapOf(inY, size), and ? 0 : 1);
        expect(k.countBits(bits)).toBe(want.length);
        expect(Array.from(k.selectBits(bits, 3, 40))).toEqual(want.slice(3, 40));
        k.combineBits(bits, bitmapOf(inX, size), bits, 2, size);
        expect(k.countBits(bits)).toBe(size - inX.length);
      }),
      { numRuns: 500 },
    );
  });

  it("selects pages of a complement, counts ranges of a bitmap (fast-check)", () => {
    fc.assert(
      fc.property(
        sorted,
        fc.nat(220),
        fc.nat(60),
        fc.nat(220),
        fc.nat(220),
        (a, start, length, from, to) => {
          const size = 200;
          const outside = members({ positions: a, negated: true }, size);
          const page = k.selectComplement(a, size, start, start + length);
          expect(Array.from(page)).toEqual(outside.slice(start, start + length));
          const bits = bitmapOf([...a], size);
          const [low, high] = [Math.min(from, to, size), Math.min(Math.max(from, to), size)];
          expect(k.countRange(bits, low, high)).toBe(
            [...a].filter((p) => p >= low && p < high).length,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("merges disjoint lists in order as far as a page's end, each entry with its list", () => {
    const from: number[] = [];
    const merged = k.mergeFirst([list(2, 9), list(), list(1, 5, 12), list(7)], 1, 5, from);
    expect([Array.from(merged), from]).toEqual([
      [2, 5, 7, 9],
      [0, 2, 3, 0],
    ]);
  });

  it("merges any disjoint lists as sorting them together does, for any page", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(200), { maxLength: 60 }),
        fc.nat(8),
        fc.nat(70),
        fc.nat(70),
        (values, count, start, length) => {
          // Each value to list value % (count + 1): disjoint, each increasing.
          const lists = Array.from({ length: count + 1 }, (_, l) =>
            Int32Array.from(values.filter((v) => v % (count + 1) === l).sort((a, b) => a - b)),
          );
          const from: number[] = [];
          const merged = k.mergeFirst(lists, start, start + length, from);
          const sorted = [...values].sort((a, b) => a - b).slice(start, start + length);
          expect([Array.from(merged), from]).toEqual([sorted, sorted.map((v) => v % (count + 1))]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("finds by galloping where a value is, or would be", () => {
    const values = list(1, 4, 9, 16, 25, 36);
    expect([0, 1, 2, 16, 17, 40].map((v) => k.gallop(values, v))).toEqual([0, 0, 1, 3, 4, 6]);
    expect(k.gallop(values, 30, 2)).toBe(5);
  });

  it.each([
    [
      "streets inside and between runs",
      list(0, 2, 3, 5, 9, 10),
      [
        [1, 0],
        [2, 0],
        [5, 2],
      ],
    ],
    ["no street", list(), []],
    ["every street before the first run", list(0, 1), []],
    ["the last street of a run and the first after it", list(4, 6, 7), [[0, 0]]],
  ])("finds the run each street lies in: %s", (_, streets, expected) => {
    // Runs [2, 5), [7, 7) (empty) and [10, 12).
    const found = new Int32Array(2 * streets.length);
    const n = k.inRuns(streets, list(2, 7, 10), list(3, 0, 2), found);
    const pairs = Array.from({ length: n / 2 }, (_, i) => [found[2 * i], found[2 * i + 1]]);
    expect(pairs).toEqual(expected);
  });

  it("finds each street's run as a search of every run does (fast-check)", () => {
    fc.assert(
      fc.property(
        sorted,
        fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 60 }),
        (streets, gaps) => {
          // Disjoint runs: each starts after the last one's end, with a gap.
          const [starts, lengths]: [number[], number[]] = [[], []];
          for (let at = 0, i = 0; i < gaps.length; i++) {
            starts.push(at);
            lengths.push(gaps[i] as number);
            at += 2 * (gaps[i] as number);
          }
          const expected = Array.from(streets).flatMap((street, index) => {
            const run = starts.findIndex(
              (s, i) => street >= s && street < s + (lengths[i] as number),
            );
            return run < 0 ? [] : [index, run];
          });
          const found = new Int32Array(2 * streets.length);
          const n = k.inRuns(streets, list(...starts), list(...lengths), found);
          expect(Array.from(found.subarray(0, n))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    ["counts", list(3, 0, 2), [0, 3, 3, 5]],
    ["none", list(), [0]],
  ])("sums counts into where each span starts: %s", (_, counts, expected) => {
    expect(Array.from(k.runningSums(counts, new Int32Array(counts.length + 1)))).toEqual(expected);
  });

  it.each([
    ["two bytes", 2, [0x34, 0x12, 0xff, 0x00], [0x1234, 0xff]],
    ["three bytes", 3, [0x56, 0x34, 0x12, 0x01, 0x00, 0x00], [0x123456, 1]],
  ])("reads little-endian values of %s", (_, width, bytes, expected) => {
    const out = new Int32Array(expected.length + 2).fill(-1);
    k.readUints(Uint8Array.from(bytes), 0, width, out, 1, 1 + expected.length);
    expect(Array.from(out)).toEqual([-1, ...expected, -1]);
  });

  it("keeps the positions whose bit is set, or clear", () => {
    const bits = bitmapOf([1, 33, 64], 100);
    expect(Array.from(k.withBit(list(0, 1, 33, 34, 64), bits, 1))).toEqual([1, 33, 64]);
    expect(Array.from(k.withBit(list(0, 1, 33, 34, 64), bits, 0))).toEqual([0, 34]);
  });
});
