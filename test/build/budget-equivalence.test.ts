import { beforeAll, describe, expect, it } from "vitest";
import { fixtureStreets, STREET_FIXTURE, tempDir } from "../support/fixture.ts";
import { ask, memoryBuild, type MemoryBuild } from "../support/memory-build.ts";
import { readModelStreets } from "../support/model.ts";
import { sweepTargets } from "../support/budget-sweep.ts";

/**
 * Every response is the same whatever the file budget: the street fixture built with every page
 * size as files (generous), with the budget the plan has in the middle (as the default budget
 * leaves the national build: some sizes written, the rest cut from packed records), and with the
 * least it allows (as a free account's 20,000 files leave it: almost everything packed). Over
 * every locality, every page 1…n+1 and both formats, in-process (the Worker's handler with the
 * build's `_headers` applied as the CDN applies them), at the page sizes of a stratified sweep
 * (budget-sweep.ts): every size that splits the locality differently (all 50 for Berlin's 600
 * streets and every size up to the total plus one for the rest), 50, the first larger size of each
 * materialisation class and one size rotating over the localities: 12,144 pages in each format
 * (48,576 comparisons) where every size at every locality asked 77,308 (309,232), most of them
 * sizes above a one-street locality's total plus one, which split nothing and differ from the ones
 * asked only in their paging headers. The HTTP suite of the same name checks a subset through the
 * local runtime.
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

  it("answers every locality at a stratified sweep of page sizes, page 1…n+1, JSON and CSV byte for byte the same", async () => {
    const [reference, ...others] = builds;
    if (reference === undefined) throw new Error("no builds");
    const materialised = others.map((b) => new Set(sizesOf(b.build)));
    const classOf = (size: number) => materialised.map((sizes) => sizes.has(size)).join();
    const targets = sweepTargets(
      localities.map((l) => l.total),
      classOf,
      true,
    );
    let compared = 0;
    const whole = new Set<number>();
    const split = new Set<number>();
    const classes = new Set<string>();
    for (const [i, { name, total }] of localities.entries()) {
      for (const { size, page } of targets[i] ?? []) {
        (size < total ? split : whole).add(size);
        classes.add(`${classOf(size)}|${size < total}`);
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
    // Every size both splits a view (Berlin) and holds one whole; every materialisation class
    // of the builds (which of them wrote the size) both ways.
    const everySize = Array.from({ length: 50 }, (_, i) => i + 1);
    expect([...split].sort((a, b) => a - b)).toEqual(everySize);
    expect([...whole].sort((a, b) => a - b)).toEqual(everySize);
    const everyClass = everySize.flatMap((size) =>
      [true, false].map((s) => `${classOf(size)}|${s}`),
    );
    expect([...classes].sort()).toEqual([...new Set(everyClass)].sort());
    expect(compared).toBeGreaterThan(40_000);
  });
});
