import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../generator/resources/index.ts";
import { exampleTarget, pathParams } from "../../generator/resources/resource.ts";
import { buildFixture } from "../support/fixture.ts";
import { parseCsvBody, valueAt } from "../support/memory-build.ts";
import { rawRequest, startServer, type RawResponse, type RunningServer } from "../support/server.ts";

/**
 * Every paged endpoint over real HTTP through wrangler dev (workerd), on the embedded registers and
 * the small street fixture, near the smallest file budget (most page sizes are cut by the Worker).
 */
const PAGED = RESOURCES.filter((r) => r.query.paged);
let server: RunningServer;
const get = (path: string, headers: Record<string, string> = {}, method = "GET") => rawRequest(server.origin, path, { method, headers });
const paging = (r: RawResponse) => ["x-page", "x-page-size", "x-total-count", "x-total-pages"].map((name) => r.headers[name]);

beforeAll(async () => {
  const { dir, summary } = await buildFixture(6_000);
  expect(summary.plan.minimumFiles).toBeLessThan(6_000);
  server = await startServer(dir);
}, 300_000);
afterAll(async () => server?.stop());

/** The first example's view, without paging or format parameters. */
const viewOf = (resource: (typeof PAGED)[number]) => {
  const example = resource.examples[0];
  if (example === undefined) throw new Error(`${resource.path} has no example`);
  return exampleTarget(resource, { ...example, query: Object.fromEntries(Object.entries(example.query).filter(([name]) => !["page", "pageSize", "format"].includes(name))) });
};
const withQuery = (target: string, query: string) => `${target}${target.includes("?") ? "&" : "?"}${query}`;

describe.each(PAGED.map((r) => [r.path, r] as const))("%s", (_, resource) => {
  it("pages follow the contract: default size 50, consecutive pages of any size, totals on every page, JSON and CSV alike", async () => {
    const view = viewOf(resource);
    const first = await get(view);
    expect(first.status, view).toBe(200);
    const [, size, totalText, pagesText] = paging(first);
    const total = Number(totalText);
    expect(size).toBe("50");
    expect(total).toBeGreaterThan(0);
    expect(Number(pagesText)).toBe(Math.ceil(total / 50));
    const whole: unknown[] = [];
    for (let page = 1; page <= Math.ceil(total / 50); page++) whole.push(...(JSON.parse((await get(withQuery(view, `page=${page}`))).text) as unknown[]));
    expect(whole).toHaveLength(total);
    for (const pageSize of [1, 7]) {
      const pages = Math.ceil(total / pageSize);
      for (const page of [1, 2, pages, pages + 1]) {
        const target = withQuery(view, `pageSize=${pageSize}&page=${page}`);
        const [json, csv] = await Promise.all([get(target), get(target, { Accept: "text/csv" })]);
        expect(paging(json), target).toEqual([String(page), String(pageSize), String(total), String(pages)]);
        expect(paging(csv), target).toEqual(paging(json));
        const expected = whole.slice((page - 1) * pageSize, page * pageSize);
        expect(JSON.parse(json.text), target).toEqual(expected);
        const rows = parseCsvBody(csv.text);
        expect(rows, target).toHaveLength(expected.length);
        rows.forEach((row, i) => {
          for (const column of resource.columns) expect(row[column.header], `${target} ${column.header}`).toBe(valueAt(expected[i], column.header));
        });
      }
    }
  }, 120_000);

  it("answers an unknown key or filter value with 200 [] and zero totals, in both formats", async () => {
    const path = resource.path.replace(/\{[A-Za-z]+\}/g, "99999");
    const filters = resource.query.filters.map((name) => `${name}=no-such-${name}`).join("&");
    const target = filters === "" ? path : `${path}?${filters}`;
    const [json, csv] = await Promise.all([get(target), get(withQuery(target, "format=csv"))]);
    expect([json.status, json.text, ...paging(json).slice(2)]).toEqual([200, "[]", "0", "0"]);
    expect([csv.status, csv.text]).toEqual([200, `${resource.columns.map((c) => c.header).join(",")}\r\n`]);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
  });

  it("matches the path case-insensitively with a trailing slash, and answers HEAD and If-None-Match like GET", async () => {
    const view = viewOf(resource);
    const [path, query] = view.split("?");
    const variant = `${(path ?? "").toUpperCase()}/${query === undefined ? "" : `?${query}`}`;
    // An upper-cased key is another key; only the literal segments are case-insensitive.
    const sameKey = pathParams(resource.path).length === 0 || /^[0-9/A-Z]*$/.test(view.split("/").slice(3, 4).join(""));
    const [a, b] = await Promise.all([get(view), get(variant)]);
    if (sameKey) expect(b.text).toBe(a.text);
    const head = await get(view, {}, "HEAD");
    expect([head.status, head.body.length, head.headers["content-length"]]).toEqual([200, 0, a.headers["content-length"]]);
    const etag = a.headers["etag"] ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{16}\.50\.1\.json"$/);
    expect((await get(view, { "If-None-Match": etag })).status).toBe(304);
  });
});
