import type { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePattern } from "../../generator/contract/regex/pattern.ts";
import { regexPattern } from "../support/regex-arbitraries.ts";
import { startPostgres } from "../support/pglite.ts";
import { LOCALITY_NAMES, LOCALITY_POSTAL_CODES } from "../support/source-model.ts";

/**
 * The regular-expression filters against PostgreSQL 17.5 itself (PGlite 0.4.6): for generated
 * patterns over the embedded localities' names (`~*`) and postal codes (`~`), each with the
 * original's `(?p)` prefix, the same set of matching values; a pattern PostgreSQL rejects is refused
 * here too, and one it accepts is refused only for a construct the linear-time engine does not
 * evaluate (never as invalid).
 *
 * REGEX_SEED=<n> replays a run; REGEX_RUNS=<n> sets the number of patterns per column.
 */
const seed = Number(process.env["REGEX_SEED"] ?? Date.now() % 2 ** 31);
const runs = Number(process.env["REGEX_RUNS"] ?? 200);

let db: PGlite;
beforeAll(async () => {
  console.log(
    `regex property test: seed ${seed}, ${runs} patterns per column over ${LOCALITY_NAMES.length} names and ${LOCALITY_POSTAL_CODES.length} postal codes (replay: REGEX_SEED=${seed})`,
  );
  db = await startPostgres();
});
afterAll(async () => {
  await db.close();
});

/** PostgreSQL's verdict on a pattern: the 1-based indexes of the values it matches, or its error. */
async function postgres(
  values: readonly string[],
  patterns: readonly string[],
  operator: "~" | "~*",
): Promise<(number[] | Error)[]> {
  // The values in a table once: sent with every pattern, PostgreSQL parsed the whole array again
  // each time (more than half of the test's time).
  await db.exec("DROP TABLE IF EXISTS subject");
  await db.query(
    "CREATE TEMP TABLE subject AS SELECT x.value, x.i FROM unnest($1::text[]) WITH ORDINALITY x(value, i)",
    [values],
  );
  const verdicts: (number[] | Error)[] = [];
  for (const pattern of patterns) {
    try {
      const result = await db.query<{ ids: number[] | null }>(
        `SELECT array_agg(i ORDER BY i) AS ids FROM subject WHERE value ${operator} ('(?p)' || $1)`,
        [pattern],
      );
      verdicts.push(result.rows[0]?.ids ?? []);
    } catch (error) {
      verdicts.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return verdicts;
}

describe("regular-expression filters against PostgreSQL's ~* and ~", () => {
  it.each<[string, readonly string[], boolean, number]>([
    ["name", LOCALITY_NAMES, true, 0],
    ["postalCode", LOCALITY_POSTAL_CODES, false, 1],
  ])(
    `${runs} generated patterns over the embedded %s values: the same matches, or a refusal PostgreSQL agrees with`,
    async (column, values, ignoreCase, offset) => {
      const patterns = fc.sample(regexPattern(values), { seed: seed + offset, numRuns: runs });
      const verdicts = await postgres(values, patterns, ignoreCase ? "~*" : "~");
      const mismatches: { pattern: string; mine: string; postgres: string }[] = [];
      let compared = 0;
      patterns.forEach((pattern, k) => {
        const pg = verdicts[k];
        const mine = compilePattern(pattern, { ignoreCase });
        if (pg instanceof Error) {
          if (mine.ok) mismatches.push({ pattern, mine: "accepted", postgres: pg.message });
          return;
        }
        if (!mine.ok) {
          if (mine.error.kind === "invalid")
            mismatches.push({
              pattern,
              mine: `invalid: ${mine.error.reason}`,
              postgres: `${pg?.length ?? 0} values`,
            });
          return;
        }
        compared++;
        const ours = values.flatMap((value, i) => (mine.pattern.test(value) ? [i + 1] : []));
        if (JSON.stringify(ours) !== JSON.stringify(pg))
          mismatches.push({
            pattern,
            mine: `${ours.length} values`,
            postgres: `${pg?.length ?? 0} values`,
          });
      });
      const shortest = [...mismatches]
        .sort((a, b) => a.pattern.length - b.pattern.length)
        .slice(0, 8);
      expect(
        shortest,
        `${column}: ${mismatches.length} mismatches (seed ${seed}; replay: REGEX_SEED=${seed})`,
      ).toEqual([]);
      expect(compared, `${column}: patterns compared`).toBeGreaterThan(runs * 0.6);
    },
  );
});
