import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listChunkPath } from "../../generator/contract/layout.ts";
import { chunkSpans } from "../../generator/contract/pack.ts";
import { ReadBudget } from "../../generator/contract/search/budget.ts";
import { placeList, type PlaceTable } from "../../generator/contract/search/meta.ts";
import { SEARCH_CHUNK_BYTES } from "../../generator/contract/search/store.ts";
import { chunkNumbers } from "../../generator/edge/search-chunks.ts";
import type { SearchIndex } from "../../generator/edge/search-index.ts";
import { PlaceLists } from "../../generator/edge/search-place-lists.ts";

/** A place table of lists one after another, `bytes` each (only what PlaceLists reads). */
const tableOf = (bytes: readonly number[]): PlaceTable => {
  const listStarts = new Float64Array(bytes.length + 1);
  bytes.forEach((b, p) => (listStarts[p + 1] = (listStarts[p] ?? 0) + b));
  return {
    size: bytes.length,
    counts: Int32Array.from(bytes, (b) => b >> 4),
    listStarts,
  } as unknown as PlaceTable;
};
const index = { country: "de" } as SearchIndex;
const listBytes = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 4096 }),
  fc.integer({ min: 1, max: 3 * SEARCH_CHUNK_BYTES }),
);

describe("the passing places' lists", () => {
  it("chunk numbers are the chunks chunkSpans gives", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(1 << 20), fc.nat(1 << 19))), (ranges) => {
        const pairs = ranges.map(([from, length]) => [from, from + length] as const);
        const spans = new Set(
          pairs.flatMap(([from, to]) =>
            chunkSpans(from, to, SEARCH_CHUNK_BYTES).map((s) => s.chunk),
          ),
        );
        expect([...chunkNumbers(pairs)].sort((a, b) => a - b)).toEqual(
          [...spans].sort((a, b) => a - b),
        );
      }),
    );
  });

  it("fit exactly when their refs' chunks fit, and their refs are the passing places' lists", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(listBytes, fc.boolean()), { maxLength: 40 }),
        fc.integer({ min: 0, max: 8 * SEARCH_CHUNK_BYTES }),
        fc.array(fc.nat(6)),
        (places, limit, charged) => {
          const table = tableOf(places.map(([bytes]) => bytes));
          const pass = Uint8Array.from(places, ([, passes]) => (passes ? 1 : 0));
          const budget = new ReadBudget(limit);
          // Chunks charged before (by other lists of the request), each counted once.
          try {
            for (const chunk of charged)
              budget.charge(listChunkPath("de", chunk), SEARCH_CHUNK_BYTES);
          } catch {
            return;
          }
          const lists = new PlaceLists(index, table, pass);
          const refs = lists.refs();
          expect(refs).toEqual(
            places.flatMap((_, p) => (pass[p] === 1 ? [placeList(table, p)] : [])),
          );
          const files = new Map(
            [...chunkNumbers(refs.map((r) => [r[1] ?? 0, r.at(-1) ?? 0] as const))].map((n) => [
              listChunkPath("de", n),
              SEARCH_CHUNK_BYTES,
            ]),
          );
          expect(lists.fit(budget)).toBe(budget.fits(files, 0));
        },
      ),
    );
  });
});
