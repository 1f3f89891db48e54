import type { CsvColumn } from "./csv.ts";
import type { QuerySpec } from "./query.ts";

/**
 * What the Worker knows of the API: the build derives it from the resource definitions and writes
 * it to `ROUTE_TABLE_PATH`, and the Worker reads it once per isolate. So the Worker bundle holds no
 * resource definitions, and a build decides what it serves.
 */
export interface RouteTable {
  /** The layout the build wrote (layout.ts FORMAT_VERSION): a Worker of another one refuses it. */
  readonly formatVersion: number;
  /** The headers of every response: the catch-all `/*` rule of `_headers`. */
  readonly commonHeaders: readonly (readonly [name: string, value: string])[];
  readonly resources: readonly RouteResource[];
  /**
   * Endpoints of the original API this build does not serve, each with the reason: answered with a
   * 404 that says so, unlike a path nobody serves. A resource in `resources` is served; the build
   * lists here every other known endpoint.
   */
  readonly notServed: readonly NotServedRoute[];
}

/** An endpoint of the original API a build does not serve. */
export interface NotServedRoute {
  /** The public path with `{name}` path parameters, e.g. `/ch/Streets` or `/de/FederalStates/{key}/Localities`. */
  readonly path: string;
  /** Why, completing "This build does not serve …: ". */
  readonly reason: string;
}

export { ROUTE_TABLE_PATH } from "./layout.ts";

/** One served resource as the Worker sees it. */
export interface RouteResource {
  /** Name in the asset tree (`/_p/{id}/…`). */
  readonly id: string;
  /** The public path with `{name}` path parameters, e.g. `/de/Districts/{key}/Municipalities`. */
  readonly path: string;
  readonly query: QuerySpec;
  /** What selects a view of the records, in order (paged resources); see `selectView`. */
  readonly selectors: readonly SelectorSpec[];
  /** The CSV columns (the header row, and rows of records the Worker renders itself). */
  readonly columns: readonly CsvColumn[];
  /** How many index shards the resource's views are spread over (see `shardOf`). */
  readonly shards: number;
  /** Whether each view is a download of its own, `/downloads/{id}/{slug}.{json|csv}`, assembled by the Worker. */
  readonly viewDownloads: boolean;
  /** Answered from a country's search index: full-text search, or the filters of its Streets. */
  readonly search?: SearchSpec;
  /** Filters matched as regular expressions over every record, from the resource's match table (match-table.ts). */
  readonly patterns?: PatternFiltersSpec;
}

/**
 * Query filters taken as the original's regular expressions, found anywhere in the record's value
 * (regex/pattern.ts); at least one must be given.
 */
export interface PatternFiltersSpec {
  readonly filters: readonly { readonly param: string; readonly ignoreCase: boolean }[];
  /** The problem's detail when none is given. */
  readonly missing: string;
}

/** Which country's search index a resource answers from, and how. */
export interface SearchSpec {
  readonly country: string;
  readonly role: "streets" | "fullText" | "suggestions" | "addressCheck";
}

/** A resource that answers from a search index (see the two predicates below). */
export type Searched<T> = T & { readonly search: SearchSpec };

/** A Streets resource whose filters are answered from its country's search index. */
export function isSearchedStreets<T extends { readonly search?: SearchSpec }>(
  resource: T,
): resource is Searched<T> {
  return resource.search?.role === "streets";
}

/** A FullTextSearch resource: answered from its country's search index alone, no records of its own. */
export function isFullTextSearch<T extends { readonly search?: SearchSpec }>(
  resource: T,
): resource is Searched<T> {
  return resource.search?.role === "fullText";
}

/** Suggestions or the address check: answered from a country's suggestions index (contract/suggest/). */
export function isSuggesting<T extends { readonly search?: SearchSpec }>(
  resource: T,
): resource is Searched<T> {
  return resource.search?.role === "suggestions" || resource.search?.role === "addressCheck";
}

/** How a selector's value matches: exactly as sent, or case-insensitively after normalisation. */
export type MatchRule = "exact" | "caseInsensitive";

/**
 * One way to select records: a path parameter (`{key}` in the resource's path; always given) or a
 * query filter (required or optional).
 */
export interface SelectorSpec {
  readonly param: string;
  readonly in: "path" | "query";
  /** Query filters only: whether a request must give it (path parameters always are given). */
  readonly required: boolean;
  /** `exact`: the value as sent; `caseInsensitive`: NFC, trimmed, lower-cased on both sides. */
  readonly match: MatchRule;
  /** A required query filter: the problem's detail when it is missing. */
  readonly missing?: string;
}
