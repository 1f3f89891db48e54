import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, fixtureStreets, STREET_FIXTURE, tempDir } from "../support/fixture.ts";
import { readModelStreets } from "../support/model.ts";
import { rawRequest, startAll, startServer, type RunningServer } from "../support/http.ts";
import { sweepTargets } from "../support/budget-sweep.ts";

/**
 * The same data built with every page size as files and with almost only the canonical size:
 * every (locality, pageSize, page) asked must answer identically over HTTP through the local
 * runtime, status, header lines and body. The localities: the four largest and a spread of small
 * ones; the pages: a stratified sweep (budget-sweep.ts), every page size that splits a locality
 * differently (all 50 for Berlin), 50, the first larger size written and not written by the tight
 * build, at the first, second, middle and last two pages and the one past the last. The in-process
 * suite of the same name (test/build/) asks every page of every locality of the fixture; this one
 * is for what the wire adds (an asset's header lines against the Worker's).
 */
let generous: RunningServer;
let tight: RunningServer;
let localities: { name: string; total: number }[];
let tightSizes: readonly number[];

beforeAll(async () => {
  const streetsFile = fixtureStreets(tempDir("budget"));
  const counts = new Map<string, number>();
  for (const s of await readModelStreets(streetsFile))
    counts.set(s.locality, (counts.get(s.locality) ?? 0) + 1);
  const all = [...counts]
    .map(([name, total]) => ({ name, total }))
    .sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : 1));
  // The largest locality, plus a spread of small ones (including names with spaces, parentheses, umlauts).
  localities = [...all.slice(0, 4), ...all.filter((_, i) => i % 60 === 7)];

  const big = await buildFixture(1_000_000, streetsFile, { only: STREET_FIXTURE });
  expect(big.summary.plan.sizes.get("de.streets")).toHaveLength(50);
  const small = await buildFixture(big.summary.plan.minimumFiles + 40, streetsFile, {
    only: STREET_FIXTURE,
  });
  tightSizes = small.summary.plan.sizes.get("de.streets") ?? [];
  [generous, tight] = await startAll([startServer(big.dir), startServer(small.dir)]);
});
afterAll(async () => Promise.all([generous?.stop(), tight?.stop()]));

describe("budget equivalence", () => {
  it("the tight build materialises fewer sizes, always including 50", () => {
    expect(tightSizes).toContain(50);
    expect(tightSizes.length).toBeLessThan(10);
    expect(localities[0]?.total).toBe(600);
    expect(localities.length).toBeGreaterThan(12);
  });

  it("serves byte-identical responses for a stratified sweep of page sizes and pages of each locality", async () => {
    const tightSet = new Set(tightSizes);
    const classOf = (size: number) => String(tightSet.has(size));
    const targets = sweepTargets(
      localities.map((l) => l.total),
      classOf,
      false,
    );
    let compared = 0;
    const classes = new Set<string>();
    for (const [i, { name, total }] of localities.entries()) {
      for (const { size, page } of targets[i] ?? []) {
        classes.add(`${classOf(size)}|${size < total}|${page > Math.ceil(total / size)}`);
        for (const accept of ["application/json", "text/csv"]) {
          const path = `/de/Streets?locality=${encodeURIComponent(name)}&pageSize=${size}&page=${page}`;
          const [a, b] = await Promise.all([
            rawRequest(generous.origin, path, { headers: { Accept: accept } }),
            rawRequest(tight.origin, path, { headers: { Accept: accept } }),
          ]);
          expect(a.status, path).toBe(200);
          expect(b.rawHeaders, `${path} ${accept}`).toEqual(a.rawHeaders);
          expect(b.body.equals(a.body), `${path} ${accept}`).toBe(true);
          compared++;
        }
      }
    }
    // A size the tight build wrote and one it cuts, each splitting a locality and holding one
    // whole, each within the pages and past the last.
    expect([...classes].sort()).toEqual(
      ["false", "true"]
        .flatMap((c) => ["false", "true"].flatMap((s) => [`${c}|${s}|false`, `${c}|${s}|true`]))
        .sort(),
    );
    expect(compared).toBeGreaterThan(1000);
  });
});
