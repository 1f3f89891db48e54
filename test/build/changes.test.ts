import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { buildToDirectory, type BuildOptions } from "../../generator/build/build.ts";
import { CHANGE_FEED, type ChangeFeed } from "../../generator/contract/changes.ts";
import type { DownloadsManifest } from "../../generator/contract/downloads.ts";
import { countsOfManifest } from "../../generator/build/guards.ts";
import { guardOptions } from "../../generator/cli/options.ts";
import { tempDir } from "../support/fixture.ts";
import { germanCut } from "../support/german-cut.ts";
import { UpstreamServer } from "../support/upstream.ts";
import { dataFile, ROOT } from "../support/paths.ts";
import { copyTables, sortRows } from "../support/sync-series.ts";
import { sync } from "../../generator/sync/sync.ts";
import { SyncStore } from "../../generator/sync/store.ts";
import { parseCsvRows } from "../../generator/contract/csv.ts";

const headersTemplate = readFileSync(join(ROOT, "_headers"), "utf8");

/**
 * GV100AD and Open Postal Codes cut to Berlin and Saxony (germanCut), the same in every build: the
 * change feed and the copy follow the datasets whatever their size, and all of Germany's
 * municipalities and localities were most of each build's and each sync's work.
 */
const GERMAN = (({ "de-gv100ad": gv100ad, "de-postcodes": postcodes }) => ({
  "de-gv100ad": gv100ad,
  "de-postcodes": postcodes,
}))(germanCut(tempDir("changes-german")));

/**
 * The embedded sources copied into `dir` (GV100AD and the postal codes cut), edited by `edit`
 * (file → its lines).
 */
function sources(
  dir: string,
  edit: (name: string, lines: string[]) => string[] = (_, lines) => lines,
): BuildOptions["sources"] {
  mkdirSync(dir, { recursive: true });
  const copy = (name: string, from: string) => {
    const file = join(dir, name);
    writeFileSync(file, edit(name, readFileSync(dataFile(from), "utf8").split("\n")).join("\n"));
    return file;
  };
  return {
    ...GERMAN,
    "de-streets": copy("streets.csv", "de/streets-berlin.csv"),
    "at-municipalities": copy("gemliste_knz.csv", "at/gemliste_knz.csv"),
    "ch-localities": copy("AMTOVZ_CSV_LV95.csv", "ch/AMTOVZ_CSV_LV95.csv"),
  };
}

const build = (
  sources: BuildOptions["sources"],
  builtAt: string,
  out: string,
  extra: Partial<BuildOptions> = {},
) =>
  // No page files and no street-search index: the change feed and the copy follow the datasets,
  // and neither is one (the Worker cuts every page from the packed records; the index was about a
  // third of each build's CPU).
  buildToDirectory(
    {
      root: ROOT,
      sources,
      maxFiles: 20_000,
      pageFiles: false,
      headersTemplate,
      builtAt,
      searchIndex: false,
      ...extra,
    },
    out,
  );

/** A build's public files, as the CDN serves them (the build's own records left out). */
function deployment(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(path, entry.name));
      else
        files.set(
          `/${relative(dir, join(path, entry.name))}`,
          readFileSync(join(path, entry.name)),
        );
    }
  };
  walk(dir);
  return files;
}
const json = <T>(out: string, path: string) =>
  JSON.parse(readFileSync(join(out, path), "utf8")) as T;

describe("the change feed", () => {
  it("names exactly a renamed street, a new municipality and a removed locality, and carries them forward", async () => {
    const work = tempDir("changes");
    const out = join(work, "dist");
    const isRust = (line: string) => line.startsWith("10201;Rust;");
    const isSiglistorfZh = (line: string) =>
      line.startsWith("Siglistorf;5462;00;4745;Oberweningen;93;");
    // The street renamed is the first Berlin row; the municipality is new in the second build, the locality gone from it.
    const street = readFileSync(dataFile("de/streets-berlin.csv"), "utf8").split("\n")[1] ?? "";
    const first = sources(join(work, "a"), (name, lines) =>
      name === "gemliste_knz.csv" ? lines.filter((line) => !isRust(line)) : lines,
    );
    const second = sources(join(work, "b"), (name, lines) =>
      name === "streets.csv"
        ? lines.map((line) => (line === street ? line.replace(/^[^,]+/, "Aalweg") : line))
        : name === "AMTOVZ_CSV_LV95.csv"
          ? lines.filter((line) => !isSiglistorfZh(line))
          : lines,
    );

    await build(first, "2026-11-21T03:00:00.000Z", out);
    // A copy of every dataset, kept in sync with npm run sync (generator/sync/) along the builds.
    const copy = join(work, "copy.sqlite");
    expect((await sync({ from: out, db: copy })).action).toBe("loaded");
    const firstManifest = json<DownloadsManifest>(out, "/downloads/index.json");
    const empty = json<ChangeFeed>(out, CHANGE_FEED);
    expect(empty).toMatchObject({ predecessor: null, builds: [] });
    expect(empty.note).toMatch(/No earlier build/);

    await build(second, "2026-11-22T03:00:00.000Z", out);
    const synced = await sync({ from: out, db: copy });
    expect(synced).toMatchObject({ action: "updated", builds: 1 });
    expect(synced.datasets.find((d) => d.resource === "de.streets")).toMatchObject({
      added: 1,
      removed: 1,
      changed: 0,
    });
    const fresh = join(work, "fresh.sqlite");
    await sync({ from: out, db: fresh });
    expect(copyTables(copy)).toEqual(copyTables(fresh));
    // The table is the CSV download, row by row (its values as text).
    const store = SyncStore.open(copy);
    const rows = store.rows("de_streets").map((row) => row.map(String));
    store.close();
    const download = parseCsvRows(readFileSync(join(out, "downloads/de.streets.csv"), "utf8"));
    expect(sortRows(rows)).toEqual(sortRows(download.slice(1)));
    const feed = json<ChangeFeed>(out, CHANGE_FEED);
    expect(feed.predecessor).toBe("2026-11-21T03:00:00.000Z");
    expect(feed.builds.map((b) => [b.builtAt, b.since])).toEqual([
      ["2026-11-22T03:00:00.000Z", "2026-11-21T03:00:00.000Z"],
    ]);
    const files = feed.builds[0]?.files ?? [];
    const counts = Object.fromEntries(
      files
        .filter((f) => f.format === "json")
        .map((f) => [f.resource, [f.added, f.removed, f.changed]]),
    );
    expect(counts).toEqual({
      "de.streets": [1, 1, 0], // a rename: removed and added
      "at.districts.municipalities": [1, 0, 0],
      "at.federalprovinces.municipalities": [1, 0, 0],
      "ch.localities": [0, 1, 0],
      "ch.cantons.localities": [0, 1, 0],
      "ch.districts.localities": [0, 1, 0],
    });
    // The same change under several parents is one pair of files.
    const paths = new Set(files.map((f) => f.path));
    expect(paths.size).toBe(6);
    expect(
      new Set(files.filter((f) => f.resource.endsWith(".localities")).map((f) => f.path)).size,
    ).toBe(2);
    const streets = json<{ change: string; old?: { name: string }; new?: { name: string } }[]>(
      out,
      files.find((f) => f.resource === "de.streets" && f.format === "json")?.path ?? "",
    );
    const [, oldName = ""] = /^([^,]+)/.exec(street) ?? [];
    expect(streets.map((c) => [c.change, c.old?.name ?? c.new?.name])).toEqual([
      ["removed", oldName],
      ["added", "Aalweg"],
    ]);
    const municipalities = readFileSync(
      join(
        out,
        files.find((f) => f.resource === "at.districts.municipalities" && f.format === "csv")
          ?.path ?? "",
      ),
      "utf8",
    ).split("\r\n");
    expect(municipalities[0]).toMatch(/^Change,Key,Code,Name,/);
    expect(municipalities.slice(1)).toEqual([
      expect.stringMatching(/^added,10201,10201,Rust,/),
      "",
    ]);
    const localities = json<
      { change: string; old: { postalCode: string; name: string; commune: { key: string } } }[]
    >(out, files.find((f) => f.resource === "ch.localities" && f.format === "json")?.path ?? "");
    expect(
      localities.map((c) => [c.change, c.old.postalCode, c.old.name, c.old.commune.key]),
    ).toEqual([["removed", "5462", "Siglistorf", "93"]]);
    const manifest = json<DownloadsManifest>(out, "/downloads/index.json");
    expect(manifest.changeFeed).toMatchObject({
      path: CHANGE_FEED,
      predecessor: "2026-11-21T03:00:00.000Z",
      builds: 1,
    });
    // The guards judge the same figures: per resource, the records the feed adds less those it removes are the change of the count.
    const records = { before: countsOfManifest(firstManifest), after: countsOfManifest(manifest) };
    for (const [resource, after] of records.after) {
      const net = files
        .filter((f) => f.resource === resource && f.format === "json")
        .reduce((sum, f) => sum + f.added - f.removed, 0);
      expect(after - (records.before.get(resource) ?? 0), resource).toBe(net);
    }

    // A day later, nothing changed; the build compares with the deployment (served on loopback), as the nightly does:
    // the feed lists the empty build and keeps the one before, its files fetched and republished.
    const deployed = await UpstreamServer.start(deployment(out));
    try {
      const next = join(work, "next");
      const compared = await guardOptions(
        { maxDrop: 2, maxJoinLoss: 10, baseline: deployed.url("/downloads/index.json") },
        next,
      );
      const summary = await build(second, "2026-11-23T03:00:00.000Z", next, compared);
      expect(summary.guard.baseline).toBe(deployed.url("/downloads/index.json"));
      const later = json<ChangeFeed>(next, CHANGE_FEED);
      expect(later.builds.map((b) => [b.builtAt, b.since, b.files.length])).toEqual([
        ["2026-11-23T03:00:00.000Z", "2026-11-22T03:00:00.000Z", 0],
        ["2026-11-22T03:00:00.000Z", "2026-11-21T03:00:00.000Z", files.length],
      ]);
      for (const path of paths)
        expect(readFileSync(join(next, path)), path).toEqual(readFileSync(join(out, path)));
      // The copy, over HTTP from the deployment it is already at, then from the build after it.
      expect((await sync({ from: deployed.url("/"), db: copy })).action).toBe("unchanged");
      expect(await sync({ from: next, db: copy })).toMatchObject({ action: "updated", builds: 1 });
      // Nothing changed, so every dataset part had the deployed part's SHA-256: none was downloaded.
      expect(
        deployed.urls.filter((url) => /^\/downloads\/[a-z]+\.[^/]*\.json(\.gz)?$/.test(url)),
      ).toEqual([]);
      expect(deployed.urls).toContain("/downloads/index.json");
      // Each read on its own connection: a kept-alive one could be closed by the server as a read goes out.
      expect(deployed.connections).toBe(deployed.urls.length);
    } finally {
      await deployed.close();
    }
  });
});
