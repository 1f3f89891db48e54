import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BITMAP_DENSITY } from "../../generator/contract/search/bitmaps.ts";
import { decodeGramCounts, encodeGramCounts } from "../../generator/contract/search/gram-counts.ts";
import { writeGramCounts } from "../../generator/build/search-gram-counts.ts";

describe("per-place n-gram counts", () => {
  it("round-trip any counts", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1_000_000), { maxLength: 300 }), (values) => {
        const counts = Int32Array.from(values);
        expect(decodeGramCounts(encodeGramCounts(counts), counts.length)).toEqual(counts);
      }),
    );
  });

  it("are written for dense 1-, 2- and (denser) 3-grams only, each place's streets in the gram's runs", () => {
    const count = 2 * BITMAP_DENSITY;
    // Runs: streets [0, 3) [3, 4) [4, 8); places of streets 0..7.
    const runs = { start: [0, 3, 4], length: [3, 1, 4] };
    const placeOf = [0, 1, 1, 2, 0, 0, 2, 1];
    const written: Int32Array[] = [];
    const keys = writeGramCounts(
      [
        ["", Int32Array.of(0, 1, 2)], // every name: not a gram
        ["A", Int32Array.of(0, 2)],
        ["AB", Int32Array.of(1)], // one street: not dense
        ["B", Int32Array.of(1, 2)],
        ["ABC", Int32Array.of(0)], // a 3-gram on 3 streets: too few for one
        ["XYZ", Int32Array.of(0, 1, 2)], // a 3-gram on all 8
      ],
      runs,
      placeOf,
      3,
      count,
      (n, bytes) => (written[n] = decodeGramCounts(bytes, 3)),
    );
    expect(keys).toEqual(["A", "B", "XYZ"]);
    expect(written.map((counts) => Array.from(counts))).toEqual([
      [3, 3, 1], // runs 0 and 2: streets 0-2 and 4-7
      [2, 1, 2], // runs 1 and 2: streets 3-7
      [3, 3, 2],
    ]);
  });
});
