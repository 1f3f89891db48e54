import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInto, type BuildOptions } from "../../generator/build/build.ts";
import type { LoadEvent } from "../../generator/sources/load.ts";
import { SOURCE_NAMES } from "../../generator/sources/registry.ts";
import { MemorySink } from "../../generator/io/sink.ts";
import { tempDir } from "../support/fixture.ts";
import { CLI_COMMAND, cliArgs, dataFile, ROOT } from "../support/paths.ts";
import {
  DESTATIS,
  GV100AD_LISTING_PATH,
  LI_STREETS_PATH,
  provinceStreets,
  PUBLISHED,
  publishers,
} from "../support/publishers.ts";
import { UpstreamServer } from "../support/upstream.ts";

const headersTemplate = readFileSync(join(ROOT, "_headers"), "utf8");
const builtAt = "2026-11-22T03:00:00.000Z";
const work = tempDir("remote");
const { files: publisherFiles, local } = publishers(work);
const gv100adZip = publisherFiles.get(PUBLISHED["de-gv100ad"]) as Uint8Array;

let upstream: UpstreamServer;
beforeAll(async () => {
  upstream = await UpstreamServer.start(new Map(publisherFiles));
});
afterAll(() => upstream.close());

/** A remote build through the loopback mirror of every publisher. */
function options(
  cacheDir: string,
  extra: Partial<BuildOptions> = {},
): BuildOptions & { events: LoadEvent[] } {
  const events: LoadEvent[] = [];
  return {
    root: ROOT,
    sources: {},
    remote: true,
    mirror: upstream.mirror,
    // Enough for every resource, and no page files (the Worker cuts every page from the packed
    // records): these tests are about the sources, and each build writes about 2,700 files, not 20,000.
    maxFiles: 20_000,
    pageFiles: false,
    headersTemplate,
    builtAt,
    fetch: { cacheDir, cacheDuration: "1d" },
    onSource: (event) => events.push(event),
    events,
    ...extra,
  };
}

/** Serves `body` at `path` for the duration of `run`. */
async function serving<T>(
  path: string,
  body: Uint8Array | number,
  run: () => Promise<T>,
): Promise<T> {
  const original = upstream.files.get(path);
  upstream.files.set(path, body);
  try {
    return await run();
  } finally {
    if (original === undefined) upstream.files.delete(path);
    else upstream.files.set(path, original);
  }
}

type Manifest = {
  sources: {
    name: string;
    location: string;
    entry?: string;
    lastModified?: string;
    sha256: string;
    edition?: string;
    listing?: string;
    allowEmbedded?: boolean;
  }[];
};

/** One remote build with an empty cache, made when first asked for: the first two tests read it. */
let firstRemote: Promise<{ remote: ReturnType<typeof options>; sink: MemorySink }> | undefined;
const remoteBuild = () =>
  (firstRemote ??= (async () => {
    const sink = new MemorySink();
    const remote = options(join(tempDir("cache"), "c"));
    await buildInto(remote, sink);
    return { remote, sink };
  })());

describe("a build from every publisher (loopback mirror)", () => {
  it("reads all twelve sources from their publishers: the newest GV100AD edition, the BFS snapshot of the build's day, nine Austrian street files, both files of the Swiss street directory", async () => {
    const [connections, requests] = [upstream.connections, upstream.urls.length];
    const { remote, sink } = await remoteBuild();
    // Each download on a connection of its own: none waits on a kept-alive one the server may close.
    expect(upstream.connections - connections).toBe(upstream.urls.length - requests);
    expect(remote.events.filter((e) => e.origin !== "network")).toEqual([]);
    expect([...new Set(remote.events.map((e) => e.name))].sort()).toEqual([...SOURCE_NAMES].sort());
    const manifest = JSON.parse(sink.text("/downloads/index.json") ?? "") as Manifest;
    expect(manifest.sources.find((s) => s.name === "de-gv100ad")).toMatchObject({
      location: upstream.url(`${PUBLISHED["de-gv100ad"]}?__blob=publicationFile`),
      entry: "GV100AD_30112025.txt",
      edition: "2025-11-30",
      listing: upstream.url(GV100AD_LISTING_PATH),
      lastModified: "Sun, 30 Nov 2025 00:00:00 GMT",
    });
    expect(manifest.sources.filter((s) => s.name === "at-streets").map((s) => s.location)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => upstream.url(provinceStreets(n))),
    );
    expect(manifest.sources.find((s) => s.name === "ch-localities")).toMatchObject({
      entry: "AMTOVZ_CSV_LV95/AMTOVZ_CSV_LV95.csv",
    });
    expect(manifest.sources.filter((s) => s.name === "ch-streets").map((s) => s.location)).toEqual([
      upstream.url(PUBLISHED["ch-streets"]),
      upstream.url(LI_STREETS_PATH),
    ]);
    const snapshot = upstream.url(`${PUBLISHED["ch-communes"]}?date=22-11-2026`);
    expect(
      manifest.sources
        .filter((s) => ["ch-cantons", "ch-districts", "ch-communes"].includes(s.name))
        .map((s) => s.location),
    ).toEqual([snapshot, snapshot, snapshot]);
    expect(upstream.urls.filter((url) => url.startsWith(PUBLISHED["ch-communes"]))).toEqual([
      `${PUBLISHED["ch-communes"]}?date=22-11-2026`,
    ]); // once for the three
    // The snapshot holds the 144 districts (no lake-only ones) and the 2,110 communes in force.
    const count = (path: string) => (JSON.parse(sink.text(path) ?? "[]") as unknown[]).length;
    expect([
      count("/downloads/ch.cantons.json"),
      count("/downloads/ch.cantons.districts.json"),
      count("/downloads/ch.cantons.communes.json"),
    ]).toEqual([26, 144, 2110]);
  });

  it("serves the same API as a build from the same files on disk", async () => {
    const { sink: remote } = await remoteBuild();
    const onDisk = new MemorySink();
    await buildInto(
      { ...options(join(tempDir("cache"), "c")), remote: false, sources: local },
      onDisk,
    );
    const differing = [...onDisk.files.keys()].filter(
      (path) => onDisk.text(path) !== remote.text(path),
    );
    expect(differing.sort()).toEqual(["/_build.json", "/downloads/index.json"]); // they name the sources' locations
    expect([...remote.files.keys()].sort()).toEqual([...onDisk.files.keys()].sort());
    const sha = (sink: MemorySink, name: string) =>
      (JSON.parse(sink.text("/downloads/index.json") ?? "") as Manifest).sources.find(
        (s) => s.name === name,
      )?.sha256;
    for (const name of ["de-gv100ad", "ch-localities", "ch-communes"])
      expect(sha(remote, name), name).toBe(sha(onDisk, name));
  }); // a build of every source from each

  it("reads Statistik Austria's files as published (title, 'Erstellt am', ';', BOM, 'Quelle:' footer)", async () => {
    const fixture = (name: string) => readFileSync(dataFile(`at/upstream-format/${name}`));
    const sink = new MemorySink();
    const summary = await serving(PUBLISHED["at-districts"], fixture("districts-fixture.csv"), () =>
      serving(PUBLISHED["at-municipalities"], fixture("municipalities-fixture.csv"), () =>
        // The fixtures are a few rows each: most streets have no district among them. No search
        // index: the readers are the subject (about a third of the build's CPU).
        buildInto(
          options(join(tempDir("cache"), "c"), {
            guards: { maxJoinLoss: 100 },
            searchIndex: false,
          }),
          sink,
        ),
      ),
    );
    const provinces = JSON.parse(sink.text("/downloads/at.federalprovinces.json") ?? "") as {
      key: string;
      name: string;
    }[];
    expect(provinces.map((p) => `${p.key} ${p.name}`)).toEqual(["1 Burgenland", "9 Wien"]);
    const streets = JSON.parse(sink.text("/downloads/at.streets.json") ?? "") as { name: string }[];
    expect(streets.map((s) => s.name)).toContain("Josef Stanislaus Albach-Gasse");
    expect(summary.notes.join("\n")).not.toMatch(/Quelle|Erstellt/); // the title and footer lines are no records
  });

  const newerListing = readFileSync(
    dataFile("de/upstream-format/gemeindeverzeichnis-listing-fixture.html"),
    "utf8",
  ).replace(
    "<li><a",
    `<li><a href="/DE/Themen/Laender-Regionen/Regionales/Gemeindeverzeichnis/Administrativ/Archiv/GV100ADQ/GV100AD3112.html">31.12.2025</a></li>\n      <li><a`,
  );
  it.each([
    [
      "a zip without the data file",
      PUBLISHED["de-gv100ad"],
      zipSync({ "readme.txt": new Uint8Array([65]) }),
      /source de-gv100ad \(.*\): expected one zip entry matching .* found none \(entries: readme\.txt\)/,
    ],
    [
      "a plain file where a zip is expected",
      PUBLISHED["de-gv100ad"],
      readFileSync(dataFile("de/GV100AD_30112025.txt")),
      /source de-gv100ad \(.*\): expected a zip archive/,
    ],
    [
      "a truncated zip",
      PUBLISHED["de-gv100ad"],
      gv100adZip.slice(0, 5000),
      /source de-gv100ad \(.*\): not a readable zip archive/,
    ],
    // A failed download leaves the last good output: the CLI's rows below (its build is the same
    // buildToDirectory), so this row needs no good build of its own first.
    [
      "a 503 from a publisher",
      PUBLISHED["li-communes"],
      503,
      /source li-communes \((http:\S+)\): download failed: Bad response for \1 \(503\)/,
    ],
    [
      "a listing page without editions",
      GV100AD_LISTING_PATH,
      new TextEncoder().encode("<html><body>Wartungsarbeiten</body></html>"),
      /source de-gv100ad \(.*_inhalt\.html\): the listing page names no GV100AD edition/,
    ],
    [
      "a listing page that is gone",
      GV100AD_LISTING_PATH,
      404,
      /source de-gv100ad \(.*_inhalt\.html\): download of the listing page failed: Bad response .* \(404\)/,
    ],
    // Last year's file under this year's name: never used silently.
    [
      "an edition file that holds an older edition",
      `${DESTATIS}/Administrativ/Archiv/GV100ADQ/GV100AD3112.zip`,
      gv100adZip,
      /the newest GV100AD edition listed is 2025-12-31, but .*GV100AD3112\.zip\?__blob=publicationFile holds the edition of 2025-11-30/,
    ],
    [
      "the BFS snapshot as an HTML page",
      PUBLISHED["ch-cantons"],
      new TextEncoder().encode("<html><body>Wartungsarbeiten</body></html>\n"),
      /ch-cantons \(http:\/\/127\.0\.0\.1:\d+\/www\.agvchapp\.bfs\.admin\.ch\/api\/communes\/snapshot\?date=22-11-2026\):1: expected 4 columns/,
    ],
    [
      "a CSV row broken in transfer",
      PUBLISHED["de-streets"],
      new TextEncoder().encode(`${readFileSync(local["de-streets"], "utf8")}"Broken,10115\n`),
      new RegExp(
        `de-streets \\(http:.*streets\\.updated\\.csv\\):${readFileSync(local["de-streets"], "utf8").split("\n").length}: malformed CSV`,
      ),
    ],
  ] as const)("fails on %s, naming the source", async (_, path, body, message) => {
    const listing = path.includes("GV100AD3112") ? newerListing : undefined;
    const run = () =>
      serving(path, body, () =>
        expect(buildInto(options(join(tempDir("cache"), "c")), new MemorySink())).rejects.toThrow(
          message,
        ),
      );
    if (listing === undefined) await run();
    else await serving(GV100AD_LISTING_PATH, new TextEncoder().encode(listing), run);
  });
});

/**
 * The download cache across builds, as operators use it: one build per process (eleventy-fetch
 * remembers per process which cache files exist, so the cache is only seen by the next process).
 */
describe("the CLI with remote sources", () => {
  const cli = (args: string[]) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      // Asynchronous: the loopback publisher runs in this process and must keep answering.
      const child = spawn(CLI_COMMAND, cliArgs(...args), {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("close", (status) => resolve({ status, stderr }));
    });
  const errors = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("error:"));

  it("npm run build -- --remote reads all twelve sources from the publishers (mirror), downloads once per cache duration, fails a bad download in one line and keeps the last good output, uses an expired copy only when told, and reads data/ only for --allow-embedded (the output and the manifest say so)", async () => {
    const out = join(tempDir("remote-cli"), "dist");
    const cacheDir = join(tempDir("cache"), "c");
    const build = (...extra: string[]) =>
      cli([
        "build",
        "--remote",
        "--mirror",
        upstream.mirror,
        "--cache-dir",
        cacheDir,
        "--out",
        out,
        "--max-files",
        "20000",
        "--no-page-files",
        // The sources and the cache are the subject: no search index (about a third of each
        // build's CPU); the in-process builds above keep it, and compare it with a build on disk.
        "--no-search-index",
        ...extra,
      ]);
    const gvPath = PUBLISHED["de-gv100ad"];
    const before = upstream.count(gvPath);

    const first = await build();
    expect(first.status, first.stderr).toBe(0);
    for (const name of SOURCE_NAMES)
      expect(first.stderr, name).toMatch(
        new RegExp(
          `^${name}: ${upstream.mirror.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/\\S+, [0-9.]+ MiB, downloaded`,
          "m",
        ),
      );
    // The size of the download: GV100AD's zip (cut to two states, germanCut) and the postal codes.
    const mib = (path: string) =>
      ((publisherFiles.get(path) as Uint8Array).length / 2 ** 20).toFixed(1);
    expect(first.stderr).toContain(
      `de-gv100ad: ${upstream.url(gvPath)}?__blob=publicationFile, ${mib(gvPath)} MiB, downloaded, edition 2025-11-30 (the newest on ${upstream.url(GV100AD_LISTING_PATH)})`,
    );
    expect(mib(PUBLISHED["de-postcodes"])).not.toBe("0.0");
    expect(first.stderr).toContain(
      `de-postcodes: ${upstream.url(PUBLISHED["de-postcodes"])}, ${mib(PUBLISHED["de-postcodes"])} MiB, downloaded\n`,
    );
    expect(first.stderr).toContain(
      `de-gv100ad: ${upstream.url(GV100AD_LISTING_PATH)}, 0.0 MiB, downloaded\n`,
    ); // the listing page is reported too

    const second = await build();
    expect(second.status).toBe(0);
    expect(second.stderr).toContain(
      `de-gv100ad: ${upstream.url(gvPath)}?__blob=publicationFile, ${mib(gvPath)} MiB, from the cache (downloaded 20`,
    );
    expect(upstream.count(gvPath) - before).toBe(1);
    // One build for two checks (a build fewer): --cache-duration 0s downloads every source again,
    // except the one --allow-embedded reads from data/ (not asked for even with 0s), which the
    // output and the manifest say. The builds below keep the flag, so their output is comparable.
    const localities = upstream.count(PUBLISHED["ch-localities"]);
    const embedded = ["--allow-embedded", "ch-localities"];
    const again = await build("--cache-duration", "0s", ...embedded);
    expect(again.status).toBe(0);
    expect(upstream.count(gvPath) - before).toBe(2); // 0s: downloaded again
    expect(again.stderr).toMatch(
      /^ch-localities: data\/ch\/AMTOVZ_CSV_LV95\.csv, 0\.5 MiB, read \(EMBEDDED by --allow-embedded: not the publisher's current file\)$/m,
    );
    expect(upstream.count(PUBLISHED["ch-localities"])).toBe(localities); // not downloaded
    const manifest = JSON.parse(
      readFileSync(join(out, "downloads/index.json"), "utf8"),
    ) as Manifest;
    expect(manifest.sources.find((s) => s.name === "ch-localities")).toMatchObject({
      location: "data/ch/AMTOVZ_CSV_LV95.csv",
      allowEmbedded: true,
    });
    expect(manifest.sources.filter((s) => s.allowEmbedded === true)).toHaveLength(1);
    const good = readFileSync(join(out, "_files.tsv"), "utf8");

    await serving(PUBLISHED["de-streets"], 404, async () => {
      const failed = await build("--cache-duration", "0s", ...embedded);
      expect(failed.status).toBe(1);
      const url = upstream.url(PUBLISHED["de-streets"]);
      expect(errors(failed.stderr)).toEqual([
        `error: source de-streets (${url}): download failed: Bad response for ${url} (404): Not Found (an expired cached copy exists: --allow-stale would use it)`,
      ]);
      expect(readFileSync(join(out, "_files.tsv"), "utf8")).toBe(good);

      const stale = await build("--cache-duration", "0s", "--allow-stale", ...embedded);
      expect(stale.status).toBe(0);
      expect(stale.stderr).toMatch(
        /de-streets: .*STALE: the download failed, using the cached copy downloaded 20\d\d-.* \(--allow-stale\)/,
      );
      // The build time is in the manifest, the docs page and the change feed (which lists the builds it follows).
      const timeless = (files: string) =>
        files.replace(
          /\/downloads\/index\.json.*\n|\/index\.html.*\n|\/downloads\/changes\/index\.json.*\n/g,
          "",
        );
      expect(timeless(readFileSync(join(out, "_files.tsv"), "utf8"))).toBe(timeless(good));
    });
    for (const [args, message] of [
      [["--cache-duration", "soon"], /--cache-duration.*expected a number and a unit/],
      [["--allow-embedded", "ch-nowhere"], /--allow-embedded.*unknown source 'ch-nowhere'/],
      [["--mirror", "ftp://mirror"], /--mirror.*expected an http:\/\/ or https:\/\/ URL/],
    ] as const) {
      const bad = await cli(["build", ...args]);
      expect(bad.status).toBe(1);
      expect(errors(bad.stderr)).toEqual([expect.stringMatching(message)]);
    }
  });
});
