import { describe, expect, it } from "vitest";
import {
  downloadHeaderRules,
  listHeaderRules,
  pageHeaderRules,
} from "../../generator/contract/header-rules.ts";
import { parseHeadersFile } from "../../generator/contract/headers.ts";
import {
  bitmapPath,
  datasetPath,
  FORMAT_VERSION,
  formatMismatch,
  gzipPath,
  indexPath,
  lexiconPath,
  listChunkPath,
  listPath,
  packPath,
  pagePath,
  placesPath,
  recordsPath,
  ROUTE_TABLE_PATH,
  searchMetaPath,
  tailsPath,
  trigramPath,
  viewDownloadPath,
} from "../../generator/contract/layout.ts";
import { AssetStore } from "../../generator/edge/assets.ts";
import { createHandler } from "../../generator/edge/handler.ts";
import { SearchFiles } from "../../generator/edge/search-reader.ts";
import { memoryAssets } from "../support/local-assets.ts";

/** Every path family of docs/FORMAT.md, as the build writes it: a change here is a new format version. */
describe("the layout on disk", () => {
  it.each([
    [
      "§ 2 page file",
      pagePath({
        resource: "de.streets",
        slug: "berlin",
        total: 11920,
        pageSize: 50,
        page: 3,
        format: "json",
      }),
      "/_p/de.streets/berlin/11920/50/239/3.json",
    ],
    ["§ 3 index shard", indexPath("de.localities", 10), "/_i/de.localities/0a.json"],
    [
      "§ 3 index shard, the last of 256",
      indexPath("de.localities", 255),
      "/_i/de.localities/ff.json",
    ],
    ["§ 4 packed records", packPath("de.streets", "csv", 12), "/_c/de.streets/csv/12.bin"],
    ["§ 5 list", listPath("ch.cantons", "csv"), "/_l/ch.cantons.csv"],
    ["§ 7.1 search meta", searchMetaPath("de"), "/_s/de/meta.json"],
    ["§ 7.2 places", placesPath("at"), "/_s/at/places.bin"],
    ["§ 7.3 lexicon shard", lexiconPath("de", 4), "/_s/de/l/4.bin"],
    ["§ 7.3 trigram shard", trigramPath("de", 4), "/_s/de/g/4.bin"],
    ["§ 7.4 tails", tailsPath("de", 7), "/_s/de/t/7.bin"],
    ["§ 7.5 posting lists", listChunkPath("de", 2), "/_s/de/p/2.bin"],
    ["§ 7.6 record table", recordsPath("de", 0), "/_s/de/r/0.bin"],
    ["§ 7.8 lexeme bitmap", bitmapPath("de", 3), "/_s/de/b/3.bin"],
    ["§ 8 route table", ROUTE_TABLE_PATH, "/_routes.json"],
    ["§ 10 dataset", datasetPath("de.streets", "json"), "/downloads/de.streets.json"],
    ["§ 10 dataset part", datasetPath("de.streets", "csv", 2), "/downloads/de.streets.part-2.csv"],
    [
      "§ 10 one view",
      viewDownloadPath("de.streets", "berlin", "json"),
      "/downloads/de.streets/berlin.json",
    ],
    ["§ 10 gzip copy", gzipPath(datasetPath("de.streets", "csv")), "/downloads/de.streets.csv.gz"],
  ])("%s: %s", (_, path, expected) => {
    expect(path).toBe(expected);
  });

  it("gives _headers the patterns of its own paths", () => {
    const parsed = parseHeadersFile(
      [pageHeaderRules(), listHeaderRules(), downloadHeaderRules()].join("\n\n"),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.rules.map((rule) => rule.pattern)).toEqual([
      "/_p/:res/:sel/:total/:size/:pages/:num.json",
      "/_p/:res/:sel/:total/:size/:pages/:num.csv",
      "/_l/*.json",
      "/_l/*.csv",
      "/downloads/*.json",
      "/downloads/*.csv",
      "/downloads/*.gz",
    ]);
  });
});

describe("the format version", () => {
  it.each<[unknown, string | undefined]>([
    [FORMAT_VERSION, undefined],
    [
      undefined,
      `dist is a build of format 0, this code reads format ${FORMAT_VERSION}; rebuild it with npm run build`,
    ],
    [
      FORMAT_VERSION + 1,
      `dist is a build of format ${FORMAT_VERSION + 1}, this code reads format ${FORMAT_VERSION}; rebuild it with npm run build`,
    ],
    [
      String(FORMAT_VERSION),
      `dist is a build of format "${FORMAT_VERSION}", this code reads format ${FORMAT_VERSION}; rebuild it with npm run build`,
    ],
  ])("stated as %j: %s", (found, message) => {
    expect(formatMismatch("dist", found)).toBe(message);
  });

  const table = (formatVersion: unknown) =>
    JSON.stringify({
      ...(formatVersion === undefined ? {} : { formatVersion }),
      commonHeaders: [],
      resources: [],
      notServed: [],
    });

  it.each([undefined, FORMAT_VERSION + 1])(
    "the Worker answers every request of a build of format %j with a 500 that says so",
    async (version) => {
      const handler = createHandler(memoryAssets(new Map([[ROUTE_TABLE_PATH, table(version)]])));
      const response = await handler(new Request("http://x/de/FederalStates"));
      expect(response.status).toBe(500);
      expect(((await response.json()) as { detail: string }).detail).toBe(
        formatMismatch("this deployment", version),
      );
    },
  );

  it("the Worker reads a build of its own format", async () => {
    const response = await createHandler(
      memoryAssets(new Map([[ROUTE_TABLE_PATH, table(FORMAT_VERSION)]])),
    )(new Request("http://x/nowhere"));
    expect(response.status).toBe(404);
  });

  it("the Worker refuses a search index of another format", async () => {
    const meta = JSON.stringify({
      count: 1,
      hash: "x",
      headKeys: ["name"],
      placeWidth: 2,
      lexiconShards: [],
      trigramShards: [],
      readBudget: 1,
    });
    const store = new AssetStore(memoryAssets(new Map([[searchMetaPath("de"), meta]])));
    await expect(SearchFiles.open(store, "http://x", "de")).rejects.toThrow(
      formatMismatch(searchMetaPath("de"), undefined),
    );
  });
});
