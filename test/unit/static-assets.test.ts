import { describe, expect, it } from "vitest";
import {
  assetRules,
  HEADER_OPS_KEPT,
  type AssetConfig,
} from "../../generator/serve/asset-rules.ts";
import type { FileIndex } from "../../generator/serve/assets.ts";
import { answerAsset } from "../../generator/serve/static.ts";
import { wireHeaders } from "../../generator/serve/wire.ts";

/**
 * The server's stand-in for Cloudflare's asset worker, on rules the build's own `_headers` and
 * `_redirects` do not use (runtimes.test.ts compares the build's with `wrangler dev`): splats and
 * placeholders in redirects, repeated header rules, unset, and the order of header lines.
 */
const CONFIG: AssetConfig = {
  headers: {
    version: 2,
    rules: {
      "/*": { set: { "x-a": "all", "cache-control": "public, max-age=60" } },
      "/docs/:page": { set: { "x-a": "page :page" }, unset: ["X-Gone"] },
      "/docs/*": { set: { "x-splat": ":splat" } },
    },
  },
  redirects: {
    version: 1,
    staticRules: {
      "/": { status: 200, to: "/index.html", lineNumber: 1 },
      "/old": { status: 301, to: "/new?x=1", lineNumber: 2 },
      "/ghost": { status: 200, to: "/missing.html", lineNumber: 3 },
    },
    rules: { "/blog/:year/*": { status: 302, to: "/archive/:year/:splat" } },
  },
};
const FILES = new Set(["/index.html", "/docs/a b.txt", "/docs/intro"]);
const files: FileIndex = {
  count: FILES.size,
  lookup: (path) => (FILES.has(path) ? { etag: "e1", type: "text/plain", bytes: 1 } : undefined),
};
const rules = assetRules(CONFIG);

const ask = (path: string, method = "GET", headers: Record<string, string> = {}) =>
  answerAsset(files, rules, {
    method,
    url: new URL(`http://example.test${path}`),
    header: (name) => headers[name],
  });
const summary = (path: string, method?: string, headers?: Record<string, string>) => {
  const answer = ask(path, method, headers);
  return answer === undefined
    ? "no asset"
    : [answer.status, Object.fromEntries(answer.headers), answer.file ?? null];
};

describe("the asset path as Cloudflare's asset worker answers it", () => {
  it.each([
    [
      "/",
      [
        200,
        {
          etag: '"e1"',
          "content-type": "text/plain",
          "cache-control": "public, max-age=60",
          "cf-cache-status": "HIT",
          "x-a": "all",
        },
        "/index.html",
      ],
    ],
    [
      "/old",
      [301, { location: "/new?x=1", "cache-control": "public, max-age=60", "x-a": "all" }, null],
    ],
    [
      "/blog/2024/a/b",
      [
        302,
        { location: "/archive/2024/a/b", "cache-control": "public, max-age=60", "x-a": "all" },
        null,
      ],
    ],
    ["/ghost", [404, { "cache-control": "public, max-age=60", "x-a": "all" }, null]],
    ["/nothing", "no asset"],
    [
      "/docs/a%20b.txt",
      [200, expect.objectContaining({ "x-splat": "a%20b.txt" }), "/docs/a b.txt"],
    ],
    ["/docs/a b.txt", [200, expect.objectContaining({ etag: '"e1"' }), "/docs/a b.txt"]],
    ["/docs/%69ntro", [307, expect.objectContaining({ location: "/docs/intro" }), null]],
    ["//docs//intro", [307, expect.objectContaining({ location: "/docs/intro" }), null]],
    [
      "/docs/intro",
      [
        200,
        expect.objectContaining({ "x-a": "all, page intro", "x-splat": "intro" }),
        "/docs/intro",
      ],
    ],
  ])("GET %s", (path, expected) => {
    expect(summary(path)).toEqual(expected);
  });

  it.each([
    ["POST", {}, 405, null],
    ["HEAD", {}, 200, null],
    ["GET", { "if-none-match": '"e1"' }, 304, null],
    ["GET", { "if-none-match": 'W/"e1"' }, 304, null],
    ["GET", { "if-none-match": '"e2"' }, 200, "/docs/intro"],
  ])("%s with %o: %i", (method, headers, status, file) => {
    const answer = ask("/docs/intro", method, headers);
    expect([answer?.status, answer?.file ?? null]).toEqual([status, file]);
  });

  it("leaves the browser cache policy to _headers only when no Authorization or Range is sent", () => {
    const bare = assetRules({});
    const plain = answerAsset(files, bare, {
      method: "GET",
      url: new URL("http://x/docs/intro"),
      header: () => undefined,
    });
    const ranged = answerAsset(files, bare, {
      method: "GET",
      url: new URL("http://x/docs/intro"),
      header: (n) => (n === "range" ? "bytes=0-1" : undefined),
    });
    expect(plain?.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(ranged?.headers.has("cache-control")).toBe(false);
  });
});

describe("a path's header rules, matched once and replayed", () => {
  const hosted = assetRules({
    headers: {
      version: 2,
      rules: {
        "/*": { set: { "x-a": "all" } },
        "https://a.test/*": { set: { "x-host": "a :splat" }, unset: ["x-a"] },
      },
    },
  });
  const apply = (hostname: string, path: string, start: Record<string, string> = {}) => {
    const headers = new Map(Object.entries(start));
    hosted.applyHeaders(hostname, path, headers);
    return Object.fromEntries(headers);
  };

  it.each([
    ["a.test", "/p", {}, { "x-host": "a p" }],
    ["b.test", "/p", {}, { "x-a": "all" }],
    ["a.test", "/p", { "x-a": "old", etag: "e" }, { etag: "e", "x-host": "a p" }],
    ["b.test", "/q/r", { "x-a": "old" }, { "x-a": "all" }],
  ])("on %s%s over %o: %o, the first time and again", (hostname, path, start, expected) => {
    expect([apply(hostname, path, start), apply(hostname, path, start)]).toEqual([
      expected,
      expected,
    ]);
  });

  it("answers alike after more paths than it keeps", () => {
    const first = summary("/docs/intro");
    for (let i = 0; i <= HEADER_OPS_KEPT; i++)
      rules.applyHeaders("example.test", `/docs/p${i}`, new Map());
    expect(summary("/docs/intro")).toEqual(first);
    const last = new Map<string, string>();
    rules.applyHeaders("example.test", `/docs/p${HEADER_OPS_KEPT}`, last);
    expect(Object.fromEntries(last)).toEqual({
      "x-a": `all, page p${HEADER_OPS_KEPT}`,
      "cache-control": "public, max-age=60",
      "x-splat": `p${HEADER_OPS_KEPT}`,
    });
  });
});

describe("header lines in workerd's order and spelling", () => {
  it("puts the names workerd knows first, canonically spelt, the rest lower-case and sorted", () => {
    const headers = new Map([
      ["x-frame-options", "DENY"],
      ["etag", '"1"'],
      ["access-control-expose-headers", "ETag"],
      ["content-type", "text/plain"],
      ["cf-cache-status", "HIT"],
      ["allow", "GET"],
      ["content-length", "3"],
    ]);
    expect(wireHeaders(headers).filter((_, i) => i % 2 === 0)).toEqual([
      "Content-Length",
      "Content-Type",
      "Allow",
      "ETag",
      "CF-Cache-Status",
      "access-control-expose-headers",
      "x-frame-options",
    ]);
  });
});
