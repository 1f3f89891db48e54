import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DownloadsManifest } from "../../generator/contract/downloads.ts";
import { LOAD_REQUESTS } from "../../bench/load-requests.ts";
import { buildFixture, STREET_FIXTURE } from "../support/fixture.ts";
import {
  rawRequest,
  startAll,
  startServer,
  startWranglerDev,
  type RawResponse,
  type RunningServer,
} from "../support/http.ts";

/**
 * The two local runtimes of one build answer alike: `wrangler dev` (the development proxy, `npm run
 * dev`: Cloudflare's own router and asset worker on workerd) and the project's server (`npm start`,
 * `npm run serve`, every other HTTP suite: its own asset path and the Worker's handler in Node).
 * Same status, header lines as sent (names, case, order) and bytes, for GET, HEAD and
 * revalidations, for every kind of request the sweep, the load and the bench send.
 */
let dev: RunningServer;
let local: RunningServer;
let dir: string;

beforeAll(async () => {
  // The build contract.test.ts and compiled-cli.test.ts serve (built once for the three): every
  // page size of the fixture's streets is a file at any budget above its 6,605 files.
  ({ dir } = await buildFixture(1_000_000, undefined, { only: STREET_FIXTURE }));
  [dev, local] = await startAll([startWranglerDev(dir), startServer(dir)]);
});
afterAll(async () => Promise.all([dev?.stop(), local?.stop()]));

/**
 * The wire, but the date, the connection's own headers (Connection, Keep-Alive: hop by hop, each
 * HTTP server's), the asset server's cache marker (a miss whenever a read takes long), a
 * file's ETag value (wrangler dev hashes the file's path and modification time, the server the
 * file's bytes as Cloudflare's upload does; the Worker's own ETags, `"<hash>.<size>.<page>.<fmt>"`,
 * are compared) and the framing of a body: wrangler's dev proxy streams some bodies chunked that
 * workerd sends with their length (the bytes are compared).
 */
const wire = (response: RawResponse) => ({
  status: response.status,
  headers: response.rawHeaders
    .filter(
      (line) =>
        !/^(cf-cache-status|content-length|transfer-encoding|connection|keep-alive):/i.test(line),
    )
    .map((line) => line.replace(/^(etag: )"[0-9a-f]{32}"$/i, '$1"<file>"')),
  body: `${response.body.length} bytes, sha256 ${createHash("sha256").update(response.body).digest("hex")}`,
});

/** Where the body has a length on both sides (neither chunked), the two lengths. */
const lengths = (a: RawResponse, b: RawResponse) =>
  a.headers["transfer-encoding"] === undefined && b.headers["transfer-encoding"] === undefined
    ? [a.headers["content-length"], b.headers["content-length"]]
    : [];

const API = [
  "/de/Streets?locality=Berlin",
  "/de/Streets?locality=Berlin&page=2&pageSize=10",
  "/de/Streets?locality=Berlin&page=12&pageSize=50",
  "/de/Streets?locality=Berlin&page=7&pageSize=13",
  "/de/Streets?locality=berlin&page=3&pageSize=7&format=csv",
  "/de/Streets?locality=Atlantis",
  "/de/Streets?locality=Berlin&page=999",
  "/de/Streets?locality=Berlin&pageSize=51",
  "/de/Streets?locality=Berlin&page=0",
  "/de/Streets?name=Aalstieg",
  "/de/Streets",
  "/de/FederalStates",
  "/ch/Cantons?format=csv",
  "/li/Communes",
  "/de/Nowhere",
  "/nowhere",
  "/_build.json",
  "/_routes.json",
  "/_headers",
  "/_files.tsv",
  "/DE/streets?locality=Berlin",
  // The sweep's kinds, searches, and hostile spellings (the load's kinds are added below).
  "/de/Streets?locality=Berlin&page=239&pageSize=50",
  "/de/Streets?locality=Berlin&page=11000&pageSize=1",
  "/de/Streets?locality=Berlin&page=400&pageSize=3&format=csv",
  `/de/Streets?locality=${encodeURIComponent("Frankfurt am Main")}&pageSize=17&page=2`,
  "/de/Streets?name=a&page=2",
  "/de/Streets?name=Aal&postalCode=1",
  "/de/FullTextSearch?searchTerm=be&lastWordPrefix=true&page=5",
  "/de/FullTextSearch?searchTerm=berlin",
  `/de/Streets?locality=${"x".repeat(5_000)}`,
  `/de/Streets?${"page=1&".repeat(500)}locality=Berlin`,
  "/%5Fbuild.json",
  "/%5Fc/nothing",
  "//_build.json",
  "/docs%2Ejs",
  "/de/../openapi.json",
  "/de/Streets/?locality=Berlin",
];
const ASSETS = [
  "/",
  "/index.html",
  "/index",
  "/docs.js",
  "/openapi.json",
  "/downloads/",
  "/downloads/index.json",
  "/downloads/missing.json",
];

describe("wrangler dev and the server on workerd", () => {
  it("answer every request alike: GET, HEAD, CSV by Accept, and a revalidation with each one's ETag", async () => {
    const manifest = JSON.parse(
      readFileSync(join(dir, "downloads/index.json"), "utf8"),
    ) as DownloadsManifest;
    const downloads = manifest.files.filter((_, i) => i % 97 === 0).map((f) => f.path);
    const paths = [
      ...new Set([...API, ...LOAD_REQUESTS.map((r) => r.path), ...ASSETS, ...downloads]),
    ];
    expect(downloads.length).toBeGreaterThan(5);
    const kinds: { name: string; init: { method?: string; headers?: Record<string, string> } }[] = [
      { name: "GET", init: {} },
      { name: "HEAD", init: { method: "HEAD" } },
      { name: "Accept: text/csv", init: { headers: { Accept: "text/csv" } } },
      { name: "Accept: application/json", init: { headers: { Accept: "application/json" } } },
    ];
    const statuses = new Set<number>();
    for (const path of paths) {
      for (const { name, init } of kinds) {
        const [before, now] = await Promise.all([
          rawRequest(dev.origin, path, init),
          rawRequest(local.origin, path, init),
        ]);
        expect(wire(now), `${name} ${path}`).toEqual(wire(before));
        const [was, is] = lengths(before, now);
        expect(is, `Content-Length of ${name} ${path}`).toBe(was);
        statuses.add(now.status);
        const etags = [before.headers["etag"], now.headers["etag"]];
        if (etags[0] === undefined || etags[1] === undefined) continue;
        const revalidate = (origin: string, etag: string) =>
          rawRequest(origin, path, {
            ...init,
            headers: { ...init.headers, "If-None-Match": etag },
          });
        const [before304, now304] = await Promise.all([
          revalidate(dev.origin, etags[0]),
          revalidate(local.origin, etags[1]),
        ]);
        expect(now304.status, `If-None-Match ${name} ${path}`).toBe(304);
        expect(wire(now304), `If-None-Match ${name} ${path}`).toEqual(wire(before304));
      }
    }
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 400, 404]));
  });

  it.each(["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])(
    "answer %s alike (405 or the CORS preflight)",
    async (method) => {
      for (const path of [
        "/de/Streets?locality=Berlin",
        "/de/FederalStates",
        "/nowhere",
        "/openapi.json",
        "/",
        "/docs%2Ejs",
        "/_build.json",
      ]) {
        const [before, now] = await Promise.all([
          rawRequest(dev.origin, path, { method }),
          rawRequest(local.origin, path, { method }),
        ]);
        expect(wire(now), `${method} ${path}`).toEqual(wire(before));
      }
    },
  );

  it("differ in one thing: the server leaves compression to the reverse proxy in front of it (wrangler dev imitates the edge's)", async () => {
    const path = "/de/Streets?locality=Berlin";
    const [before, now] = await Promise.all([
      rawRequest(dev.origin, path, { headers: { "Accept-Encoding": "gzip" } }),
      rawRequest(local.origin, path, { headers: { "Accept-Encoding": "gzip" } }),
    ]);
    expect(before.headers["content-encoding"]).toBe("gzip");
    expect(now.headers["content-encoding"]).toBeUndefined();
    expect(now.text).toBe((await rawRequest(dev.origin, path)).text);
  });

  it("only the server answers its health endpoint, with the build's time stamp and sources", async () => {
    const health = await rawRequest(local.origin, "/_health");
    const manifest = JSON.parse(
      readFileSync(join(dir, "downloads/index.json"), "utf8"),
    ) as DownloadsManifest;
    expect(health.status).toBe(200);
    const body = JSON.parse(health.text) as {
      status: string;
      builtAt: string;
      sources: { name: string }[];
    };
    expect(body.status).toBe("ok");
    expect(body.builtAt).toBe(manifest.builtAt);
    expect(body.sources.map((s) => s.name)).toContain("de-streets");
    expect((await rawRequest(dev.origin, "/_health")).status).toBe(404);
  });
});

describe("the Worker on workerd", () => {
  it("warms up at startup without an error: its global scope does no I/O and makes no response with a body", async () => {
    // Every test above has sent requests, so the isolate has started and run its warm-up.
    expect((await rawRequest(dev.origin, "/de/FederalStates")).status).toBe(200);
    expect(dev.output()).not.toMatch(/warm-up|Disallowed operation/);
  });
});
