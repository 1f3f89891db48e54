import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInto, buildToDirectory, type BuildOptions } from "../../generator/build/build.ts";
import type { LoadEvent } from "../../generator/sources/load.ts";
import { SOURCES, sourceLocations, type SourceName, type SourceSpec } from "../../generator/sources/registry.ts";
import { MemorySink } from "../../generator/io/sink.ts";
import { fixtureStreets, tempDir } from "../support/fixture.ts";
import { dataFile, ROOT } from "../support/paths.ts";
import { UpstreamServer, type Upstream } from "../support/upstream.ts";

const headersTemplate = readFileSync(join(ROOT, "_headers"), "utf8");
const builtAt = "2026-11-22T03:00:00.000Z";
const work = tempDir("remote");
const streetsFile = fixtureStreets(work);
const gv100ad = readFileSync(dataFile("de/GV100AD_30112025.txt"));
const swissStreetsFixture = dataFile("ch/upstream-format/amtliches-strassenverzeichnis-fixture.csv");

/** Each source at a loopback path, in the publisher's format (GV100AD zipped, as Destatis ships it). */
const PATHS: Record<SourceName, string> = {
  "de-streets": "/openplz/streets.updated.csv",
  "de-gv100ad": "/destatis/GV100AD3107.zip",
  "de-postcodes": "/opc/post_code.csv",
  "at-districts": "/statistik/districts.txt",
  "at-municipalities": "/statistik/gemliste_knz.csv",
  "at-streets": "/statistik/gemplzstr_8.csv",
  "ch-cantons": "/bfs/GDEHist_KT.txt",
  "ch-districts": "/bfs/GDEHist_BEZ.txt",
  "ch-communes": "/bfs/GDEHist_GDE.txt",
  "ch-localities": "/swisstopo/AMTOVZ_CSV_LV95.csv",
  "li-communes": "/openplz/li/communes.csv",
  "ch-streets": "/swisstopo/amtliches-strassenverzeichnis_ch_2056.csv.zip",
};
const publisherFiles = (): Upstream =>
  new Map<string, Uint8Array | number>([
    [PATHS["de-streets"], readFileSync(streetsFile)],
    [PATHS["de-gv100ad"], zipSync({ "GV100AD_30112025.txt": gv100ad, "Hinweise.pdf": new Uint8Array([37, 80, 68, 70]) })],
    [PATHS["de-postcodes"], readFileSync(dataFile("de/post_code.csv"))],
    [PATHS["at-districts"], readFileSync(dataFile("at/districts-2015.txt"))],
    [PATHS["at-municipalities"], readFileSync(dataFile("at/gemliste_knz.csv"))],
    [PATHS["at-streets"], readFileSync(dataFile("at/gemplzstr_8-vorarlberg-sample.csv"))],
    [PATHS["ch-cantons"], readFileSync(dataFile("ch/GDEHist_KT.txt"))],
    [PATHS["ch-districts"], readFileSync(dataFile("ch/GDEHist_BEZ.txt"))],
    [PATHS["ch-communes"], readFileSync(dataFile("ch/GDEHist_GDE.txt"))],
    [PATHS["ch-localities"], readFileSync(dataFile("ch/AMTOVZ_CSV_LV95.csv"))],
    [PATHS["li-communes"], readFileSync(dataFile("li/communes.csv"))],
    [PATHS["ch-streets"], zipSync({ "amtliches-strassenverzeichnis_ch_2056.csv": readFileSync(swissStreetsFixture) })],
  ]);

let upstream: UpstreamServer;
beforeAll(async () => {
  upstream = await UpstreamServer.start(publisherFiles());
});
afterAll(() => upstream.close());

const remoteSources = () => Object.fromEntries(Object.entries(PATHS).map(([name, path]) => [name, upstream.url(path)])) as Record<SourceName, string>;

function options(cacheDir: string, extra: Partial<BuildOptions> = {}): BuildOptions & { events: LoadEvent[] } {
  const events: LoadEvent[] = [];
  return {
    root: ROOT,
    sources: remoteSources(),
    // Enough for every resource; a smaller output keeps the disk builds quick.
    maxFiles: 20_000,
    headersTemplate,
    builtAt,
    fetch: { cacheDir, cacheDuration: "1d" },
    onSource: (event) => events.push(event),
    events,
    ...extra,
  };
}

describe("--remote", () => {
  it("points every source at its publisher's URL, overrides first", () => {
    const locations = sourceLocations(ROOT, { "de-streets": "local.csv" }, true);
    expect(locations["de-streets"]).toEqual({ kind: "file", path: join(ROOT, "local.csv") });
    expect(locations["de-gv100ad"]).toEqual({ kind: "url", urls: [SOURCES["de-gv100ad"].upstream] });
    // A source without a reader for its publisher's format stays embedded, and the registry says why.
    expect(locations["ch-cantons"]).toEqual({ kind: "file", path: join(ROOT, SOURCES["ch-cantons"].embedded) });
    // The street directory has no embedded copy: a build reads it only when it is given or fetched.
    expect(locations["ch-streets"]).toEqual({ kind: "url", urls: SOURCES["ch-streets"].upstream });
    expect(sourceLocations(ROOT, {}, false)["ch-streets"]).toBeUndefined();
    for (const spec of Object.values(SOURCES) as SourceSpec[]) {
      const urls = [spec.upstream ?? []].flat();
      expect(urls.length > 0 ? urls.every((url) => url.startsWith("https://")) : spec.noUpstream !== undefined).toBe(true);
    }
  });
});

describe("a build from downloaded sources (loopback publishers)", () => {
  it("serves the same API as a build from the same files on disk", async () => {
    const cacheDir = join(tempDir("cache"), "c");
    const [remote, local] = [new MemorySink(), new MemorySink()];
    const remoteOptions = options(cacheDir);
    await buildInto(remoteOptions, remote);
    await buildInto({ ...options(cacheDir), sources: { "de-streets": streetsFile, "ch-streets": swissStreetsFixture } }, local);
    expect(remoteOptions.events.map((e) => [e.name, e.origin]).sort()).toEqual(Object.keys(PATHS).map((name) => [name, "network"]).sort());
    const differing = [...local.files.keys()].filter((path) => local.text(path) !== remote.text(path));
    expect(differing.sort()).toEqual(["/_build.json", "/downloads/index.json"]); // they name the sources' locations
    expect([...remote.files.keys()].sort()).toEqual([...local.files.keys()].sort());
    const manifest = JSON.parse(remote.text("/downloads/index.json") ?? "") as { sources: { name: string; location: string; entry?: string; lastModified?: string; sha256: string }[] };
    const gv = manifest.sources.find((s) => s.name === "de-gv100ad");
    expect(gv).toMatchObject({ location: upstream.url(PATHS["de-gv100ad"]), entry: "GV100AD_30112025.txt", lastModified: "Sun, 30 Nov 2025 00:00:00 GMT" });
    expect(gv?.sha256).toBe((JSON.parse(local.text("/downloads/index.json") ?? "") as typeof manifest).sources.find((s) => s.name === "de-gv100ad")?.sha256);
  }, 120_000);

  it("reads Statistik Austria's files as published (title, 'Erstellt am', ';', BOM, 'Quelle:' footer), a source in several parts", async () => {
    const fixture = (name: string) => readFileSync(dataFile(`at/upstream-format/${name}`));
    const paths = { districts: "/statistik/polbezirke.csv", municipalities: "/statistik/gemliste_knz.csv", burgenland: "/statistik/gemplzstr_1.csv", vorarlberg: "/statistik/gemplzstr_8.csv" };
    upstream.files.set(paths.districts, fixture("districts-fixture.csv"));
    upstream.files.set(paths.municipalities, fixture("municipalities-fixture.csv"));
    upstream.files.set(paths.burgenland, fixture("streets-fixture.csv"));
    upstream.files.set(paths.vorarlberg, readFileSync(dataFile("at/gemplzstr_8-vorarlberg-sample.csv")));
    const sink = new MemorySink();
    const summary = await buildInto(
      options(join(tempDir("cache"), "c"), {
        sources: { ...remoteSources(), "at-districts": upstream.url(paths.districts), "at-municipalities": upstream.url(paths.municipalities), "at-streets": [upstream.url(paths.burgenland), upstream.url(paths.vorarlberg)] },
      }),
      sink,
    );
    const provinces = JSON.parse(sink.text("/downloads/at.federalprovinces.json") ?? "") as { key: string; name: string }[];
    expect(provinces.map((p) => `${p.key} ${p.name}`)).toEqual(["1 Burgenland", "9 Wien"]);
    const streets = JSON.parse(sink.text("/downloads/at.streets.json") ?? "") as { name: string }[];
    expect(streets.map((s) => s.name)).toContain("Josef Stanislaus Albach-Gasse");
    const manifest = JSON.parse(sink.text("/downloads/index.json") ?? "") as { sources: { name: string; location: string }[] };
    expect(manifest.sources.filter((s) => s.name === "at-streets").map((s) => s.location)).toEqual([upstream.url(paths.burgenland), upstream.url(paths.vorarlberg)]);
    expect(summary.notes.join("\n")).not.toMatch(/Quelle|Erstellt/); // the title and footer lines are no records
  }, 120_000);

  it("fails naming the source when a download fails, and keeps the last good output", async () => {
    const out = join(tempDir("remote-out"), "dist");
    const cacheDir = join(tempDir("cache"), "c");
    await buildToDirectory(options(cacheDir), out);
    const good = readFileSync(join(out, "_files.tsv"), "utf8");
    upstream.files.set(PATHS["li-communes"], 503);
    try {
      const noCache = join(tempDir("cache"), "c");
      await expect(buildToDirectory(options(noCache), out)).rejects.toThrow(`source li-communes (${upstream.url(PATHS["li-communes"])}): download failed: Bad response for ${upstream.url(PATHS["li-communes"])} (503)`);
      expect(readFileSync(join(out, "_files.tsv"), "utf8")).toBe(good);
    } finally {
      upstream.files.set(PATHS["li-communes"], readFileSync(dataFile("li/communes.csv")));
    }
  }, 120_000);

  it.each([
    ["a zip without the data file", "de-gv100ad", zipSync({ "readme.txt": new Uint8Array([65]) }), /source de-gv100ad \(.*\): expected one zip entry matching .* found none \(entries: readme\.txt\)/],
    ["a plain file where a zip is expected", "de-gv100ad", gv100ad, /source de-gv100ad \(.*\): expected a zip archive/],
    ["a truncated zip", "de-gv100ad", zipSync({ "GV100AD_30112025.txt": gv100ad }).slice(0, 5000), /source de-gv100ad \(.*\): not a readable zip archive/],
    ["an HTML error page instead of CSV", "li-communes", new TextEncoder().encode("<html><body>Wartungsarbeiten</body></html>\n"), /li-communes \(http:\/\/127\.0\.0\.1:\d+\/openplz\/li\/communes\.csv\):1: /],
    ["a CSV row broken in transfer", "de-streets", new TextEncoder().encode(`${readFileSync(streetsFile, "utf8")}"Broken,10115\n`), new RegExp(`de-streets \\(http:.*streets\\.updated\\.csv\\):${readFileSync(streetsFile, "utf8").split("\n").length}: malformed CSV`)],
  ] as const)("fails on %s, naming the source", async (_, name, body, message) => {
    const original = upstream.files.get(PATHS[name]);
    upstream.files.set(PATHS[name], body);
    try {
      await expect(buildInto(options(join(tempDir("cache"), "c")), new MemorySink())).rejects.toThrow(message);
    } finally {
      if (original !== undefined) upstream.files.set(PATHS[name], original);
    }
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
      const child = spawn(join(ROOT, "node_modules/.bin/tsx"), ["generator/cli/main.ts", ...args], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("close", (status) => resolve({ status, stderr }));
    });
  const errors = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("error:"));

  it("downloads once per cache duration, fails a bad download in one line, and uses an expired copy only when told", async () => {
    const out = join(tempDir("remote-cli"), "dist");
    const cacheDir = join(tempDir("cache"), "c");
    const sources = Object.entries(remoteSources()).flatMap(([name, url]) => ["--source", `${name}=${url}`]);
    const build = (...extra: string[]) => cli(["build", ...sources, "--cache-dir", cacheDir, "--out", out, "--max-files", "20000", ...extra]);
    const gvPath = PATHS["de-gv100ad"];
    const before = upstream.count(gvPath);

    const first = await build();
    expect(first.stderr).toContain(`de-gv100ad: ${upstream.url(gvPath)}, 0.4 MiB, downloaded`); // the zip
    expect(first.status).toBe(0);

    const second = await build();
    expect(second.status).toBe(0);
    const good = readFileSync(join(out, "_files.tsv"), "utf8");
    expect(second.stderr).toMatch(/de-gv100ad: .*, 0\.4 MiB, from the cache \(downloaded 20\d\d-/);
    expect(upstream.count(gvPath) - before).toBe(1);

    upstream.files.set(PATHS["de-streets"], 404);
    try {
      const failed = await build("--cache-duration", "0s");
      expect(failed.status).toBe(1);
      const url = upstream.url(PATHS["de-streets"]);
      expect(errors(failed.stderr)).toEqual([`error: source de-streets (${url}): download failed: Bad response for ${url} (404): Not Found (an expired cached copy exists: --allow-stale would use it)`]);
      expect(upstream.count(gvPath) - before).toBe(2); // 0s: downloaded again
      expect(readFileSync(join(out, "_files.tsv"), "utf8")).toBe(good);

      const stale = await build("--cache-duration", "0s", "--allow-stale");
      expect(stale.status).toBe(0);
      expect(stale.stderr).toMatch(/de-streets: .*STALE: the download failed, using the cached copy downloaded 20\d\d-.* \(--allow-stale\)/);
      expect(readFileSync(join(out, "_files.tsv"), "utf8").replace(/\/downloads\/index\.json.*\n|\/index\.html.*\n/g, "")).toBe(good.replace(/\/downloads\/index\.json.*\n|\/index\.html.*\n/g, ""));
    } finally {
      upstream.files.set(PATHS["de-streets"], readFileSync(streetsFile));
    }
    const badDuration = await cli(["build", "--cache-duration", "soon"]);
    expect(badDuration.status).toBe(1);
    expect(errors(badDuration.stderr)).toEqual([expect.stringMatching(/--cache-duration.*expected a number and a unit/)]);
  }, 180_000);
});
