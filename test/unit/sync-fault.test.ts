import { spawn } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { checkpointsPassed } from "../../generator/sync/crash.ts";
import { sync } from "../../generator/sync/sync.ts";
import { tempDir } from "../support/fixture.ts";
import { ROOT } from "../support/paths.ts";
import {
  copyTables,
  inSchemaOrder,
  SERIES,
  seriesBuild,
  untied,
  type Datasets,
  type SeriesBuild,
} from "../support/sync-series.ts";

/**
 * `kill -9` at any point of a sync leaves the copy at a complete build (the one before the run, or
 * one the run reached), and the next run ends where an uninterrupted one would. The sync runs in a
 * process of its own (test/support/sync-child.ts) that kills itself with SIGKILL at its n-th
 * checkpoint (generator/sync/crash.ts: between rows, records, indexes and around each commit),
 * at points drawn from the seed and right before a commit; and once killed from outside at a time
 * drawn from the seed, wherever it then is.
 */
const seed = Number(process.env["SYNC_FAULT_SEED"] ?? Date.now() % 2 ** 31);
const CHILD = join(ROOT, "test/support/sync-child.ts");
const OLD_BUILD = "2025-01-01T03:00:00.000Z";

let work: string;
let builds: SeriesBuild[];
/** Each build's tables as a fresh load makes them. */
const expected = new Map<string, Map<string, unknown[][]>>();

function datasets(sample: unknown[][], take: (i: number) => boolean): Datasets {
  return new Map(
    SERIES.flatMap(({ resource }, i) =>
      take(i)
        ? [
            [
              resource,
              untied(
                resource,
                (sample[i] ?? []).map((r) => inSchemaOrder(resource, r)),
              ),
            ] as const,
          ]
        : [],
    ),
  );
}

beforeAll(async () => {
  console.log(`sync fault test: seed ${seed} (replay: SYNC_FAULT_SEED=${seed})`);
  work = tempDir("sync-fault");
  // Three builds: records replaced between them, a dataset dropped and another added.
  const samples = [0, 1, 2].map((n) =>
    SERIES.map(({ record }) => fc.sample(record, { seed: seed + n * 7 + 1, numRuns: 80 })),
  );
  const days = ["2026-01-01", "2026-01-02", "2026-01-03"];
  builds = [];
  for (const [n, sample] of samples.entries()) {
    builds.push(
      await seriesBuild(
        builds.at(-1),
        `${days[n] ?? ""}T03:00:00.000Z`,
        datasets(sample, (i) => i !== (n === 2 ? 1 : 2)),
        join(work, `build-${n}`),
      ),
    );
  }
  for (const build of builds) {
    const db = join(work, `fresh-${build.builtAt}.sqlite`);
    await sync({ from: build.dir, db });
    expected.set(build.builtAt, copyTables(db));
  }
  expected.set(OLD_BUILD, expected.get(builds[0]?.builtAt ?? "") ?? new Map());
});

/** A copy to start from: none, at the first build, or at the first build's tables but a build the feed does not reach. */
async function start(kind: "none" | "first" | "old", db: string): Promise<void> {
  if (kind === "none") return;
  await sync({ from: builds[0]?.dir ?? "", db });
  if (kind === "old") {
    const raw = new DatabaseSync(db);
    raw.prepare("UPDATE plz_sync SET value = ? WHERE key = 'builtAt'").run(OLD_BUILD);
    raw.close();
  }
}

function child(from: string, db: string, killAt?: number, killAfterMs?: number) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      const process_ = spawn(process.execPath, ["--import", "tsx", CHILD, from, db], {
        cwd: ROOT,
        env: {
          ...process.env,
          ...(killAt === undefined ? {} : { PLZ_SYNC_KILL_AT: String(killAt) }),
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      process_.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const timer =
        killAfterMs === undefined
          ? undefined
          : setTimeout(() => process_.kill("SIGKILL"), killAfterMs);
      process_.on("exit", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stderr });
      });
    },
  );
}

/** The copy is exactly one build's fresh load (or, never loaded, has no tables). */
function atCompleteBuild(db: string, before: "none" | "first" | "old"): string {
  if (!existsSync(db)) return "none";
  const raw = new DatabaseSync(db);
  let builtAt: string;
  try {
    const row = raw.prepare("SELECT value FROM plz_sync WHERE key = 'builtAt'");
    builtAt = String(row.get()?.["value"] ?? "none");
  } catch {
    builtAt = "none"; // no plz_sync table: nothing was committed
  } finally {
    raw.close();
  }
  if (builtAt === "none") expect(before).toBe("none");
  expect(copyTables(db)).toEqual(expected.get(builtAt) ?? new Map());
  return builtAt;
}

describe("a sync killed with SIGKILL", () => {
  const scenarios = [
    { name: "the first load", before: "none" },
    { name: "two builds of the feed", before: "first" },
    { name: "a reload (the feed does not reach the copy)", before: "old" },
  ] as const;

  for (const { name, before } of scenarios)
    it(`during ${name}: the copy is at a complete build, and the next run finishes`, async () => {
      const target = builds.at(-1) as SeriesBuild;
      const setup = join(tempDir("sync-kill"), "setup.sqlite");
      await start(before, setup);
      // The checkpoints an uninterrupted run passes, counted in this process.
      const counted = join(tempDir("sync-kill"), "counted.sqlite");
      if (before !== "none") copyFileSync(setup, counted);
      const passed = checkpointsPassed();
      await sync({ from: target.dir, db: counted });
      const total = checkpointsPassed() - passed;
      expect(total).toBeGreaterThan(2);
      const random = fc.sample(fc.integer({ min: 1, max: total - 2 }), { seed, numRuns: 1 })[0];
      // At a point drawn from the seed, and right before the last commit.
      const points = [random ?? 1, total - 1];
      const runs = await Promise.all(
        points.map(async (killAt) => {
          const db = join(tempDir("sync-kill"), "copy.sqlite");
          if (before !== "none") copyFileSync(setup, db);
          return { db, killAt, result: await child(target.dir, db, killAt) };
        }),
      );
      for (const { db, killAt, result } of runs) {
        expect(result.signal, `killed at checkpoint ${killAt} of ${total}: ${result.stderr}`).toBe(
          "SIGKILL",
        );
        const at = atCompleteBuild(db, before);
        expect([before === "old" ? OLD_BUILD : "none", ...builds.map((b) => b.builtAt)]).toContain(
          at,
        );
        const next = await sync({ from: target.dir, db });
        expect(next.builtAt).toBe(target.builtAt);
        expect(copyTables(db)).toEqual(expected.get(target.builtAt));
      }
    });

  it("from outside, at a time drawn from the seed: the same", async () => {
    const target = builds.at(-1) as SeriesBuild;
    const db = join(tempDir("sync-kill"), "copy.sqlite");
    await start("first", db);
    const delay = fc.sample(fc.integer({ min: 0, max: 3_000 }), { seed, numRuns: 1 })[0] ?? 0;
    const result = await child(target.dir, db, undefined, delay);
    expect(result.code === 0 || result.signal === "SIGKILL", result.stderr).toBe(true);
    atCompleteBuild(db, "first");
    await sync({ from: target.dir, db });
    expect(copyTables(db)).toEqual(expected.get(target.builtAt));
  });
});
