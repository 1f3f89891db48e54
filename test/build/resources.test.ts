import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isFullTextSearch, isSuggesting } from "../../generator/contract/routes.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeShard } from "../../generator/contract/shard.ts";
import { exampleTarget } from "../../generator/resources/resource.ts";
import { buildFixture, FIXTURE_BUDGET } from "../support/fixture.ts";
import { ROOT } from "../support/paths.ts";
import {
  ask,
  parseCsvBody,
  RESOURCES,
  servedBuild,
  unsharedMemoryBuild,
  valueAt,
  viewTarget,
  type MemoryBuild,
} from "../support/memory-build.ts";

/**
 * Every resource, in-process over the embedded data, the street fixture and the generated Swiss
 * street directory: CSV and JSON carry the same values, and a view inlined in its index shard
 * answers byte for byte like the same view served from page files.
 */
// FullTextSearch serves the Streets' records from their index (test/unit/search-index.test.ts, test/integration/search.test.ts),
// and so do Suggestions (test/integration/suggest.test.ts, test/unit/suggest-property.test.ts).
/** The build's files under `prefix` (its index shards), path and text. */
const shards = (build: MemoryBuild, prefix: string): [string, string][] =>
  build.paths.filter((p) => p.startsWith(prefix)).map((p) => [p, build.file(p) ?? ""]);

const PAGED = RESOURCES.filter(
  (r) => r.query.paged && r.id !== "de.streets" && !isFullTextSearch(r) && !isSuggesting(r),
);
let inlined: MemoryBuild;
let paged: MemoryBuild | undefined;
/** The build with no view inlined (until afterAll lets it go). */
const files = (): MemoryBuild => {
  if (paged === undefined) throw new Error("no build");
  return paged;
};

beforeAll(async () => {
  // The whole fixture's build the suites over HTTP serve (built once for all), and the same data
  // (the same source files) with no view inlined and a budget for nearly every page size as files:
  // in memory, since no other suite asks for it (writing its 89,497 files to disk and reading them
  // back cost more than building them).
  const whole = await buildFixture(FIXTURE_BUDGET);
  inlined = servedBuild(whole.dir, whole.summary);
  paged = await unsharedMemoryBuild({
    root: ROOT,
    sources: whole.sources,
    maxFiles: 90_000,
    headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
    only: PAGED.map((r) => r.id),
    inlineShardBytes: 0,
  });
});
// Its files are about 500 MB in memory, and this worker runs other test files after this one
// (isolate: false), which may keep this module loaded.
afterAll(() => {
  paged = undefined;
});

describe("every paged resource", () => {
  it.each(PAGED.map((r) => [r.path, r] as const))(
    "%s: CSV rows hold the JSON records' values, column by column",
    async (_, resource) => {
      const example = resource.examples[0];
      if (example === undefined) throw new Error("no example");
      const query = Object.fromEntries(
        Object.entries(example.query).filter(
          ([name]) => !["page", "pageSize", "format"].includes(name),
        ),
      );
      const target = exampleTarget(resource, { ...example, query });
      const json = JSON.parse((await ask(inlined.handler, target)).text) as unknown[];
      const csv = parseCsvBody(
        (await ask(inlined.handler, `${target}${target.includes("?") ? "&" : "?"}format=csv`)).text,
      );
      expect(json.length).toBeGreaterThan(0);
      expect(csv).toHaveLength(json.length);
      json.forEach((record, i) => {
        for (const column of resource.record.columns)
          expect(csv[i]?.[column.header], `${target} #${i} ${column.header}`).toBe(
            valueAt(record, column.header),
          );
      });
    },
  );

  it("writes each record once into a resource's whole-dataset download, also where optional filters give a record several views", async () => {
    for (const resource of PAGED) {
      const files = inlined.summary.downloads.files.filter(
        (f) =>
          f.endpoint === resource.path &&
          f.filter === undefined &&
          f.format === "json" &&
          f.gzipOf === undefined,
      );
      const records = files.reduce((sum, f) => sum + f.records, 0);
      if (resource.patterns !== undefined) {
        expect(records, resource.path).toBe(
          Number(
            (await ask(inlined.handler, `${resource.path}?postalCode=%5E`)).headers[
              "x-total-count"
            ],
          ),
        );
      } else expect(records, resource.path).toBeGreaterThan(0);
    }
    // A parent matched by key or code (AT districts), or by number or historical number (CH districts), lists a record under each; the dataset once.
    const datasetRecords = (id: string) =>
      inlined.summary.downloads.files
        .filter(
          (f) => f.path === `/downloads/${id}.json` || f.path.startsWith(`/downloads/${id}.part-`),
        )
        .reduce(
          (sum, f) => sum + (f.gzipOf === undefined && f.format === "json" ? f.records : 0),
          0,
        );
    const total = async (path: string) =>
      Number((await ask(inlined.handler, `${path}?postalCode=%5E`)).headers["x-total-count"]);
    expect(datasetRecords("at.districts.municipalities")).toBe(2117);
    expect(datasetRecords("at.federalprovinces.municipalities")).toBe(2117);
    expect(datasetRecords("at.districts.localities")).toBe(await total("/at/Localities"));
    expect(datasetRecords("ch.districts.communes")).toBe(datasetRecords("ch.cantons.communes"));
    for (const id of ["ch.districts.localities", "ch.cantons.localities"])
      expect(datasetRecords(id), id).toBe(await total("/ch/Localities"));
    expect(datasetRecords("de.federalstates.localities")).toBe(await total("/de/Localities"));
  });

  it("inlines small views and writes none of their page files", () => {
    const count = (build: MemoryBuild) =>
      [...build.summary.plan.inlined.values()].reduce((sum, keys) => sum + keys.size, 0);
    expect(count(inlined)).toBeGreaterThan(400);
    expect(count(files())).toBe(0);
    const pageFiles = (build: MemoryBuild) =>
      build.paths.filter((p) => p.startsWith("/_p/")).length;
    expect(pageFiles(inlined)).toBeLessThan(pageFiles(files()));
    // A shard holds at most 32 KiB of inlined records; a packed view adds its records' lengths (a few bytes each).
    for (const [path, text] of shards(inlined, "/_i/")) {
      const entries = [...decodeShard(text).entries.values()];
      const inlinedBytes = entries.reduce(
        (sum, e) =>
          sum + (e.records ?? []).reduce((n: number, r) => n + JSON.stringify(r).length + 1, 0),
        0,
      );
      const packedRecords = entries.reduce(
        (sum, e) => sum + (e.packed === undefined ? 0 : e.total),
        0,
      );
      expect(inlinedBytes, path).toBeLessThanOrEqual(32 * 1024);
      expect(text.length, path).toBeLessThan(32 * 1024 + 8 * packedRecords + 256 * entries.length);
    }
  });

  it("answers an inlined view exactly as page files would: every size, page and format, headers included", async () => {
    let compared = 0;
    for (const resource of PAGED) {
      // Up to 80 inlined views per resource, spread over its shards.
      const entries = shards(inlined, `/_i/${resource.id}/`).flatMap(([, text]) =>
        [...decodeShard(text).entries].filter(([, e]) => e.records !== undefined),
      );
      const step = Math.max(1, Math.floor(entries.length / 80));
      for (const [key, { total }] of entries.filter((_, i) => i % step === 0)) {
        const target = viewTarget(resource, key);
        for (const size of [1, 2, 3, 7, 10, 49, 50]) {
          for (let page = 1; page <= Math.ceil(total / size) + 1; page += size === 1 ? 5 : 1) {
            for (const format of ["json", "csv"]) {
              const request = `${target}${target.includes("?") ? "&" : "?"}pageSize=${size}&page=${page}&format=${format}`;
              const [a, b] = await Promise.all([
                ask(inlined.handler, request),
                ask(files().handler, request),
              ]);
              expect(a.status, request).toBe(200);
              // In-process, an asset's length is a property of its body, not a header (workerd adds it on the wire).
              const { "content-length": length, ...headers } = a.headers;
              const { "content-length": _, ...others } = b.headers;
              expect(length, request).toBe(String(Buffer.byteLength(a.text)));
              expect(headers, request).toEqual(others);
              expect(a.text, request).toBe(b.text);
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
