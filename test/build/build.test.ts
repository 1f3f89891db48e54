import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildInto,
  buildToDirectory,
  type BuildOptions,
  type BuildSummary,
} from "../../generator/build/build.ts";
import { DOCS_FILES, DOCS_ROUTES, MAX_INDEX_SHARDS } from "../../generator/contract/address.ts";
import { ROUTE_TABLE_PATH, type RouteTable } from "../../generator/contract/routes.ts";
import { decodeShard } from "../../generator/contract/shard.ts";
import { parseHeadersFile } from "../../generator/contract/headers.ts";
import { CountingSink, MemorySink } from "../../generator/io/sink.ts";
import { fixtureStreets, STREET_FIXTURE, tempDir } from "../support/fixture.ts";
import { ROOT } from "../support/paths.ts";

const options = (streets: string, maxFiles = 1_000_000): BuildOptions => ({
  root: ROOT,
  sources: { "de-streets": streets },
  maxFiles,
  headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
  only: STREET_FIXTURE,
  builtAt: "2026-11-22T03:00:00.000Z",
});

describe("build into memory", () => {
  const streets = fixtureStreets(tempDir("build"));
  // One build each into memory and into a counting sink at the default budget, read by the tests
  // that only look at it (each build reads and joins every source again); the determinism test
  // makes one more build of its own to compare with.
  let memory: Promise<{ sink: MemorySink; summary: BuildSummary }> | undefined;
  const memoryBuild = () =>
    (memory ??= (async () => {
      const sink = new MemorySink();
      return { sink, summary: await buildInto(options(streets), sink) };
    })());
  let counting: Promise<BuildSummary> | undefined;
  const countingBuild = () => (counting ??= buildInto(options(streets), new CountingSink()));

  it("writes pages for every locality and size, index shards, lists and _headers", async () => {
    const { sink, summary } = await memoryBuild();
    const files = [...sink.files.keys()];
    expect(files.length).toBe([...summary.files.values()].reduce((s, v) => s + v.files, 0));
    expect(summary.plan.sizes.get("de.streets")).toHaveLength(50);
    expect(sink.text("/_p/de.streets/berlin/600/50/12/12.json")).toMatch(/^\[\{"name":/);
    expect(sink.text("/_p/de.streets/berlin/600/10/60/60.csv")?.split("\r\n")).toHaveLength(12);
    expect(files.filter((f) => f.startsWith("/_p/de.streets/berlin/600/7/")).length).toBe(2 * 86);
    const headers = parseHeadersFile(sink.text("/_headers") ?? "");
    // the catch-all, two page rules and two list rules per format, one per docs path (the page at / too)
    expect(headers.ok && headers.rules.map((rule) => rule.pattern)).toEqual([
      "/*",
      "/_p/:res/:sel/:total/:size/:pages/:num.json",
      "/_p/:res/:sel/:total/:size/:pages/:num.csv",
      "/_l/*.json",
      "/_l/*.csv",
      "/downloads/*.json",
      "/downloads/*.csv",
      "/downloads/*.gz",
      ...DOCS_ROUTES.keys(),
    ]);
    expect(sink.text("/_redirects")).toBe(
      "# Generated: public paths served as another file of the build.\n/ /index.html 200\n",
    );
    for (const file of DOCS_FILES) expect(sink.text(file)?.length, file).toBeGreaterThan(1_000);
    expect(summary.files.get("docs")?.files).toBe(DOCS_FILES.length);
    for (const list of ["de.federalstates", "at.federalprovinces", "ch.cantons", "li.communes"]) {
      expect(sink.files.has(`/_l/${list}.json`) && sink.files.has(`/_l/${list}.csv`)).toBe(true);
    }
    const shards = files.filter((f) => f.startsWith("/_i/de.streets/"));
    const table = JSON.parse(sink.text(ROUTE_TABLE_PATH) ?? "") as RouteTable;
    // Each FullTextSearch, Suggestions and AddressCheck follows the Streets whose indexes answer it.
    const answeredBy = ["de.fulltextsearch", "de.suggestions", "de.addresscheck"];
    expect(table.resources.map((r) => r.id)).toEqual(
      STREET_FIXTURE.flatMap((id) => (id === "de.streets" ? [id, ...answeredBy] : [id])),
    );
    const streetShards = table.resources.find((r) => r.id === "de.streets")?.shards ?? 0;
    expect(streetShards).toBeLessThanOrEqual(MAX_INDEX_SHARDS);
    expect(shards.length).toBeLessThanOrEqual(streetShards);
    const decoded = shards.map((f) => decodeShard(sink.text(f) ?? ""));
    const entries = new Map(decoded.flatMap((shard) => [...shard.entries]));
    expect(entries.size).toBe(summary.views.get("de.streets"));
    expect(entries.get("berlin")).toMatchObject({ slug: "berlin", total: 600, records: undefined });
    // Every view has a slug entry for its download, and every view is inlined or packed.
    expect(decoded.reduce((sum, shard) => sum + shard.slugs.size, 0)).toBe(entries.size);
    for (const [key, entry] of entries)
      expect(entry.records === undefined, key).toBe(entry.packed !== undefined);
    const packedBytes = files
      .filter((f) => f.startsWith("/_c/de.streets/json/"))
      .reduce((sum, f) => sum + (sink.files.get(f)?.length ?? 0), 0);
    const berlin = entries.get("berlin")?.packed?.json;
    expect((berlin?.start ?? 0) + (berlin?.bytes ?? 0)).toBeLessThanOrEqual(packedBytes);
    expect(table.commonHeaders.map(([name]) => name)).toContain("Access-Control-Allow-Origin");
  });

  it("renders each view once, however many files it is written into", async () => {
    const summary = await countingBuild();
    const views = [...summary.views.values()].reduce((sum, n) => sum + n, 0) + 4; // + the four unpaged lists
    expect(summary.renders).toBe(views);
  });

  it("is deterministic: the same inputs give the same bytes", async () => {
    const { sink: a } = await memoryBuild();
    const b = new MemorySink();
    await buildInto(options(streets), b);
    const digests = (sink: MemorySink) =>
      [...sink.files].map(
        ([path, data]) => `${path} ${createHash("sha256").update(data).digest("hex")}`,
      );
    expect(digests(b)).toEqual(digests(a));
  });

  it("keeps within the file budget, writing the default page size first", async () => {
    const sink = new MemorySink();
    const summary = await buildInto(options(streets, 2_000), sink);
    expect(sink.files.size).toBeLessThanOrEqual(2_000);
    expect(summary.plan.sizes.get("de.streets")).toContain(50);
    await expect(buildInto(options(streets, 10), new MemorySink())).rejects.toThrow(/too small/);
  });

  it("counts every file it writes in the budget: the smallest budget writes no page file, and the estimates never fall short", async () => {
    const { plan } = await countingBuild();
    const sink = new MemorySink();
    await buildInto(options(streets, plan.minimumFiles), sink);
    const paths = [...sink.files.keys()];
    expect(paths.filter((path) => path.startsWith("/_p/"))).toEqual([]);
    // Packs and downloads are estimated before rendering: never under their real count, not far over.
    const packs = paths.filter((path) => path.startsWith("/_c/")).length;
    const downloads = paths.filter((path) => path.startsWith("/downloads/")).length;
    expect(plan.packFilesReserved).toBeGreaterThanOrEqual(packs);
    expect(plan.packFilesReserved).toBeLessThanOrEqual(packs * 1.5 + 10);
    expect(plan.downloadFilesReserved).toBeGreaterThanOrEqual(downloads);
    expect(plan.downloadFilesReserved).toBeLessThanOrEqual(downloads + 10);
    expect(sink.files.size).toBe(
      plan.minimumFiles -
        (plan.packFilesReserved - packs) -
        (plan.downloadFilesReserved - downloads),
    );
    await expect(
      buildInto(options(streets, plan.minimumFiles - 1), new MemorySink()),
    ).rejects.toThrow(/too small/);
  });
});

describe("build into a directory", () => {
  it("swaps the output in atomically and leaves the last good build when a source is broken", async () => {
    const work = tempDir("atomic");
    const out = join(work, "dist");
    const streets = fixtureStreets(work);
    await buildToDirectory(options(streets), out);
    const before = readFileSync(join(out, "_build.json"), "utf8");
    const broken = join(work, "broken.csv");
    writeFileSync(broken, readFileSync(streets, "utf8") + "Allee,10115,Berlin\n");
    await expect(buildToDirectory(options(broken), out)).rejects.toThrow(
      /broken\.csv:1498: expected 6 columns, found 3/,
    );
    expect(readFileSync(join(out, "_build.json"), "utf8")).toBe(before);
    expect(existsSync(join(out, "_p/de.streets/berlin/600/50/12/1.json"))).toBe(true);
    expect(readdirSync(work).sort()).toEqual(["broken.csv", "dist", "streets.csv"]);
  });
});
