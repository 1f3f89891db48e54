import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeNationalStreets } from "../../bench/national-streets.ts";
import { readGv100ad } from "../../generator/sources/de-gv100ad.ts";
import { readStreets } from "../../generator/sources/de-streets.ts";
import { tempDir } from "../support/fixture.ts";
import { ROOT } from "../support/paths.ts";

/** The benches' synthetic street list: a file the build reads, joined entirely to GV100AD, the same for a seed. */
describe("the synthetic national street list", () => {
  const dir = tempDir("national-streets");
  const gv = readGv100ad(readFileSync(join(ROOT, "data/de/GV100AD_30112025.txt")), "GV100AD");
  const keys = new Set(gv.municipalities.map((m) => m.key));

  it.each([
    [1, 5_000],
    [7, 2_000],
  ])(
    "seed %i, %i rows: read by the build's reader, every key a municipality, each name once per municipality",
    async (seed, rows) => {
      const file = join(dir, `streets-${seed}.csv`);
      const written = await writeNationalStreets(file, rows, seed);
      const streets = await readStreets(readFileSync(file), file);
      expect(written.rows).toBe(rows);
      expect(streets).toHaveLength(rows);
      expect(streets.filter((s) => !keys.has(s.regionalKey))).toEqual([]);
      expect(new Set(streets.map((s) => `${s.regionalKey}\t${s.name}`)).size).toBe(rows);
      expect(streets.every((s) => /^[0-9]{5}$/.test(s.postalCode))).toBe(true);
      const again = join(dir, `again-${seed}.csv`);
      await writeNationalStreets(again, rows, seed);
      expect(readFileSync(again).equals(readFileSync(file))).toBe(true);
    },
  );

  it("differs between seeds", async () => {
    await writeNationalStreets(join(dir, "a.csv"), 2_000, 1);
    await writeNationalStreets(join(dir, "b.csv"), 2_000, 2);
    expect(readFileSync(join(dir, "a.csv")).equals(readFileSync(join(dir, "b.csv")))).toBe(false);
  });
});
