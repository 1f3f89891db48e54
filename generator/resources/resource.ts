import type { MatchRule } from "../routes/files.ts";
import type { QuerySpec } from "../routes/query.ts";
import type { Credit } from "./credits.ts";
import type { RecordSchema } from "./schema.ts";

/** One CSV column: OpenPLZ's dotted header name and how to read it off a record. */
export interface Column<R> {
  readonly header: string;
  readonly value: (record: R) => string | undefined;
}

/**
 * Everything about one API resource, in one place: the generator renders and sorts with it, the
 * Worker routes and validates with it, the docs describe it. Records are the JSON shapes
 * themselves (optional properties absent, so JSON omits them as the original omits nulls).
 */
export interface Resource<R> {
  /** Name in the asset tree (`/_p/{id}/…`): lower case, no slash. */
  readonly id: string;
  /** The public path, e.g. `/de/Streets`. */
  readonly path: string;
  readonly title: string;
  /** What the records are, in a sentence or two (docs and OpenAPI). */
  readonly description: string;
  readonly query: QuerySpec;
  /**
   * For paged resources: what selects a view of the records, in order: path parameters
   * (`/de/Districts/{key}/Municipalities`) and query filters. Each given value narrows the records
   * to those whose value matches; the tuple of given values names one pre-built view.
   */
  readonly selectors?: readonly Selector<R>[];
  /** The record order (compare keys with `<`). */
  readonly sortKey: (record: R) => string;
  readonly columns: readonly Column<R>[];
  /** The JSON record, described and checked against `R` (docs and OpenAPI). */
  readonly record: RecordSchema<R>;
  /** Example requests shown in the docs and the OpenAPI document; tests run every one of them. */
  readonly examples: readonly RequestExample[];
  /** Whether each view (e.g. each locality's streets) is also a download file of its own. */
  readonly downloadsPerView?: boolean;
  /** Where the records come from, with attribution and licence. */
  readonly credits: readonly Credit[];
}

/**
 * One way to select records: a path parameter (`{key}` in the resource's path; always given) or a
 * query filter (required or optional). How values match is part of the contract (docs).
 */
export interface Selector<R> {
  readonly param: string;
  readonly in: "path" | "query";
  /** Query filters only: whether a request must give it (path parameters always are given). */
  readonly required: boolean;
  /** `exact`: the value as sent; `caseInsensitive`: NFC, trimmed, lower-cased on both sides. */
  readonly match: MatchRule;
  /** What the value is and how it matches (docs and OpenAPI). */
  readonly description: string;
  /** A required query filter: the problem's detail when it is missing. */
  readonly missing?: string;
  /** The record's value; `undefined`: the record has none (it is only in views that do not select by it). */
  readonly value: (record: R) => string | undefined;
}

export interface RequestExample {
  readonly summary: string;
  /** Path parameters, e.g. `{ key: "09" }`. */
  readonly path?: Readonly<Record<string, string>>;
  /** Query parameters, in the order shown. */
  readonly query: Readonly<Record<string, string>>;
}

/** An example's request target, e.g. `/de/Streets?locality=Berlin&page=2` or `/de/FederalStates/09/Districts`. */
export function exampleTarget(resource: { readonly path: string }, example: RequestExample): string {
  const path = resource.path.replace(/\{([A-Za-z]+)\}/g, (all, name: string) => {
    const value = example.path?.[name];
    return value === undefined ? all : encodeURIComponent(value);
  });
  const query = new URLSearchParams(Object.entries(example.query)).toString();
  return query === "" ? path : `${path}?${query}`;
}

/** A paged resource's query spec, derived from its selectors (the query filters) and the filters it refuses. */
export function pagedQuery(selectors: readonly { readonly param: string; readonly in: "path" | "query" }[], unservedFilters: readonly string[] = []): QuerySpec {
  return { paged: true, filters: selectors.filter((s) => s.in === "query").map((s) => s.param), unservedFilters };
}

/** The path parameters of a resource path, e.g. `["key"]` for `/de/FederalStates/{key}/Districts`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1] ?? "");
}

/** A resource with its record type erased, for code that only routes (the Worker). */
export type AnyResource = Resource<never>;
