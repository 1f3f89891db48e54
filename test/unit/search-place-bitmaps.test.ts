import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BITMAP_DENSITY, decodeBitmap } from "../../generator/contract/search/bitmaps.ts";
import { countRange } from "../../generator/contract/search/bitsets.ts";
import { parseStreetFilter, type StreetFilter } from "../../generator/contract/search/filter.ts";
import { placeFilterKey } from "../../generator/contract/search/place-bitmaps.ts";
import { writePlaceBitmaps } from "../../generator/build/search-place-bitmaps.ts";

const filter = (parameter: "postalCode" | "locality", value: string) =>
  parseStreetFilter(parameter, value) as StreetFilter;
const codes = (text: string) => new Set(Array.from(text, (ch) => ch.codePointAt(0) ?? 0));

describe("place bitmaps", () => {
  it("count the set bits of any range", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: 8 }),
        fc.nat(256),
        fc.nat(256),
        (words, a, b) => {
          const bits = Uint32Array.from(words);
          const size = bits.length * 32;
          const [from, to] = [Math.min(a, b) % (size + 1), Math.max(a, b) % (size + 1)];
          let expected = 0;
          for (let p = from; p < to; p++) expected += ((bits[p >>> 5] ?? 0) >>> (p & 31)) & 1;
          expect(countRange(bits, from, to)).toBe(from <= to ? expected : 0);
        },
      ),
    );
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
    ["postalCode", "1$", "", undefined],
    ["locality", "[ab]", "ab", undefined],
  ] as const)(
    "%s=%s over the characters %j has the bitmap %s",
    (parameter, value, alphabet, key) => {
      expect(placeFilterKey(filter(parameter, value), codes(alphabet))).toBe(key);
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
    expect(keys).toEqual(["@lB", "@p1", "@p2"]); // @lA and @p0: one street, not dense
    expect([...written.keys()]).toEqual([5, 6, 7]);
    expect(written.get(5)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(written.get(6)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(written.get(7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
