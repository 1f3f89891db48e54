import { beforeAll, describe, expect, it } from "vitest";
import { fixtureStreets, STREET_FIXTURE, tempDir } from "../support/fixture.ts";
import { ask, memoryBuild, type MemoryBuild } from "../support/memory-build.ts";
import { readModelStreets } from "../support/model.ts";

/**
 * Every response is the same whatever the file budget: the street fixture built with every page
 * size as files (generous), with the budget the plan has in the middle (as the default budget
 * leaves the national build: some sizes written, the rest cut from packed records), and with the
 * least it allows (as a free account's 20,000 files leave it: almost everything packed). Over
 * every locality, page size 1–50, page 1…n+1 and both formats, in-process (the Worker's handler
 * with the build's `_headers` applied as the CDN applies them); the HTTP suite of the same name
 * checks a subset through the local runtime.
 */
let localities: { name: string; total: number }[];
let builds: { name: string; build: MemoryBuild }[];

beforeAll(async () => {
  const streets = fixtureStreets(tempDir("budget-in-process"));
  const counts = new Map<string, number>();
  for (const s of await readModelStreets(streets))
    counts.set(s.locality, (counts.get(s.locality) ?? 0) + 1);
  localities = [...counts].map(([name, total]) => ({ name, total }));
  const options = { sources: { "de-streets": streets }, only: [...STREET_FIXTURE] };
  const generous = await memoryBuild(1_000_000, options);
  const { minimumFiles } = generous.summary.plan;
  const all = [...generous.summary.files.values()].reduce((sum, group) => sum + group.files, 0);
  builds = [
    { name: "generous", build: generous },
    { name: "middle", build: await memoryBuild(Math.round((minimumFiles + all) / 2), options) },
    { name: "least", build: await memoryBuild(minimumFiles, options) },
  ];
});

const sizesOf = (build: MemoryBuild) => build.summary.plan.sizes.get("de.streets") ?? [];

describe("budget equivalence, in-process, every locality", () => {
  it("the budgets materialise all, some and few page sizes", () => {
    const [generous, middle, least] = builds.map((b) => sizesOf(b.build).length);
    expect(generous).toBe(50);
    expect(middle).toBeGreaterThan(least ?? 0);
    expect(middle).toBeLessThan(50);
    expect(least).toBeLessThan(5);
    expect(localities.length).toBeGreaterThan(500);
  });

  it("answers every locality, page size 1–50, page 1…n+1, JSON and CSV byte for byte the same", async () => {
    const [reference, ...others] = builds;
    if (reference === undefined) throw new Error("no builds");
    let compared = 0;
    for (const { name, total } of localities) {
      for (let size = 1; size <= 50; size++) {
        for (let page = 1; page <= Math.ceil(total / size) + 1; page++) {
          for (const accept of ["application/json", "text/csv"]) {
            const target = `/de/Streets?locality=${encodeURIComponent(name)}&pageSize=${size}&page=${page}`;
            const expected = await ask(reference.build.handler, target, { Accept: accept });
            expect(expected.status, target).toBe(200);
            for (const other of others) {
              const actual = await ask(other.build.handler, target, { Accept: accept });
              if (
                actual.status !== expected.status ||
                actual.text !== expected.text ||
                JSON.stringify(actual.headers) !== JSON.stringify(expected.headers)
              ) {
                expect({ ...actual, build: other.name }, `${target} ${accept}`).toEqual({
                  ...expected,
                  build: other.name,
                });
              }
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100_000);
  });
});
