import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChangeFeed } from "../../generator/contract/changes.ts";
import { identityFields } from "../../generator/contract/record-identity.ts";
import type { AnyResource } from "../../generator/resources/resource.ts";
import { sync } from "../../generator/sync/sync.ts";
import { tempDir } from "../support/fixture.ts";
import {
  copyTables,
  expectedRows,
  inSchemaOrder,
  SERIES,
  seriesBuild,
  untied,
  type SeriesBuild,
} from "../support/sync-series.ts";

/**
 * Exactness of `npm run sync`: a series of builds of generated datasets (records dropped, changed
 * with the same identity, renamed, added; a dataset left out of some builds; days between builds,
 * so that the 90 days of the feed pass), synced after some builds and not others. After every sync
 * each table holds the newest download's records, row by row, and equals a fresh load of that
 * build; the copy was loaded again exactly when the feed no longer reached back to it, and a
 * dataset added or dropped upstream was said.
 */
const seed = Number(process.env["SYNC_SEED"] ?? Date.now() % 2 ** 31);
const runs = Number(process.env["SYNC_RUNS"] ?? 20);
const DAY = 24 * 60 * 60 * 1000;

const changesOf = (record: fc.Arbitrary<unknown>) =>
  fc.record({
    drop: fc.array(fc.boolean(), { maxLength: 20 }),
    edits: fc.array(fc.tuple(fc.nat(30), fc.boolean(), record), { maxLength: 5 }),
    added: fc.array(record, { maxLength: 5 }),
  });
const step = fc.record({
  // Days since the build before: the feed keeps 90 days, so some copies fall out of its reach.
  days: fc.constantFrom(1, 2, 40, 95),
  sync: fc.boolean(),
  // de.streets is in every build; the others come and go.
  present: fc.tuple(fc.constant(true), fc.boolean(), fc.boolean(), fc.boolean()),
  changes: fc.tuple(...SERIES.map(({ record }) => changesOf(record))),
});
const series = fc.record({
  first: fc.tuple(...SERIES.map(({ record }) => fc.array(record, { maxLength: 20 }))),
  syncFirst: fc.boolean(),
  steps: fc.array(step, { minLength: 1, maxLength: 6 }),
});

/**
 * Two series run before the random ones, so that every run covers each action: a copy of the
 * first build synced a day later (the feed applied), and one not synced at a build 95 days later,
 * then synced at one 95 days after that, when the feed (90 days) no longer leads from it.
 */
type Series = typeof series extends fc.Arbitrary<infer T> ? T : never;
const drawn = fc.sample(series, { seed: 1, numRuns: 1 })[0] as Series;
const someStep = drawn.steps[0] as Series["steps"][number];
const reloading: Series = {
  ...drawn,
  syncFirst: true,
  steps: [
    { ...someStep, days: 95, sync: false },
    { ...someStep, days: 95, sync: true },
  ],
};
const updating: Series = {
  ...drawn,
  syncFirst: true,
  steps: [{ ...someStep, days: 1, sync: true }],
};

/** `next` with the identity of `old` (the same record, changed): the identity's values copied over. */
function withIdentity(resource: AnyResource, old: unknown, next: unknown): unknown {
  const copy = structuredClone(next) as Record<string, Record<string, unknown>>;
  for (const field of identityFields(resource.id, old as Record<string, unknown>)) {
    const [top = "", inner] = field.split(".");
    const from = (old as Record<string, Record<string, unknown>>)[top];
    if (inner === undefined) (copy as Record<string, unknown>)[top] = from;
    else if (from !== undefined) copy[top] = { ...copy[top], [inner]: from[inner] };
  }
  return inSchemaOrder(resource, copy);
}

describe("npm run sync over a series of builds", () => {
  it("keeps every table equal to a fresh load of the newest downloads", async () => {
    console.log(`sync property test: seed ${seed}, ${runs} runs (replay: SYNC_SEED=${seed})`);
    const actions = new Set<string>();
    await fc.assert(
      fc.asyncProperty(series, async ({ first, syncFirst, steps }) => {
        const work = tempDir("sync-series");
        const db = join(work, "copy.sqlite");
        let time = Date.parse("2026-01-01T03:00:00.000Z");
        let records = SERIES.map(({ resource }, i) =>
          untied(
            resource,
            (first[i] ?? []).map((r) => inSchemaOrder(resource, r)),
          ),
        );
        let present = SERIES.map(() => true);
        let build: SeriesBuild | undefined;
        const syncs: boolean[] = [syncFirst, ...steps.map((s) => s.sync)];
        /** The copy's build and the datasets it was published with. */
        let copy: { builtAt: string; published: string[] } | undefined;
        for (let n = 0; n <= steps.length; n++) {
          const change = n === 0 ? undefined : steps[n - 1];
          if (change !== undefined) {
            time += change.days * DAY;
            records = SERIES.map(({ resource }, i) => {
              const { drop, edits, added } = change.changes[i] as {
                drop: boolean[];
                edits: [number, boolean, unknown][];
                added: unknown[];
              };
              // A dataset back after a build without it starts over from its first records.
              const before = present[i] === true ? (records[i] ?? []) : (first[i] ?? []);
              const after = before.filter((_, j) => drop[j] !== true);
              for (const [at, same, next] of edits) {
                const old = after[at % Math.max(after.length, 1)];
                if (old === undefined) continue;
                after[after.indexOf(old)] = same
                  ? withIdentity(resource, old, next)
                  : inSchemaOrder(resource, next);
              }
              return untied(resource, [...after, ...added.map((r) => inSchemaOrder(resource, r))]);
            });
            present = [...change.present];
          }
          const builtAt = new Date(time).toISOString();
          build = await seriesBuild(
            build,
            builtAt,
            new Map(
              SERIES.flatMap(({ resource }, i) =>
                present[i] === true ? [[resource, records[i] ?? []] as const] : [],
              ),
            ),
            join(work, `build-${n}`),
          );
          if (syncs[n] !== true && n < steps.length) continue;

          const said: string[] = [];
          const summary = await sync({ from: build.dir, db, say: (line) => said.push(line) });
          actions.add(summary.action);
          const published = SERIES.filter((_, i) => present[i] === true).map(
            ({ resource }) => resource.id,
          );
          // Loaded again exactly when the feed does not lead from the copy's build to this one.
          const feed = JSON.parse(
            readFileSync(join(build.dir, "downloads/changes/index.json"), "utf8"),
          ) as ChangeFeed;
          const reaches =
            copy === undefined ||
            copy.builtAt === builtAt ||
            feed.builds.some((b) => b.since === copy?.builtAt);
          expect(summary.action).toBe(
            copy === undefined ? "loaded" : reaches ? "updated" : "reloaded",
          );
          for (const resource of published.filter(
            (r) => !(copy?.published ?? published).includes(r),
          ))
            expect(said.join("\n")).toContain(`${resource}: new at the source`);
          for (const resource of (copy?.published ?? []).filter((r) => !published.includes(r)))
            expect(said.join("\n")).toContain(`${resource}: no longer published`);

          const tables = copyTables(db);
          expect([...tables.keys()].sort()).toEqual([...published].sort());
          for (const { resource } of SERIES.filter((_, i) => present[i] === true))
            expect(tables.get(resource.id), resource.id).toEqual(expectedRows(build, resource));
          const fresh = join(work, `fresh-${n}.sqlite`);
          await sync({ from: build.dir, db: fresh });
          expect(copyTables(fresh)).toEqual(tables);
          // Nothing new: said, and not a byte of the database written.
          const bytes = readFileSync(db);
          const again = await sync({ from: build.dir, db });
          actions.add(again.action);
          expect(again.action).toBe("unchanged");
          expect(readFileSync(db).equals(bytes)).toBe(true);
          copy = { builtAt, published };
        }
      }),
      { seed, numRuns: runs, examples: [[updating], [reloading]] },
    );
    // The runs applied the feed and loaded again, not only one of them.
    expect(actions).toEqual(new Set(["loaded", "reloaded", "updated", "unchanged"]));
  });
});
