import { describe, expect, it } from "vitest";
import { headChunk } from "../../generator/build/search-keys.ts";
import type { IndexedStreets } from "../../generator/build/search-records.ts";
import { headsAt, pathOf } from "../../generator/contract/search/leaves.ts";
import type { SearchMeta } from "../../generator/contract/search/meta.ts";
import type { Reader } from "../../generator/contract/search/plan.ts";
import { RECORD_CHUNK_STREETS as CHUNK } from "../../generator/contract/search/store.ts";

// Three head-table chunks; every ten neighbouring streets share a name.
const count = 3 * CHUNK;
const headOf = Int32Array.from({ length: count }, (_, p) => Math.floor(p / 10));
const heads = Array.from({ length: count / 10 + 1 }, (_, n) => [`Straße ${n}`]);
const meta = { country: "de" } as SearchMeta;
const chunks = new Map(
  [0, 1, 2].map((c) => [
    pathOf(meta, "h", c),
    headChunk({ heads, headOf } as unknown as IndexedStreets, c * CHUNK, (c + 1) * CHUNK),
  ]),
);
const reader = {
  meta,
  bytes: (path: string) => chunks.get(path) ?? new Uint8Array(),
} as unknown as Reader;

describe("the heads of streets (the head table)", () => {
  it.each([
    ["increasing, in one chunk", [1, 5, 25]],
    ["increasing, across chunks", [3, CHUNK + 7, 2 * CHUNK + 40]],
    ["in rank order across chunks, as a page of Suggestions", [2 * CHUNK + 40, 3, CHUNK + 7, 12]],
    ["one street twice", [CHUNK + 7, 3, CHUNK + 7]],
  ])("%s: each street's own name, in the order asked", (_, positions) => {
    expect(headsAt(reader, Int32Array.from(positions))).toEqual(
      positions.map((p) => heads[headOf[p] as number]),
    );
  });
});
