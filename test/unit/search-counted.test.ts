import { describe, expect, it } from "vitest";
import { countedPlan } from "../../generator/contract/search/cursor.ts";
import { pathOf } from "../../generator/contract/search/leaves.ts";
import type { PlaceTable, SearchMeta } from "../../generator/contract/search/meta.ts";
import type { Files, Reader } from "../../generator/contract/search/plan.ts";
import { RECORD_CHUNK_STREETS as CHUNK } from "../../generator/contract/search/store.ts";

/**
 * The counted plan of place filters alone (cursor.ts) scans the record table from its first
 * chunk: its first files are the chunks its walk reads for the page, so the read budget meets
 * them before it runs (docs/SEARCH.md, "A file's price").
 */
const count = 6 * CHUNK;
const places = 8;
const meta = { country: "de", count, places, placeWidth: 2 } as SearchMeta;
// Street p lies in place p % places; every place has count / places streets.
const chunk = (c: number) =>
  Uint8Array.from({ length: 2 * CHUNK }, (_, i) =>
    i % 2 === 0 ? (c * CHUNK + i / 2) % places : 0,
  );
const table = {
  size: places,
  counts: new Int32Array(places).fill(count / places),
} as unknown as PlaceTable;

function reader(): Reader & { needed: Set<string> } {
  const needed = new Set<string>();
  return {
    meta,
    needed,
    need: async (files: Files) => {
      for (const path of files.keys()) needed.add(path);
    },
    fits: () => true,
    bytes: (path: string) => {
      const c = [0, 1, 2, 3, 4, 5].find((n) => pathOf(meta, "r", n) === path);
      if (c === undefined || !needed.has(path)) throw new Error(`${path} read, not charged`);
      return chunk(c);
    },
    kept: (_key, _bytes, make) => make(),
    decoded: (path, make) => make(new Uint8Array()),
  } as Reader & { needed: Set<string> };
}

describe("the counted plan of place filters alone", () => {
  it.each([
    { passing: [3], start: 0, end: 50 },
    { passing: [3], start: 2000, end: 2050 },
    { passing: [0, 5], start: 4000, end: 4050 },
    { passing: [1, 2, 6, 7], start: 0, end: 10 },
    { passing: [2], start: 11_000, end: 12_000 },
  ])("declares every record chunk it reads for $passing's streets [$start, $end)", async (c) => {
    const r = reader();
    const pass = new Uint8Array(places);
    for (const p of c.passing) pass[p] = 1;
    const streets = (c.passing.length * count) / places;
    const place = { pass, list: Int32Array.from(c.passing), streets };
    const plan = countedPlan(r, undefined, place, table, c.start, c.end);
    const declared = new Set(plan.files().keys());
    const found = await plan.run();
    expect(found.total).toBe(streets);
    expect([...found.positions]).toEqual(
      Array.from({ length: c.end - c.start }, (_, i) => {
        const k = c.start + i; // the k-th passing street: round k / passing, place passing[k % n]
        const n = c.passing.length;
        return Math.floor(k / n) * places + (c.passing[k % n] as number);
      }),
    );
    expect([...r.needed].filter((path) => !declared.has(path))).toEqual([]);
    expect(declared.size).toBeGreaterThan(0);
  });
});
