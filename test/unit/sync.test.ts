import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { ChangeFeed } from "../../generator/contract/changes.ts";
import { summaryLines } from "../../generator/sync/report.ts";
import { sync, type SyncOptions } from "../../generator/sync/sync.ts";
import { tempDir } from "../support/fixture.ts";
import { CLI_COMMAND, cliArgs, ROOT } from "../support/paths.ts";
import {
  copyTables,
  inSchemaOrder,
  SERIES,
  seriesBuild,
  untied,
  type SeriesBuild,
} from "../support/sync-series.ts";
import { UpstreamServer } from "../support/upstream.ts";

/** What a run said and did; the database's bytes before and after. */
async function run(options: SyncOptions) {
  const said: string[] = [];
  const before = readOrNothing(options.db);
  const summary = await sync({ ...options, say: (line) => said.push(line) });
  return { summary, said: said.join("\n"), unchanged: readOrNothing(options.db).equals(before) };
}

function readOrNothing(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    return Buffer.alloc(0);
  }
}

/** Builds of the series' datasets with fixed records: `present` says which datasets each build has, `days` when. */
async function series(
  name: string,
  present: readonly (readonly number[])[],
  days: readonly string[],
): Promise<SeriesBuild[]> {
  const work = tempDir(name);
  const builds: SeriesBuild[] = [];
  for (const [n, indexes] of present.entries()) {
    const datasets = new Map(
      indexes.map((i) => {
        const { resource, record } = SERIES[i] ?? (SERIES[0] as (typeof SERIES)[number]);
        const records = fc.sample(record, { seed: 40 + n * 10 + i, numRuns: 30 });
        return [
          resource,
          untied(
            resource,
            records.map((r) => inSchemaOrder(resource, r)),
          ),
        ];
      }),
    );
    builds.push(
      await seriesBuild(
        builds.at(-1),
        `${days[n] ?? ""}T03:00:00.000Z`,
        datasets,
        join(work, `${n}`),
      ),
    );
  }
  return builds;
}

const at = (builds: SeriesBuild[], n: number) => builds[n] as SeriesBuild;
let three: SeriesBuild[];

beforeAll(async () => {
  three = await series(
    "sync-three",
    [
      [0, 1],
      [0, 1],
      [0, 1],
    ],
    ["2026-01-01", "2026-01-02", "2026-01-03"],
  );
});

describe("npm run sync", () => {
  it("refuses a change file whose SHA-256 is not the feed's, and applies nothing (not even the builds before it)", async () => {
    const db = join(tempDir("sync-sha"), "copy.sqlite");
    await sync({ from: at(three, 0).dir, db });
    const feed = JSON.parse(
      readFileSync(join(at(three, 2).dir, "downloads/changes/index.json"), "utf8"),
    ) as ChangeFeed;
    const newest = feed.builds[0]?.files.find((f) => f.format === "json");
    expect(newest).toBeDefined();
    const file = join(at(three, 2).dir, newest?.path ?? "");
    const bytes = readFileSync(file);
    writeFileSync(file, Buffer.concat([bytes, Buffer.from(" ")]));
    try {
      const before = readFileSync(db);
      await expect(sync({ from: at(three, 2).dir, db })).rejects.toThrow(
        /^\S+: SHA-256 [0-9a-f]{64}, but the change feed says [0-9a-f]{64}: refused, nothing applied/,
      );
      expect(readFileSync(db).equals(before)).toBe(true);
    } finally {
      writeFileSync(file, bytes);
    }
    expect((await run({ from: at(three, 2).dir, db })).summary).toMatchObject({
      action: "updated",
      builds: 2,
    });
  });

  it("refuses a dataset part whose SHA-256 is not the manifest's: a new copy gets no table", async () => {
    const db = join(tempDir("sync-sha"), "copy.sqlite");
    const part = at(three, 0).manifest.files.find((f) => f.format === "json" && f.part === 2);
    expect(part).toBeDefined();
    const file = join(at(three, 0).dir, part?.path ?? "");
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.toString().replace("Hauptstraße", "Hauptstrasse"));
    try {
      await expect(sync({ from: at(three, 0).dir, db })).rejects.toThrow(/SHA-256 .* refused/);
      expect(copyTables(db)).toEqual(new Map());
    } finally {
      writeFileSync(file, bytes);
    }
  });

  it("loads a copy again when its build is not in the feed, or older than the feed reaches, saying why in one line", async () => {
    const db = join(tempDir("sync-reach"), "copy.sqlite");
    await sync({ from: at(three, 0).dir, db });
    const raw = new DatabaseSync(db);
    raw
      .prepare("UPDATE plz_sync SET value = ? WHERE key = 'builtAt'")
      .run("2026-01-01T12:00:00.000Z");
    raw.close();
    const notInFeed = await run({ from: at(three, 2).dir, db });
    expect(notInFeed.summary.action).toBe("reloaded");
    expect(notInFeed.said).toBe(
      "the copy's build 2026-01-01T12:00:00.000Z is not one the change feed starts a build from: loading the datasets again",
    );
    expect(copyTables(db)).toEqual(copyTables(await fresh(at(three, 2))));

    // 95 days apart: the newest build's feed no longer holds the build after the copy's.
    const far = await series(
      "sync-far",
      [[0], [0], [0]],
      ["2026-01-01", "2026-04-06", "2026-07-10"],
    );
    const old = join(tempDir("sync-reach"), "old.sqlite");
    await sync({ from: at(far, 0).dir, db: old });
    const tooOld = await run({ from: at(far, 2).dir, db: old });
    expect(tooOld.summary.action).toBe("reloaded");
    expect(tooOld.said).toBe(
      "the change feed reaches back to the build of 2026-04-06T03:00:00.000Z, and the copy is of 2026-01-01T03:00:00.000Z: loading the datasets again",
    );
    expect(copyTables(old)).toEqual(copyTables(await fresh(at(far, 2))));
  });

  it("loads a dataset again when the copy does not hold what the feed says, or the build's count", async () => {
    const db = join(tempDir("sync-diverged"), "copy.sqlite");
    await sync({ from: at(three, 0).dir, db });
    const feed = JSON.parse(
      readFileSync(join(at(three, 1).dir, "downloads/changes/index.json"), "utf8"),
    ) as ChangeFeed;
    const file = feed.builds[0]?.files.find(
      (f) => f.resource === "de.streets" && f.format === "json",
    );
    const changes = JSON.parse(readFileSync(join(at(three, 1).dir, file?.path ?? ""), "utf8")) as {
      change: string;
      old?: { name: string; postalCode: string };
    }[];
    const removed = changes.find((c) => c.change === "removed")?.old;
    expect(removed).toBeDefined();
    const raw = new DatabaseSync(db);
    // A record the feed removes is gone already.
    const remove = raw.prepare(
      "DELETE FROM de_streets WHERE rowid = (SELECT rowid FROM de_streets WHERE Name = ? AND PostalCode = ? LIMIT 1)",
    );
    remove.run(removed?.name ?? "", removed?.postalCode ?? "");
    raw.close();
    const mismatch = await run({ from: at(three, 1).dir, db });
    expect(mismatch.summary.action).toBe("reloaded");
    expect(mismatch.said).toMatch(
      /^the copy does not hold what the change feed says at the build of 2026-01-02T03:00:00\.000Z \(de\.streets: a removed record \[.*\], which it does not hold\): loading the datasets again$/,
    );
    expect(copyTables(db)).toEqual(copyTables(await fresh(at(three, 1))));

    const kept = await fresh(at(three, 1));
    const other = new DatabaseSync(kept);
    // A record no build has: the feed never touches it, the count gives it away.
    other.exec("INSERT INTO de_federalstates VALUES ('99', 'Nowhere', 'Nowhere')");
    other.close();
    const counted = await run({ from: at(three, 2).dir, db: kept });
    expect(counted.summary.action).toBe("updated");
    expect(counted.said).toMatch(
      /^de\.federalstates: the copy holds \d+ records, the build \d+: loading it again$/,
    );
    expect(copyTables(kept)).toEqual(copyTables(await fresh(at(three, 2))));
  });

  it("loads the copy again when a table is not of the layout this version makes", async () => {
    const db = await fresh(at(three, 0));
    const raw = new DatabaseSync(db);
    raw.prepare("UPDATE plz_sync_datasets SET layout = '{}' WHERE resource = 'de.streets'").run();
    raw.close();
    const next = await run({ from: at(three, 1).dir, db });
    expect(next.summary.action).toBe("reloaded");
    expect(next.said).toBe(
      "the tables of de.streets are not of the layout this version of plz-static makes: loading the datasets again",
    );
    expect(copyTables(db)).toEqual(copyTables(await fresh(at(three, 1))));
  });

  it("says so when there is nothing new, and writes nothing", async () => {
    const db = join(tempDir("sync-nothing"), "copy.sqlite");
    await sync({ from: at(three, 1).dir, db });
    const again = await run({ from: at(three, 1).dir, db });
    expect(again.summary).toMatchObject({ action: "unchanged", builds: 0 });
    expect(again.unchanged).toBe(true);
    expect(summaryLines(again.summary)).toEqual([
      expect.stringMatching(
        /^\S+copy\.sqlite is up to date: the build of 2026-01-02T03:00:00\.000Z from \S+; nothing changed \(\d+\.\d s\)$/,
      ),
    ]);
  });

  it("reports a dataset added or dropped upstream: loaded or removed (all datasets), or named (those listed)", async () => {
    const builds = await series(
      "sync-datasets",
      [
        [0, 1],
        [0, 2],
      ],
      ["2026-01-01", "2026-01-02"],
    );
    const all = join(tempDir("sync-datasets"), "all.sqlite");
    await sync({ from: at(builds, 0).dir, db: all });
    const next = await run({ from: at(builds, 1).dir, db: all });
    expect(next.said.split("\n")).toEqual([
      "li.localities: new at the source, loaded",
      "de.federalstates: no longer published by the source: its table de_federalstates is removed",
    ]);
    expect([...copyTables(all).keys()]).toEqual(["de.streets", "li.localities"]);
    expect(copyTables(all)).toEqual(copyTables(await fresh(at(builds, 1))));

    const listed = join(tempDir("sync-datasets"), "listed.sqlite");
    await sync({ from: at(builds, 0).dir, db: listed, datasets: ["de.streets"] });
    const named = await run({ from: at(builds, 1).dir, db: listed });
    expect(named.said.split("\n")).toEqual([
      "li.localities: new at the source, not in this copy (add it with --datasets li.localities)",
      "de.federalstates: no longer published by the source",
    ]);
    expect([...copyTables(listed).keys()]).toEqual(["de.streets"]);
    const added = await run({ from: at(builds, 1).dir, db: listed, datasets: ["li.localities"] });
    expect(added.summary.action).toBe("updated");
    expect(copyTables(listed)).toEqual(copyTables(await fresh(at(builds, 1))));
  });

  it("reads a deployment over HTTP, the gzip copies where there are some, as it reads a directory", async () => {
    const files = (build: SeriesBuild) =>
      new Map([...build.sink.files].map(([path, data]) => [path, Buffer.from(data)]));
    const server = await UpstreamServer.start(files(at(three, 0)));
    try {
      const db = join(tempDir("sync-http"), "copy.sqlite");
      expect((await run({ from: server.url("/"), db })).summary.action).toBe("loaded");
      expect(server.urls.filter((url) => url.endsWith(".json.gz")).length).toBeGreaterThan(0);
      server.files.clear();
      for (const [path, data] of files(at(three, 2))) server.files.set(path, data);
      expect((await run({ from: server.url("/downloads/index.json"), db })).summary).toMatchObject({
        action: "updated",
        builds: 2,
        source: server.url(""),
      });
      expect(copyTables(db)).toEqual(copyTables(await fresh(at(three, 2))));
    } finally {
      await server.close();
    }
  });

  it("refuses a table it did not make, and datasets the source does not have", async () => {
    const db = join(tempDir("sync-foreign"), "copy.sqlite");
    const raw = new DatabaseSync(db);
    raw.exec("CREATE TABLE de_streets (mine TEXT)");
    raw.close();
    await expect(sync({ from: at(three, 0).dir, db })).rejects.toThrow(
      "the database has a table de_streets that the sync did not make: it is not replaced (use another --db)",
    );
    await expect(
      sync({ from: at(three, 0).dir, db: `${db}2`, datasets: ["de.streets", "at.streets"] }),
    ).rejects.toThrow(
      /^--datasets: at\.streets is not a dataset of the source \(it has de\.federalstates, de\.streets\)$/,
    );
  });

  it("from the command line: an error is one line and exit code 1", async () => {
    const missing = join(tempDir("sync-cli"), "nothing");
    const failed = await promisify(execFile)(
      CLI_COMMAND,
      cliArgs("sync", "--from", missing, "--db", `${missing}.sqlite`),
      { cwd: ROOT },
    ).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toBe(
      `error: ${missing} is not a build (no downloads/index.json); run npm run build\n`,
    );
  });
});

/** A fresh copy of a build. */
async function fresh(build: SeriesBuild): Promise<string> {
  const db = join(tempDir("sync-fresh"), "fresh.sqlite");
  await sync({ from: build.dir, db });
  return db;
}
