import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../generator/resources/index.ts";
import { exampleTarget } from "../../generator/resources/resource.ts";
import { buildFixture, FIXTURE_BUDGET } from "../support/fixture.ts";
import { parseCsvBody, valueAt } from "../support/memory-build.ts";
import { client, pagingOf as paging, startServer, type RunningServer } from "../support/http.ts";

/**
 * Every paged endpoint over real HTTP through wrangler dev (workerd), on the embedded registers and
 * the small street fixture, near the smallest file budget (most page sizes are cut by the Worker).
 */
const PAGED = RESOURCES.filter((r) => r.query.paged);
let server: RunningServer;
const get = client(() => server);

beforeAll(async () => {
  const { dir, summary } = await buildFixture(FIXTURE_BUDGET);
  expect(summary.plan.minimumFiles).toBeLessThan(FIXTURE_BUDGET);
  server = await startServer(dir);
});
afterAll(async () => server?.stop());

/** The first example's view, without paging or format parameters. */
const viewOf = (resource: (typeof PAGED)[number]) => {
  const example = resource.examples[0];
  if (example === undefined) throw new Error(`${resource.path} has no example`);
  return exampleTarget(resource, {
    ...example,
    query: Object.fromEntries(
      Object.entries(example.query).filter(
        ([name]) => !["page", "pageSize", "format"].includes(name),
      ),
    ),
  });
};
const withQuery = (target: string, query: string) =>
  `${target}${target.includes("?") ? "&" : "?"}${query}`;

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
    for (let page = 1; page <= Math.ceil(total / 50); page++)
      whole.push(...(JSON.parse((await get(withQuery(view, `page=${page}`))).text) as unknown[]));
    expect(whole).toHaveLength(total);
    for (const pageSize of [1, 7]) {
      const pages = Math.ceil(total / pageSize);
      for (const page of [1, 2, pages, pages + 1]) {
        const target = withQuery(view, `pageSize=${pageSize}&page=${page}`);
        const [json, csv] = await Promise.all([get(target), get(target, { Accept: "text/csv" })]);
        expect(paging(json), target).toEqual([
          String(page),
          String(pageSize),
          String(total),
          String(pages),
        ]);
        expect(paging(csv), target).toEqual(paging(json));
        const expected = whole.slice((page - 1) * pageSize, page * pageSize);
        expect(JSON.parse(json.text), target).toEqual(expected);
        const rows = parseCsvBody(csv.text);
        expect(rows, target).toHaveLength(expected.length);
        rows.forEach((row, i) => {
          for (const column of resource.record.columns)
            expect(row[column.header], `${target} ${column.header}`).toBe(
              valueAt(expected[i], column.header),
            );
        });
      }
    }
  });

  it("answers an unknown key or filter value with 200 [] and zero totals, in both formats", async () => {
    const path = resource.path.replace(/\{[A-Za-z]+\}/g, "99999");
    // (The prefix switch of FullTextSearch takes true or false only.)
    const filters = resource.query.filters
      .filter((name) => name !== "lastWordPrefix")
      .map((name) => `${name}=no-such-${name}`)
      .join("&");
    const target = filters === "" ? path : `${path}?${filters}`;
    const [json, csv] = await Promise.all([get(target), get(withQuery(target, "format=csv"))]);
    expect([json.status, json.text, ...paging(json).slice(2)]).toEqual([200, "[]", "0", "0"]);
    expect([csv.status, csv.text]).toEqual([
      200,
      `${resource.record.columns.map((c) => c.header).join(",")}\r\n`,
    ]);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
  });

  it("matches the path case-insensitively with a trailing slash, and answers HEAD and If-None-Match like GET", async () => {
    const view = viewOf(resource);
    const [path = "", query] = view.split("?");
    // Only the literal segments are case-insensitive (an upper-cased key would be another key).
    const template = resource.path.split("/");
    const upper = path
      .split("/")
      .map((segment, i) =>
        template[i]?.startsWith("{") === true ? segment : segment.toUpperCase(),
      )
      .join("/");
    const variant = `${upper}/${query === undefined ? "" : `?${query}`}`;
    expect(variant).not.toBe(view);
    const [a, b] = await Promise.all([get(view), get(variant)]);
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    const head = await get(view, {}, "HEAD");
    expect([head.status, head.body.length, head.headers["content-length"]]).toEqual([
      200,
      0,
      a.headers["content-length"],
    ]);
    const etag = a.headers["etag"] ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{16}\.50\.1\.json"$/);
    expect((await get(view, { "If-None-Match": etag })).status).toBe(304);
  });
});
