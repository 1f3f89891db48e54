import { beforeAll, describe, expect, it } from "vitest";
import type { DownloadsManifest } from "../../generator/contract/downloads.ts";
import {
  isFullTextSearch,
  isSuggesting,
  type RouteResource,
  type RouteTable,
} from "../../generator/contract/routes.ts";
import { allRecords, ask, embeddedBuild, type MemoryBuild } from "../support/memory-build.ts";

/**
 * Every count the build publishes (docs page, OpenAPI, downloads manifest and the docs page's
 * downloads table) against what the API serves: x-total-count summed over every key of every
 * endpoint, in-process over the whole embedded data. The keys are found as a client finds them:
 * a path key from the parent's own list (`/de/GovernmentRegions` from each state's
 * `…/GovernmentRegions`), a street locality from the country's `…/Localities` names.
 */
let build: MemoryBuild;
let table: RouteTable;
const served = new Map<string, Served>();

interface Served {
  /** Records over all keys, each record once. */
  readonly records: number;
  /** Keys (path keys, required filter values) that select at least one record; undefined for lists and optional filters. */
  readonly keys?: number;
}

beforeAll(async () => {
  build = await embeddedBuild();
  table = JSON.parse(build.file("/_routes.json") ?? "") as RouteTable;
  // FullTextSearch, Suggestions and AddressCheck publish no count of their own: they search the
  // Streets' records.
  for (const resource of table.resources)
    if (!searchesStreets(resource)) served.set(resource.path, await servedCount(resource));
});

// One file at a time: `build.files` reads every text file of the build (about 8,000).
const text = (path: string) => build.file(path) ?? "";
/** The resources with counts of their own (FullTextSearch and Suggestions search the Streets' records: their count is theirs). */
const counted = () => table.resources.filter((r) => !searchesStreets(r));
function searchesStreets(resource: RouteResource): boolean {
  return isFullTextSearch(resource) || isSuggesting(resource);
}
const total = async (target: string) => {
  const answer = await ask(build.handler, target);
  // A locality with no streets whose name is not plain text to the Streets filters (Hermsdorf/Erzgeb.) is refused: it has none.
  if (
    answer.status === 400 &&
    /\/Streets\?locality=/.test(target) &&
    Object.keys((JSON.parse(answer.text) as { errors: object }).errors).join() === "locality"
  )
    return 0;
  if (answer.status !== 200) throw new Error(`${target}: HTTP ${answer.status} ${answer.text}`);
  return Number(answer.headers["x-total-count"]);
};
const fold = (value: string) => value.normalize("NFC").trim().toLowerCase();
const unique = (values: readonly string[], same: (value: string) => string = (v) => v) => [
  ...new Map(values.map((v) => [same(v), v])).values(),
];

/** The record fields whose values a path key matches, where not the key alone (a table: add a row for a new one). */
const KEY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // As the original: a district key (900 is all of Vienna) or a district code (901–923, its Bezirke).
  "/at/Districts": ["key", "code"],
  // As the original: a district number (101) or its historical number (10053).
  "/ch/Districts": ["key", "historicalCode"],
};

/** The keys of a collection (`/de/Districts`), from its list or from the lists within its parents. */
const keyCache = new Map<string, Promise<string[]>>();
function keysOf(collection: string): Promise<string[]> {
  let keys = keyCache.get(collection);
  if (keys === undefined) {
    keys = listKeys(collection);
    keyCache.set(collection, keys);
  }
  return keys;
}
async function listKeys(collection: string): Promise<string[]> {
  const list = table.resources.find((r) => r.path === collection && !r.query.paged);
  const fields = KEY_FIELDS[collection] ?? ["key"];
  const keysOfRecord = (r: Record<string, unknown>) => fields.map((field) => String(r[field]));
  if (list !== undefined)
    return unique(
      (
        JSON.parse((await ask(build.handler, collection)).text) as Record<string, unknown>[]
      ).flatMap(keysOfRecord),
    );
  const [, country, segment] = collection.split("/");
  const parentOf = (r: RouteResource) => r.path.replace(/\/\{key\}\/[^/]+$/, "");
  // A list within a parent whose own keys are a plain list first: `/de/FederalStates/{key}/Districts`
  // has every district, `/de/GovernmentRegions/{key}/Districts` only those within a region.
  const within = table.resources
    .filter(
      (r) =>
        new RegExp(`^/${country}/[A-Za-z]+/\\{key\\}/${segment}$`).test(r.path) &&
        r.selectors.length === 1,
    )
    .sort(
      (a, b) =>
        Number(table.resources.some((r) => r.path === parentOf(b) && !r.query.paged)) -
        Number(table.resources.some((r) => r.path === parentOf(a) && !r.query.paged)),
    )[0];
  if (within === undefined) throw new Error(`no endpoint lists the keys of ${collection}`);
  const keys: string[] = [];
  for (const parent of await keysOf(parentOf(within)))
    keys.push(
      ...(
        await allRecords(build.handler, within.path.replace("{key}", encodeURIComponent(parent)))
      ).flatMap(keysOfRecord),
    );
  return unique(keys);
}

/** The values of a required query filter, as a client finds them (a table: add a row for a new filter). */
const FILTER_VALUES: Readonly<Record<string, (resource: RouteResource) => Promise<string[]>>> = {
  locality: async (resource) => {
    const localities = `/${resource.path.split("/")[1]}/Localities`;
    return unique(
      (await allRecords(build.handler, `${localities}?postalCode=%5E`)).map((r) =>
        String(r["name"]),
      ),
      fold,
    );
  },
};

async function servedCount(resource: RouteResource): Promise<Served> {
  if (!resource.query.paged)
    return {
      records: (JSON.parse((await ask(build.handler, resource.path)).text) as unknown[]).length,
    };
  const required = resource.selectors.filter((s) => s.in === "path" || s.required);
  if (required.length === 0)
    return {
      records: await total(
        resource.patterns === undefined
          ? resource.path
          : `${resource.path}?${resource.patterns.filters[0]?.param ?? ""}=%5E`,
      ),
    };
  if (required.length > 1) throw new Error(`${resource.path}: more than one key; extend this test`);
  const [selector] = required;
  if (selector === undefined) throw new Error("unreachable");
  const targets =
    selector.in === "path"
      ? (await keysOf(resource.path.slice(0, resource.path.indexOf("/{")))).map((key) =>
          resource.path.replace(`{${selector.param}}`, encodeURIComponent(key)),
        )
      : await (
          FILTER_VALUES[selector.param] ??
          (() => Promise.reject(new Error(`no way to list the values of ${selector.param}`)))
        )(resource).then((values) =>
          values.map((v) => `${resource.path}?${selector.param}=${encodeURIComponent(v)}`),
        );
  let records = 0;
  let keys = 0;
  // Where one record answers more than one key (a Vienna municipality under 900 and under its 9xx), count it once.
  const overlapping =
    selector.in === "path" &&
    KEY_FIELDS[resource.path.slice(0, resource.path.indexOf("/{"))] !== undefined;
  const seen = new Set<string>();
  for (const target of targets) {
    const n = await total(target);
    if (overlapping)
      for (const record of await allRecords(build.handler, target))
        seen.add(JSON.stringify(record));
    else records += n;
    if (n > 0) keys++;
  }
  return { records: overlapping ? seen.size : records, keys };
}

/** `10,950 records in 400 keys` → {records, keys}. */
function parseSize(size: string): Served {
  const match = /^([\d,]+) records?(?: in ([\d,]+) [a-z ]+)?$/.exec(size.trim());
  if (match === null) throw new Error(`not a published count: '${size}'`);
  const number = (s: string) => Number(s.replaceAll(",", ""));
  return {
    records: number(match[1] ?? ""),
    ...(match[2] === undefined ? {} : { keys: number(match[2]) }),
  };
}
/** The published records equal the served ones, and so do the keys where keys are served (an optional-filter endpoint publishes its filter selections instead). */
function expectServed(path: string, published: Served, where: string): void {
  const truth = served.get(path);
  expect(published.records, `${where} ${path}: records`).toBe(truth?.records);
  if (truth?.keys !== undefined) expect(published.keys, `${where} ${path}: keys`).toBe(truth.keys);
}
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

describe("published counts equal what the API serves", () => {
  it("the endpoints with a parent key serve fewer records than the child has where some records lack that parent", () => {
    // The counts this test exists for: districts outside any government region are not served under one.
    expect(served.get("/de/GovernmentRegions/{key}/Districts")?.records).toBeLessThan(
      served.get("/de/FederalStates/{key}/Districts")?.records ?? 0,
    );
    expect(served.get("/de/Districts/{key}/Municipalities")?.records).toBeLessThan(
      served.get("/de/FederalStates/{key}/Municipalities")?.records ?? 0,
    );
    expect([...served.keys()].sort()).toEqual(
      counted()
        .map((r) => r.path)
        .sort(),
    );
  });

  it.each(["docs page endpoint table", "docs page endpoint section", "OpenAPI operation"] as const)(
    "%s: each endpoint's count",
    (where) => {
      for (const { path } of counted()) {
        const source =
          where === "OpenAPI operation"
            ? ((
                JSON.parse(text("/openapi.json")) as {
                  paths: Record<string, { get: { description: string } }>;
                }
              ).paths[path]?.get.description ?? "")
            : text("/index.html");
        const pattern =
          where === "docs page endpoint table"
            ? new RegExp(
                `<code>GET ${escapeRegExp(path)}</code></a></td><td[^>]*>[^<]*</td><td data-label="Records">([^<]*)</td>`,
              )
            : new RegExp(
                `${where === "OpenAPI operation" ? "" : `<code>GET ${escapeRegExp(path)}</code> <span[\\s\\S]*?`}This build serves ([\\d,]+ records?(?: in [\\d,]+ [a-z ]+)?)`,
              );
        const size = pattern.exec(source)?.[1];
        expect(size, `${where} ${path}`).toBeDefined();
        expectServed(path, parseSize(size ?? ""), where);
      }
    },
  );

  it("the downloads manifest: each dataset's records, every part and format, and each one-view file", async () => {
    const manifest = JSON.parse(text("/downloads/index.json")) as DownloadsManifest;
    for (const { path } of counted()) {
      for (const format of ["json", "csv"]) {
        const files = manifest.files.filter(
          (f) =>
            f.endpoint === path &&
            f.filter === undefined &&
            f.format === format &&
            f.gzipOf === undefined,
        );
        expect(files.length, `${path} ${format}`).toBeGreaterThan(0);
        expect(
          files.reduce((sum, f) => sum + f.records, 0),
          `${path} ${format}`,
        ).toBe(served.get(path)?.records);
      }
    }
    const views = manifest.files.filter((f) => f.filter !== undefined);
    expect(views.length).toBeGreaterThan(0);
    for (const file of views)
      expect(file.records, file.path).toBe(
        await total(`${file.endpoint}?${new URLSearchParams(file.filter).toString()}`),
      );
    for (const copy of manifest.files.filter((f) => f.gzipOf !== undefined))
      expect(copy.records, copy.path).toBe(
        manifest.files.find((f) => f.path === copy.gzipOf)?.records,
      );
  });

  it("the docs page's downloads table: each dataset's records", () => {
    const rows = [
      ...text("/index.html").matchAll(
        /<tr><td data-label="Dataset"><code>([^<]+)<\/code>(?: part \d+ of \d+)?<\/td><td data-label="Records">([\d,]+)<\/td>/g,
      ),
    ];
    const byEndpoint = new Map<string, number>();
    for (const [, endpoint = "", records = ""] of rows)
      byEndpoint.set(
        endpoint,
        (byEndpoint.get(endpoint) ?? 0) + Number(records.replaceAll(",", "")),
      );
    expect([...byEndpoint.keys()].sort()).toEqual(
      counted()
        .map((r) => r.path)
        .sort(),
    );
    for (const [endpoint, records] of byEndpoint)
      expect(records, endpoint).toBe(served.get(endpoint)?.records);
  });
});
