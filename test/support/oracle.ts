import { isFullTextSearch, isSearchedStreets } from "../../generator/contract/routes.ts";
import { expect } from "vitest";
import { RESOURCES } from "../../generator/resources/index.ts";
import type { AnyResource } from "../../generator/resources/resource.ts";
import { parseSearchTerm, SearchTermError } from "../../generator/contract/postgres/websearch.ts";
import {
  FilterSyntaxError,
  parseStreetFilter,
  type FilterParameter,
} from "../../generator/contract/search/filter.ts";
import { compilePattern } from "../../generator/contract/regex/pattern.ts";

/**
 * The one test oracle: what the contract (README, spec, resource definitions) says a request must
 * get, written independently of the Worker's code. Tests add what only their data can tell (the
 * totals and records of a view).
 */
export type Verdict =
  | { readonly status: 404 | 405 | 204 | 400 }
  /** A method other than GET and HEAD on a static asset (the docs): the CDN's own 405, not the Worker's problem. */
  | { readonly status: 405; readonly kind: "static" }
  /** A docs page or file of the build, served as it is. */
  | { readonly status: 200; readonly kind: "file" }
  | { readonly status: 200; readonly kind: "list"; readonly resource: AnyResource }
  | {
      readonly status: 200;
      readonly kind: "page";
      readonly resource: AnyResource;
      readonly page: number;
      readonly size: number;
      /** Each selector's value as sent (path keys decoded), by parameter name; absent when not given. */
      readonly values: ReadonlyMap<string, string>;
      /**
       * A Streets name that is a regular expression: the Worker may refuse it as leaving too many
       * candidate names (a 400 decided from the index's list sizes, which this oracle does not model).
       */
      readonly mayBeTooBroad?: true;
    };

const DOCS = ["/", "/index.html", "/docs.js", "/openapi.json"];

/**
 * `resources`: what the build under test serves (all by default). `cdn`: the request goes through
 * the CDN's routing (wrangler dev), where the docs are plain assets the Worker never sees; without
 * it, the Worker's handler answers everything (in-process). `isLocality`: whether a value of
 * `locality` names a locality of the build's data (then `locality` alone selects its streets,
 * whatever regular-expression syntax it holds).
 */
export function verdictOf(
  method: string,
  target: string,
  resources: readonly AnyResource[] = RESOURCES,
  cdn = false,
  isLocality: (value: string) => boolean = () => false,
): Verdict {
  // Not new URL(target, base): a target starting with `//` would name a host.
  const url = new URL(`http://oracle${target}`);
  const route = routeOf(url.pathname, resources);
  const docs = DOCS.includes(url.pathname);
  // The docs are plain assets (no Worker): the CDN answers other methods, a preflight included, with 405.
  if (cdn && docs && method !== "GET" && method !== "HEAD") return { status: 405, kind: "static" };
  if (method === "OPTIONS") return { status: 204 }; // a CORS preflight, on every path the Worker answers
  if (route === undefined && !docs) return { status: 404 };
  if (method !== "GET" && method !== "HEAD") return { status: 405 };
  if (route === undefined) return { status: 200, kind: "file" };
  const { resource, keys } = route;
  // A path parameter has the same limit as a query value, checked before the query.
  if (keys.some(([, value]) => Array.from(value).length > 200)) return { status: 400 };
  const paged = resource.query.paged;
  const names = [
    ...(paged ? ["page", "pageSize"] : []),
    "format",
    ...resource.query.filters,
    ...resource.query.unservedFilters,
  ];
  const seen = new Map<string, string>();
  let bad = false;
  let mayBeTooBroad = false;
  for (const [name, value] of url.searchParams) {
    const canonical = names.find((known) => known.toLowerCase() === name.toLowerCase());
    if (canonical === undefined) continue;
    if (seen.has(canonical)) bad = true;
    // The documented limits, in characters (code points): page and pageSize 20, every other parameter 200.
    if (Array.from(value).length > (canonical === "page" || canonical === "pageSize" ? 20 : 200))
      bad = true;
    seen.set(canonical, value);
  }
  if (!["", "json", "csv"].includes((seen.get("format") ?? "").toLowerCase())) bad = true;
  const blank = (name: string) => /^[\s\u0085\u180e]*$/u.test(seen.get(name) ?? "");
  if (resource.search?.role === "addressCheck") {
    // A street, and a postal code of digits or a locality; JSON only.
    const postalCode = (seen.get("postalCode") ?? "").replace(/\s+/gu, "");
    if (
      blank("street") ||
      (blank("postalCode") && blank("locality")) ||
      (!blank("postalCode") && !/^[0-9]{1,10}$/.test(postalCode)) ||
      (seen.get("format") ?? "").toLowerCase() === "csv"
    )
      bad = true;
  }
  if (!paged) return bad ? { status: 400 } : { status: 200, kind: "list", resource };
  // A refusal stands whatever the filters hold: skip reading them (a pattern of 40,000 characters is slow to read).
  if (bad) return { status: 400 };
  for (const name of resource.query.unservedFilters) if ((seen.get(name) ?? "") !== "") bad = true;
  if (isSearchedStreets(resource)) {
    // Streets with search: name, postalCode and locality in any combination, at least one, each in the supported subset.
    const given = ["locality", "name", "postalCode"].filter(
      (name) => (seen.get(name) ?? "") !== "",
    );
    const view =
      given.length === 1 && given[0] === "locality" && isLocality(seen.get("locality") ?? "");
    if (
      given.length === 0 ||
      (!view &&
        !given.every((name) => supportedFilter(name as FilterParameter, seen.get(name) ?? "")))
    )
      bad = true;
    else if (given.includes("name") && !view)
      mayBeTooBroad =
        parseStreetFilter("name", (seen.get("name") ?? "").normalize("NFC")).pattern !== undefined;
  } else if (isFullTextSearch(resource)) {
    const term = seen.get("searchTerm") ?? "";
    const prefix = (seen.get("lastWordPrefix") ?? "").toLowerCase();
    if (
      blank("searchTerm") ||
      Array.from(term).length > 200 ||
      !["", "true", "false"].includes(prefix) ||
      !supportedTerm(term, prefix === "true")
    )
      bad = true;
  } else if (resource.search?.role === "suggestions") {
    if (blank("searchTerm")) bad = true;
  } else if (resource.patterns !== undefined) {
    // Regular-expression filters (Localities): at least one, each a pattern the engine evaluates.
    const given = resource.patterns.filters.filter((f) => (seen.get(f.param) ?? "") !== "");
    if (
      given.length === 0 ||
      !given.every(
        (f) =>
          compilePattern((seen.get(f.param) ?? "").normalize("NFC"), { ignoreCase: f.ignoreCase })
            .ok,
      )
    )
      bad = true;
  } else {
    for (const selector of resource.selectors ?? []) {
      if (
        selector.in === "query" &&
        selector.required &&
        (seen.get(selector.param) ?? "").normalize("NFC").trim() === ""
      )
        bad = true;
    }
  }
  const integer = (name: string, max: number, fallback: number) => {
    const raw = seen.get(name) ?? "";
    if (raw === "") return fallback;
    if (!/^[0-9]+$/.test(raw) || BigInt(raw) < 1n || BigInt(raw) > BigInt(max)) bad = true;
    return Number(raw);
  };
  const page = integer("page", 2147483647, 1);
  const size = integer("pageSize", 50, 50);
  if (bad) return { status: 400 };
  const values = new Map(keys);
  for (const name of resource.query.filters) {
    const value = seen.get(name) ?? "";
    if (value !== "") values.set(name, value);
  }
  return {
    status: 200,
    kind: "page",
    resource,
    page,
    size,
    values,
    ...(mayBeTooBroad ? { mayBeTooBroad: true as const } : {}),
  };
}

/** The resource a path routes to by the contract: literal segments case-insensitively, keys non-empty, one trailing slash allowed. */
function routeOf(
  pathname: string,
  resources: readonly AnyResource[],
): { resource: AnyResource; keys: [string, string][] } | undefined {
  const segments = pathname.replace(/(.)\/$/, "$1").split("/");
  for (const resource of resources) {
    const parts = resource.path.split("/");
    if (segments.length !== parts.length) continue;
    const keys: [string, string][] = [];
    const matches = parts.every((part, i) => {
      const segment = segments[i] ?? "";
      const param = /^\{(\w+)\}$/.exec(part)?.[1];
      if (param === undefined) return part.toLowerCase() === segment.toLowerCase();
      keys.push([param, decode(segment)]);
      return segment !== "";
    });
    if (matches) return { resource, keys };
  }
  return undefined;
}

function supportedTerm(term: string, lastWordPrefix: boolean): boolean {
  try {
    parseSearchTerm(term.normalize("NFC"), { lastWordPrefix });
    return true;
  } catch (error) {
    if (error instanceof SearchTermError) return false;
    throw error;
  }
}

function supportedFilter(parameter: FilterParameter, value: string): boolean {
  try {
    parseStreetFilter(parameter, value.normalize("NFC"));
    return true;
  } catch (error) {
    if (error instanceof FilterSyntaxError) return false;
    throw error;
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface Answered {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/**
 * What every answer must show whatever the data: the status, the common headers, a problem body
 * for errors, and for a page paging headers that agree with each other and with the records.
 * Returns the page's total for the caller's own checks.
 */
export function expectVerdict(
  verdict: Verdict,
  answer: Answered,
  context: string,
  method = "GET",
): number | undefined {
  if (
    "mayBeTooBroad" in verdict &&
    answer.status === 400 &&
    /matches too many street names to be checked/.test(answer.text)
  )
    return undefined;
  expect(answer.status, context).toBe(verdict.status);
  expect(answer.headers["access-control-allow-origin"], context).toBe("*");
  for (const name of [
    "content-security-policy",
    "strict-transport-security",
    "x-content-type-options",
    "x-frame-options",
    "referrer-policy",
    "permissions-policy",
  ])
    expect(answer.headers[name], `${context}: ${name}`).toBeTruthy();
  if ("kind" in verdict && verdict.kind === "static") return undefined;
  if (verdict.status >= 400) {
    expect(answer.headers["content-type"], context).toBe("application/problem+json; charset=utf-8");
    if (method !== "HEAD")
      expect((JSON.parse(answer.text) as { status: number }).status, context).toBe(verdict.status);
    return undefined;
  }
  if (!("kind" in verdict) || verdict.kind !== "page") return undefined;
  const total = Number(answer.headers["x-total-count"]);
  expect(Number.isInteger(total) && total >= 0, context).toBe(true);
  expect(
    [answer.headers["x-page"], answer.headers["x-page-size"], answer.headers["x-total-pages"]],
    context,
  ).toEqual([verdict.page, verdict.size, Math.ceil(total / verdict.size)].map(String));
  if (method === "HEAD") return total;
  const records = answer.headers["content-type"]?.startsWith("text/csv")
    ? answer.text.split("\r\n").length - 2
    : (JSON.parse(answer.text) as unknown[]).length;
  expect(records, context).toBe(
    Math.max(0, Math.min(verdict.size, total - (verdict.page - 1) * verdict.size)),
  );
  return total;
}
