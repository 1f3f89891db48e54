import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexPath, shardOf } from "../../generator/contract/address.ts";
import type { DownloadsManifest } from "../../generator/contract/downloads.ts";
import { chunkSpans, PACK_CHUNK_BYTES, packPath } from "../../generator/contract/pack.ts";
import type { RouteTable } from "../../generator/contract/routes.ts";
import { decodeShard, slugShardKey } from "../../generator/contract/shard.ts";
import { buildFixture, tempDir } from "../support/fixture.ts";
import {
  rawRequest,
  startAll,
  startServer,
  startWranglerDev,
  type RawResponse,
  type RunningServer,
} from "../support/http.ts";
import { exchange } from "../support/raw-socket.ts";

/**
 * Requests an attacker would send: values far over their length limit, a parameter repeated
 * thousands of times, internal files under other spellings, and a download whose files go missing
 * while it streams. Each answer is a problem of its own size, or a body that arrives whole or
 * visibly broken, never a 500 or a short body that looks complete.
 */
let dir: string;
let local: RunningServer;
let dev: RunningServer;

beforeAll(async () => {
  // The build browser/docs.test.ts serves too (shared by the run): every resource, no page files
  // (wrangler dev reads and hashes every asset at start, twice here; the answers are the same).
  ({ dir } = await buildFixture(20_000, undefined, { swissStreets: false, pageFiles: false }));
  [local, dev] = await startAll([startServer(dir), startWranglerDev(dir)]);
});
afterAll(async () => Promise.all([local?.stop(), dev?.stop()]));

interface ProblemBody {
  readonly status: number;
  readonly errors?: Record<string, string[]>;
}
const problemOf = (response: RawResponse) => {
  expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
  return JSON.parse(response.text) as ProblemBody;
};

describe("a value over its length limit is a 400 problem naming the parameter, without the value", () => {
  const x = (n: number) => "x".repeat(n);
  it.each([
    ["/de/Streets", "locality", 32_767],
    ["/at/Streets", "locality", 32_767],
    ["/de/Streets", "name", 124_646],
    ["/de/Streets", "postalCode", 124_646],
    ["/de/Localities", "name", 40_000],
    ["/de/Localities", "postalCode", 201],
  ])("%s?%s= and %i characters", async (path, parameter, length) => {
    const response = await rawRequest(local.origin, `${path}?${parameter}=${x(length)}`);
    expect(response.status).toBe(400);
    const problem = problemOf(response);
    expect(problem.errors?.[parameter]).toEqual([
      `The value of ${parameter} is longer than 200 characters, the most it takes.`,
    ]);
    expect(response.body.length).toBeLessThan(1000);
  });

  it("takes 200 characters (code points: 200 astral characters are 400 UTF-16 units)", async () => {
    for (const value of [x(200), "😀".repeat(200)]) {
      const response = await rawRequest(
        local.origin,
        `/de/Localities?name=${encodeURIComponent(value)}`,
      );
      expect(response.status, value.slice(0, 10)).toBe(200);
      expect(response.text).toBe("[]");
    }
    expect(
      (
        await rawRequest(
          local.origin,
          `/de/Localities?name=${encodeURIComponent("😀".repeat(201))}`,
        )
      ).status,
    ).toBe(400);
  });

  it("a path parameter takes 200 characters too", async () => {
    const path = (key: string) => `/de/FederalStates/${key}/Districts`;
    expect((await rawRequest(local.origin, path(x(200)))).text).toBe("[]");
    const response = await rawRequest(local.origin, path(x(100_000)));
    expect(response.status).toBe(400);
    expect(problemOf(response).errors).toEqual({
      key: ["The value of key is longer than 200 characters, the most it takes."],
    });
    expect((await rawRequest(local.origin, path("01"))).status).toBe(200);
  });

  it("page and pageSize take 20 characters", async () => {
    expect(
      (await rawRequest(local.origin, `/de/Streets?locality=Berlin&page=${"0".repeat(19)}1`))
        .status,
    ).toBe(200);
    expect(
      (await rawRequest(local.origin, `/de/Streets?locality=Berlin&pageSize=${"0".repeat(20)}1`))
        .status,
    ).toBe(400);
  });
});

describe("a parameter repeated 9,000 times", () => {
  it("is one message per distinct error, not one per repetition", async () => {
    const response = await rawRequest(
      local.origin,
      `/de/Streets?locality=Berlin&${Array(9_000).fill("page=1").join("&")}`,
    );
    expect(response.status).toBe(400);
    expect(problemOf(response).errors).toEqual({
      page: ["The parameter 'page' must not be given more than once."],
    });
    expect(response.body.length).toBeLessThan(1000);
  });

  it("over its length limit as well (400 times): two messages", async () => {
    const response = await rawRequest(
      local.origin,
      `/de/Streets?${Array(400)
        .fill(`name=${"y".repeat(201)}`)
        .join("&")}`,
    );
    expect(problemOf(response).errors?.["name"]).toHaveLength(2);
  });
});

describe("internal files are a 404 under any spelling, on both runtimes", () => {
  const spellings = [
    "/_build.json",
    "/%5Fbuild.json",
    "/%5fbuild.json",
    "//_build.json",
    "///_build.json",
    "/%2F_build.json",
    "/%2f%5Fbuild.json",
    "/%5Froutes.json",
    "/%5Ffiles.tsv",
    "/%5Fc/de.streets/json/0.bin",
    "/_%63/de.streets/json/0.bin",
    "//_c/de.streets/json/0.bin",
  ];
  for (const runtime of ["the local server", "wrangler dev"] as const) {
    it.each(spellings)(`${runtime}: %s`, async (path) => {
      const response = await rawRequest((runtime === "wrangler dev" ? dev : local).origin, path);
      expect([response.status, response.headers["location"]]).toEqual([404, undefined]);
      expect(problemOf(response).status).toBe(404);
    });
  }
});

describe("a download the Worker assembles", () => {
  const path = "/downloads/de.streets/berlin.json";

  it("carries its Content-Length, the size the manifest gives", async () => {
    const manifest = JSON.parse(
      (await rawRequest(local.origin, "/downloads/index.json")).text,
    ) as DownloadsManifest;
    const bytes = manifest.files.find((f) => f.path === path)?.bytes;
    expect(bytes).toBeGreaterThan(2 * PACK_CHUNK_BYTES);
    const response = await exchange(local.origin, `GET ${path} HTTP/1.1\r\nHost: localhost`);
    expect([
      response.status,
      response.headers["content-length"],
      response.headers["transfer-encoding"],
      response.body.length,
      response.complete,
    ]).toEqual([200, String(bytes), undefined, bytes, true]);
  });

  it("breaks the connection when an asset fetch fails mid-stream: no short body that looks complete", async () => {
    // A copy of the build whose view loses the second chunk it spans, served by fresh servers (no chunk kept in an isolate), both runtimes.
    const copy = join(tempDir("download-abort"), "dist");
    cpSync(dir, copy, { recursive: true });
    const table = JSON.parse(readFileSync(join(copy, "_routes.json"), "utf8")) as RouteTable;
    const shards = table.resources.find((r) => r.id === "de.streets")?.shards ?? 1;
    const read = (key: string) =>
      decodeShard(readFileSync(join(copy, indexPath("de.streets", shardOf(key, shards))), "utf8"));
    const key = read(slugShardKey("berlin")).slugs.get("berlin") ?? "";
    const ref = read(key).entries.get(key)?.packed?.json;
    if (ref === undefined) throw new Error("Berlin's streets are not packed in this build");
    const [, second] = chunkSpans(ref.start, ref.start + ref.bytes - 1, PACK_CHUNK_BYTES);
    if (second === undefined) throw new Error("Berlin's streets fit in one chunk");
    rmSync(join(copy, packPath("de.streets", "json", second.chunk)));
    const servers = await startAll([startServer(copy), startWranglerDev(copy)]);
    try {
      for (const server of servers) {
        const response = await exchange(server.origin, `GET ${path} HTTP/1.1\r\nHost: localhost`);
        expect(response.status).toBe(200);
        expect(response.headers["transfer-encoding"]).toBeUndefined();
        expect(Number(response.headers["content-length"])).toBeGreaterThan(response.body.length);
        expect(response.body.length).toBeGreaterThan(0); // the first chunk was sent: it broke off mid-stream
        expect(response.complete).toBe(false);
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  });
});

describe("methods and request heads the server decides itself: problems, not the runtime's text", () => {
  it.each([
    ["LINK /de/Streets?locality=Berlin HTTP/1.1", 405],
    ["LINK /de/Localities?name=Berlin HTTP/1.1", 405],
    ["FOO /de/Streets?locality=Berlin HTTP/1.1", 501],
    ["get /de/Streets?locality=Berlin HTTP/1.1", 501],
    [`GET /de/Streets?locality=${"x".repeat(131_072)} HTTP/1.1`, 431],
  ])("%s", async (line, status) => {
    const response = await exchange(local.origin, `${line}\r\nHost: localhost`);
    expect(response.status).toBe(status);
    expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.complete).toBe(true);
    expect((JSON.parse(response.body.toString()) as ProblemBody).status).toBe(status);
  });
});
