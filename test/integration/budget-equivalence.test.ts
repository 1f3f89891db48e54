import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, fixtureStreets, STREET_FIXTURE, tempDir } from "../support/fixture.ts";
import { readModelStreets } from "../support/model.ts";
import { rawRequest, startServer, type RunningServer } from "../support/http.ts";

/**
 * The same data built with every page size as files and with almost only the canonical size:
 * every (locality, pageSize, page) must answer identically, status, header lines and body.
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
  [generous, tight] = await Promise.all([startServer(big.dir), startServer(small.dir)]);
});
afterAll(async () => Promise.all([generous?.stop(), tight?.stop()]));

describe("budget equivalence", () => {
  it("the tight build materialises fewer sizes, always including 50", () => {
    expect(tightSizes).toContain(50);
    expect(tightSizes.length).toBeLessThan(10);
    expect(localities[0]?.total).toBe(600);
    expect(localities.length).toBeGreaterThan(12);
  });

  it("serves byte-identical responses for every locality, page size and page", async () => {
    let compared = 0;
    for (const { name, total } of localities) {
      for (let size = 1; size <= 50; size++) {
        const pages = Math.ceil(total / size);
        for (let page = 1; page <= pages + 1; page++) {
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
    }
    expect(compared).toBeGreaterThan(5000);
  });
});
