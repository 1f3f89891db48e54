import { isFullTextSearch, isSuggesting } from "../../generator/contract/routes.ts";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../generator/resources/index.ts";
import { SOURCE_NAMES } from "../../generator/sources/registry.ts";
import type { DownloadsManifest } from "../../generator/contract/downloads.ts";
import { buildFixture, FIXTURE_BUDGET } from "../support/fixture.ts";
import { client, startServer, type RawResponse, type RunningServer } from "../support/http.ts";

let server: RunningServer;
let manifest: DownloadsManifest;
const get = client(() => server);
const records = (response: RawResponse) => JSON.parse(response.text) as unknown[];

beforeAll(async () => {
  const { dir } = await buildFixture(FIXTURE_BUDGET);
  server = await startServer(dir);
  manifest = JSON.parse((await get("/downloads/index.json")).text) as DownloadsManifest;
});
afterAll(async () => server?.stop());

describe("whole-dataset downloads", () => {
  it("serves the manifest at /downloads/index.json and /downloads/, readable from any origin", async () => {
    const index = await get("/downloads/index.json");
    const short = await get("/downloads/");
    expect(index.status).toBe(200);
    expect(index.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(index.headers["access-control-allow-origin"]).toBe("*");
    expect(short.body.equals(index.body)).toBe(true);
    expect(Date.parse(manifest.builtAt)).toBeGreaterThan(Date.parse("2026-01-01"));
    expect(manifest.sources.map((s) => (s as { name: string }).name).sort()).toEqual(
      [...SOURCE_NAMES].sort(),
    );
  });

  it("has every resource complete in JSON and CSV, and every locality's streets", () => {
    const complete = manifest.files
      .filter((f) => f.filter === undefined && f.gzipOf === undefined)
      .map((f) => f.path);
    expect(complete.sort()).toEqual(
      // FullTextSearch, Suggestions and AddressCheck answer from the Streets' index: their records
      // are the Streets' download.
      RESOURCES.filter((r) => !isFullTextSearch(r) && !isSuggesting(r))
        .map((r) => r.id)
        .flatMap((id) => [`/downloads/${id}.csv`, `/downloads/${id}.json`])
        .sort(),
    );
    const localities = manifest.files.filter(
      (f) => f.filter !== undefined && f.format === "json" && f.gzipOf === undefined,
    );
    expect(localities.length).toBe(743);
    expect(localities.find((f) => f.filter?.["locality"] === "Berlin")).toMatchObject({
      path: "/downloads/de.streets/berlin.json",
      records: 600,
    });
  });

  it("serves each listed file with the listed bytes, SHA-256 and media type (sample: datasets, gzip copies, 40 localities)", async () => {
    const perLocality = manifest.files.filter(
      (f) => f.filter !== undefined && f.gzipOf === undefined,
    );
    const sample = [
      ...manifest.files.filter((f) => f.filter === undefined || f.gzipOf !== undefined),
      ...perLocality.filter((_, i) => i % Math.ceil(perLocality.length / 40) === 0),
    ];
    expect(sample.length).toBeGreaterThanOrEqual(50);
    for (const file of sample) {
      const response = await get(file.path);
      expect(response.status, file.path).toBe(200);
      expect(response.headers["content-type"], file.path).toBe(file.mediaType);
      expect(response.body.byteLength, file.path).toBe(file.bytes);
      expect(createHash("sha256").update(response.body).digest("hex"), file.path).toBe(file.sha256);
      if (file.gzipOf !== undefined) {
        expect(response.headers["content-disposition"]).toBe("attachment");
        expect(gunzipSync(response.body).equals((await get(file.gzipOf)).body), file.path).toBe(
          true,
        );
      }
    }
  });

  it("holds the same records as the API: Berlin's file is its pages end to end, in both formats", async () => {
    const pages: unknown[] = [];
    let csv = "";
    for (let page = 1; page <= 12; page++) {
      pages.push(...records(await get(`/de/Streets?locality=Berlin&page=${page}`)));
      const text = (await get(`/de/Streets?locality=Berlin&page=${page}&format=csv`)).text;
      csv += page === 1 ? text : text.slice(text.indexOf("\r\n") + 2);
    }
    expect(records(await get("/de/Streets?locality=Berlin&format=json&pageSize=1&page=1"))).toEqual(
      pages.slice(0, 1),
    );
    expect(records(await get("/downloads/de.streets/berlin.json"))).toEqual(pages);
    expect((await get("/downloads/de.streets/berlin.csv")).text).toBe(csv);
  });

  it("has every street once in the complete file: the localities' files together", async () => {
    const all = records(await get("/downloads/de.streets.json")).map((r) => JSON.stringify(r));
    const perLocality = manifest.files.filter(
      (f) => f.filter !== undefined && f.format === "json" && f.gzipOf === undefined,
    );
    const joined: string[] = [];
    for (const file of perLocality)
      joined.push(...records(await get(file.path)).map((r) => JSON.stringify(r)));
    expect(all.length).toBe(
      manifest.files.find((f) => f.path === "/downloads/de.streets.json")?.records,
    );
    expect([...all].sort()).toEqual(joined.sort());
  });

  it("answers a file that is not there with a 404 problem, and Streets without a filter with a 400", async () => {
    const missing = await get("/downloads/de.streets/atlantis.json");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    const unfiltered = await get("/de/Streets");
    expect(unfiltered.status).toBe(400);
    expect((JSON.parse(unfiltered.text) as { detail: string }).detail).toBe(
      "No name, postal code or locality given.",
    );
  });
});
