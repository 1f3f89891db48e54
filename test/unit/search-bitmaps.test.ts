import { describe, expect, it } from "vitest";
import {
  bitmapBytes,
  bitmapWords,
  BITMAP_DENSITY,
  decodeBitmap,
  placeFilterKey,
} from "../../generator/contract/search/bitmaps.ts";
import { writeBitmaps } from "../../generator/build/search-bitmaps.ts";
import { writePlaceBitmaps } from "../../generator/build/search-place-bitmaps.ts";
import { parseStreetFilter, type StreetFilter } from "../../generator/contract/search/filter.ts";

const filter = (parameter: "postalCode" | "locality", value: string) =>
  parseStreetFilter(parameter, value) as StreetFilter;

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

  it.each([
    ["postalCode", "1", "", "@p1"],
    ["locality", "a", "Aab", "@lA"],
    // ä is no case of a: a locality with ä still passes locality=a only by its own a.
    ["locality", "a", "Aaä", "@lA"],
    // The Kelvin sign folds with k, and locality=k does not find it.
    ["locality", "k", "Kk\u212a", undefined],
    ["locality", "k", "Kk", "@lK"],
    ["locality", "^a", "Aa", undefined],
    ["locality", "ab", "Aab", undefined],
    // A locality's last character.
    ["locality", "e$", "Ee", "@lE$"],
    ["locality", "k$", "Kk\u212a", undefined],
    ["locality", "^e$", "Ee", undefined],
    ["locality", "ee$", "Ee", undefined],
    // Postal codes' digits whose places lie all over the place order.
    ["postalCode", "1$", "", "@p1$"],
    ["postalCode", "33", "", "@p33"],
    ["postalCode", "33$", "", undefined],
    ["postalCode", "^3", "", "@p^3"],
    ["postalCode", "^33", "", undefined],
    ["postalCode", "^3$", "", undefined],
    ["postalCode", "333", "", undefined],
    ["postalCode", "3.", "", undefined],
    ["locality", "[ab]", "ab", undefined],
  ] as const)(
    "%s=%s over the characters %j has the bitmap %s",
    (parameter, value, alphabet, key) => {
      const occurring = new Set(Array.from(alphabet, (c) => c.codePointAt(0) ?? 0));
      expect(placeFilterKey(filter(parameter, value), occurring)).toBe(key);
    },
  );

  it("are written for the dense characters of postal codes and case-folded localities", () => {
    const count = 2 * BITMAP_DENSITY;
    const places = [
      { postalCode: "10", locality: "Ab" },
      { postalCode: "21", locality: "b" },
    ];
    // Street 0 in place 0, every other in place 1.
    const placeOf = Array.from({ length: count }, (_, p) => (p === 0 ? 0 : 1));
    const written = new Map<number, number[]>();
    const keys = writePlaceBitmaps(places, placeOf, count, 5, (n, bytes) => {
      const words = decodeBitmap(bytes);
      written.set(
        n,
        Array.from({ length: 8 }, (_, p) => p).filter(
          (p) => ((words[p >>> 5] ?? 0) >>> (p & 31)) & 1,
        ),
      );
    });
    // @lA, @p0, @p10, @p^1, @p0$: one street, not dense.
    expect(keys).toEqual(["@lB", "@lB$", "@p1", "@p1$", "@p2", "@p21", "@p^2"]);
    expect([...written.keys()]).toEqual([5, 6, 7, 8, 9, 10, 11]);
    for (const n of [5, 6, 7]) expect(written.get(n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const n of [8, 9, 10, 11]) expect(written.get(n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
