import { describe, expect, it } from "vitest";
import { headChunk } from "../../generator/build/search-keys.ts";
import type { IndexedStreets } from "../../generator/build/search-records.ts";
import {
  headsAt,
  pathOf,
  placesAt,
  placesIn,
  placeStreetFiles,
  recordFiles,
  recordRangeFiles,
} from "../../generator/contract/search/leaves.ts";
import type { SearchMeta } from "../../generator/contract/search/meta.ts";
import type { Reader } from "../../generator/contract/search/plan.ts";
import {
  PLACE_STREETS_PER_FILE as PER_FILE,
  RECORD_CHUNK_STREETS as CHUNK,
} from "../../generator/contract/search/store.ts";

// Three head-table chunks; every ten neighbouring streets share a name.
const count = 3 * CHUNK;
const headOf = Int32Array.from({ length: count }, (_, p) => Math.floor(p / 10));
const heads = Array.from({ length: count / 10 + 1 }, (_, n) => [`Straße ${n}`]);
// Each street's place in the record table, three bytes a street: street p lies in place p * 7 mod 2^20.
const placeOf = (p: number) => (p * 7) % 2 ** 20;
const meta = { country: "de", count, placeWidth: 3 } as SearchMeta;
const chunks = new Map(
  [0, 1, 2].map((c) => [
    pathOf(meta, "h", c),
    headChunk({ heads, headOf } as unknown as IndexedStreets, c * CHUNK, (c + 1) * CHUNK),
  ]),
);
for (const c of [0, 1, 2]) {
  const bytes = new Uint8Array(3 * CHUNK);
  for (let i = 0; i < CHUNK; i++) {
    const place = placeOf(c * CHUNK + i);
    bytes.set([place & 255, (place >> 8) & 255, place >> 16], 3 * i);
  }
  chunks.set(pathOf(meta, "r", c), bytes);
}
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

describe("the places of a range of streets (the record table)", () => {
  it.each([
    ["within one chunk", 5, 20],
    ["one street", CHUNK - 1, 1],
    ["across a chunk's end", CHUNK - 3, 10],
    ["across two chunks' ends", CHUNK - 2, CHUNK + 5],
    ["none", 40, 0],
  ])("%s: each street's place, and the chunks it lies in", (_, first, n) => {
    const positions = Int32Array.from({ length: n }, (_, i) => first + i);
    expect(Array.from(placesIn(reader, first, n))).toEqual(Array.from(positions, placeOf));
    expect(Array.from(placesIn(reader, first, n))).toEqual(Array.from(placesAt(reader, positions)));
    expect([...recordRangeFiles(meta, first, n).keys()]).toEqual([
      ...recordFiles(meta, positions).keys(),
    ]);
  });
});

describe("the files of the places' streets", () => {
  // Six places' streets back to back: places 1 and 5 have none, place 4's span two files.
  const starts = Int32Array.of(
    0,
    10,
    10,
    PER_FILE,
    PER_FILE + 35,
    3 * PER_FILE - 5,
    3 * PER_FILE - 5,
  );
  it.each([
    ["one place", [0], [0]],
    ["a place without streets", [1], []],
    ["places sharing a file, then the next", [0, 2, 3], [0, 1]],
    ["a place across files", [4], [1, 2]],
    ["the file of the place before, once", [3, 4, 5], [1, 2]],
  ])("%s: %j", (_, places, files) => {
    const found = placeStreetFiles(meta, starts, Int32Array.from(places));
    expect([...found.keys()]).toEqual(files.map((n) => pathOf(meta, "s", n)));
  });
});
