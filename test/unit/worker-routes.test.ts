import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOCS_ROUTES } from "../../generator/contract/address.ts";
import { RESOURCES } from "../../generator/resources/index.ts";
import { pathParams } from "../../generator/resources/resource.ts";
import { ROOT } from "../support/paths.ts";
import { workerFirstMatcher, type RunWorkerFirst } from "../../generator/serve/worker-first.ts";

/**
 * `run_worker_first` in wrangler.jsonc: the Worker runs first for the API's paths (and the build's
 * own files), nothing else, within Cloudflare's rules for the list (the HTTP test through the
 * runtime shows what it does: test/integration/asset-routing.test.ts).
 */
const config = JSON.parse(
  readFileSync(join(ROOT, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""),
) as { assets: { run_worker_first: unknown; html_handling: string } };
const rules = config.assets.run_worker_first as string[];

const workerFirst = workerFirstMatcher(rules);

describe("run_worker_first", () => {
  it("is a list of at most 100 rules under 100 characters, none redundant", () => {
    expect(Array.isArray(rules)).toBe(true);
    expect(rules.length).toBeLessThanOrEqual(100);
    for (const rule of rules) expect(rule).toMatch(/^!?\/.{0,97}$/);
    expect(new Set(rules).size).toBe(rules.length);
    for (const rule of rules.filter((r) => r.endsWith("*")))
      expect(
        rules.filter((other) => other !== rule && other.startsWith(rule.slice(0, -1))),
      ).toEqual([]);
  });

  it("names the first segment of every API path, and the build's own files under any spelling", () => {
    const prefixes = [...new Set(RESOURCES.map((r) => `/${r.path.split("/")[1]}/*`))];
    // The asset service decodes segments and merges slashes: a path starting encoded or with an empty segment could name an internal file.
    expect([...rules].sort()).toEqual([...prefixes, "/_*", "/%*", "//*"].sort());
  });

  it.each([
    "/_build.json",
    "/%5Fbuild.json",
    "/%5fc/de.streets/json/0.bin",
    "//_build.json",
    "/%2F_build.json",
  ])("runs the Worker first for the internal path %s", (path) => {
    expect(workerFirst(path)).toBe(true);
  });

  it.each(RESOURCES.map((r) => r.path))("runs the Worker first for %s", (path) => {
    const concrete = pathParams(path).reduce((p, name) => p.replace(`{${name}}`, "01"), path);
    expect(workerFirst(concrete)).toBe(true);
    expect(workerFirst(`${concrete}/`)).toBe(true);
  });

  it.each([
    ...DOCS_ROUTES.keys(),
    "/downloads/index.json",
    "/downloads/de.streets.part-1.csv.gz",
    "/downloads/de.streets/berlin.json",
    "/downloads/changes/index.json",
    "/downloads/changes/20261122-031700/de.streets.csv",
  ])("serves %s as a plain asset (no Worker invocation)", (path) => {
    expect(workerFirst(path)).toBe(false);
  });

  it.each([
    "/_routes.json",
    "/_build.json",
    "/_p/de.streets/berlin/11920/50/239/1.json",
    "/_headers",
  ])("keeps the build's own file %s behind the Worker (a 404)", (path) => {
    expect(workerFirst(path)).toBe(true);
  });

  it("serves files by their exact names: / is the page through _redirects, /index.html stays /index.html", () => {
    expect(config.assets.html_handling).toBe("none");
  });
});

/** The matcher itself (the local server routes by it; the runtimes suite compares it with Cloudflare's router in wrangler dev). */
describe("workerFirstMatcher", () => {
  const cases: [RunWorkerFirst, string, boolean][] = [
    [["/de/*"], "/de/Streets", true],
    [["/de/*"], "/de", false],
    [["/de/*"], "/dex/Streets", false],
    [["/_*"], "/_p/de.streets/1.json", true],
    [["/a.b/*"], "/a.b/c", true],
    [["/a.b/*"], "/axb/c", false],
    [["/x+y/*"], "/x+y/z", true],
    [["/x+y/*"], "/xxy/z", false],
    [["/api/*", "!/api/docs/*"], "/api/docs/index.html", false],
    [["/api/*", "!/api/docs/*"], "/api/items", true],
    [["/*"], "/cdn-cgi/trace", false],
    [["/*"], "/_image", false],
    [["/*"], "/shop/_next/image", false],
    [true, "/anything/at/all", true],
    [true, "/cdn-cgi/trace", false],
    [false, "/de/Streets", false],
    [undefined, "/de/Streets", false],
  ];
  it.each(cases)("%j: %s → %s", (rules, path, expected) => {
    expect(workerFirstMatcher(rules)(path)).toBe(expected);
  });
});
