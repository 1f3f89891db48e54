import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildToDirectory } from "../../generator/build/build.ts";
import type { DownloadsManifest } from "../../generator/contract/downloads.ts";
import { tempDir } from "../support/fixture.ts";
import {
  rawRequest,
  startAll,
  startServer,
  startWranglerDev,
  type RawResponse,
  type RunningServer,
} from "../support/http.ts";
import { ROOT } from "../support/paths.ts";

/**
 * `run_worker_first` names the API's paths only: the docs and the downloads are plain assets,
 * served without a Worker invocation (free on every plan), with the same headers as when the
 * Worker passed them through (`run_worker_first: true`, as before). Two servers of one build:
 * today's configuration with every request through the Worker, and the project's, on a copy whose
 * Worker cannot answer at all (no route table: a 500 for whatever reaches it).
 */
const work = tempDir("asset-routing");
const dir = join(work, "dist");
const workerless = join(work, "workerless");
let viaWorker: RunningServer;
let plain: RunningServer;
let files: string[];

beforeAll(async () => {
  await buildToDirectory(
    {
      root: ROOT,
      sources: {},
      maxFiles: 20_000,
      headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
      only: ["de.federalstates", "de.federalstates.districts", "ch.cantons", "li.communes"],
    },
    dir,
  );
  cpSync(dir, workerless, { recursive: true });
  rmSync(join(workerless, "_routes.json"));
  const config = JSON.parse(
    readFileSync(join(ROOT, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""),
  ) as { $schema?: string; main: string; assets: Record<string, unknown> };
  delete config.$schema;
  mkdirSync(join(work, "before"));
  const before = join(work, "before", "wrangler.json");
  writeFileSync(
    before,
    JSON.stringify({
      ...config,
      main: join(ROOT, config.main),
      assets: { ...config.assets, run_worker_first: true },
    }),
  );
  [viaWorker, plain] = await startAll([
    startWranglerDev(dir, { config: before }),
    startServer(workerless),
  ]);
  const manifest = JSON.parse(
    readFileSync(join(dir, "downloads/index.json"), "utf8"),
  ) as DownloadsManifest;
  files = [
    "/",
    "/index.html",
    "/docs.js",
    "/openapi.json",
    "/downloads/index.json",
    ...manifest.files.map((f) => f.path),
  ];
});
afterAll(async () => Promise.all([viaWorker?.stop(), plain?.stop()]));

/**
 * Status, header lines as sent and body; but the date, the asset server's cache marker (which the
 * Worker drops) and the ETag's value: the local asset server derives it from the file's path on
 * disk too, and the two servers serve two copies of the build.
 */
const wire = (response: RawResponse) => ({
  status: response.status,
  // The framing too: wrangler's dev proxy streams some bodies chunked that workerd sends with
  // their length (the bytes are compared; runtimes.test.ts compares the lengths).
  headers: response.rawHeaders
    .filter(
      // Connection: hop by hop, each HTTP server's own (Node names the close the request asked for).
      (line) =>
        !/^(cf-cache-status|transfer-encoding|content-length|connection|keep-alive):/i.test(line),
    )
    .map((line) => line.replace(/^(etag: )"[0-9a-f]+"$/i, '$1"…"')),
  body: response.text,
});

describe("docs and downloads are plain assets", () => {
  it("with the same status, header lines and bodies as through the Worker: GET, HEAD and a revalidation", async () => {
    expect(files.length).toBeGreaterThan(10);
    for (const path of files) {
      const before = await rawRequest(viaWorker.origin, path);
      const now = await rawRequest(plain.origin, path);
      expect(before.status, path).toBe(200);
      expect(wire(now), path).toEqual(wire(before));
      expect(now.headers["cf-cache-status"], `${path} comes from the asset server`).toBeDefined();
      // HEAD: the Worker stated the length it read; the local asset server states none (the
      // manifest has every download's size).
      const head = [
        await rawRequest(viaWorker.origin, path, { method: "HEAD" }),
        await rawRequest(plain.origin, path, { method: "HEAD" }),
      ].map(wire);
      const lengthless = (answer: ReturnType<typeof wire> | undefined) => ({
        ...answer,
        headers: answer?.headers.filter((line) => !/^content-length:/i.test(line)),
      });
      expect(lengthless(head[1]), `HEAD ${path}`).toEqual(lengthless(head[0]));
      expect(now.headers["etag"], path).toMatch(/^"[0-9a-f]+"$/);
      const revalidate = (origin: string, etag: string | undefined) =>
        rawRequest(origin, path, { headers: { "If-None-Match": etag ?? "" } });
      const revalidated = [
        await revalidate(viaWorker.origin, before.headers["etag"]),
        await revalidate(plain.origin, now.headers["etag"]),
      ];
      expect(revalidated[1]?.status, `If-None-Match ${path}`).toBe(304);
      expect(wire(revalidated[1] as RawResponse), `If-None-Match ${path}`).toEqual(
        wire(revalidated[0] as RawResponse),
      );
    }
  });

  it("while the API's paths and the build's own files reach the Worker first", async () => {
    for (const path of [
      "/de/FederalStates",
      "/ch/Cantons?format=csv",
      "/li/Communes",
      "/_build.json",
      "/_l/ch.cantons.json",
      "/downloads/missing.json",
      "/nowhere",
    ]) {
      const response = await rawRequest(plain.origin, path);
      // This copy's Worker has no route table: what reaches it is a 500 problem, never a file.
      expect([response.status, response.headers["content-type"]], path).toEqual([
        500,
        "application/problem+json; charset=utf-8",
      ]);
      expect((await rawRequest(viaWorker.origin, path)).status, path).not.toBe(500);
    }
  });
});
