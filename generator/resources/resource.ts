import type { QuerySpec } from "../contract/query.ts";
import type {
  PatternFiltersSpec,
  RouteResource,
  SearchSpec,
  SelectorSpec,
} from "../contract/routes.ts";
import type { Credit } from "./credits.ts";
import type { RecordSchema } from "./schema.ts";

/**
 * Everything about one API resource, in one place: the generator groups, sorts and renders with
 * it, the Worker routes and validates with what `routeOf` takes of it, the docs describe it.
 * Records are the JSON shapes themselves (optional properties absent, so JSON omits them as the
 * original omits nulls).
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
  readonly sortKey: (record: R) => readonly string[];
  /** The JSON record and its CSV columns, described and checked against `R` (docs and OpenAPI). */
  readonly record: RecordSchema<R>;
  /** Example requests shown in the docs and the OpenAPI document; tests run every one of them. */
  readonly examples: readonly RequestExample[];
  /** Whether each view (e.g. each locality's streets) is also a download file of its own. */
  readonly downloadsPerView?: boolean;
  /** Query parameters besides the selectors and paging (search terms, search filters), for the docs. */
  readonly queryParameters?: readonly QueryParameter[];
  /** A street resource with a search index, or the full-text search over one (see search.ts). */
  readonly search?: SearchSpec;
  /** Query filters matched as regular expressions by the Worker over all records (`…/Localities`; see localities.ts). */
  readonly patterns?: PatternFilters<R>;
  /** Where the records come from, with attribution and licence. */
  readonly credits: readonly Credit[];
}

/** A selector as the Worker matches it, plus what the docs say of it and how a record gives its value. */
export interface Selector<R> extends SelectorSpec {
  /** What the value is and how it matches (docs and OpenAPI). */
  readonly description: string;
  /**
   * The record's value; `undefined`: the record has none (it is only in views that do not select
   * by it). Several values: the record is in the view of each (an Austrian district's key or code,
   * as the original matches `Key == key || Code == key`); the first is its own, the one it is
   * listed under in the whole-dataset download.
   */
  readonly value: (record: R) => SelectorValue;
}

/** Regular-expression filters, with how a record gives each filter's value. */
export interface PatternFilters<R> extends PatternFiltersSpec {
  readonly value: (record: R, param: string) => string;
}

/** A documented query parameter that is not a selector. */
export interface QueryParameter {
  readonly name: string;
  readonly required?: boolean;
  readonly description: string;
  readonly schema?: { readonly type: "string"; readonly enum?: readonly string[] };
}

export type SelectorValue = string | readonly [string, ...string[]] | undefined;

export interface RequestExample {
  readonly summary: string;
  /** Path parameters, e.g. `{ key: "09" }`. */
  readonly path?: Readonly<Record<string, string>>;
  /** Query parameters, in the order shown. */
  readonly query: Readonly<Record<string, string>>;
}

/** A resource with its record type erased, for code that handles every resource alike. */
export type AnyResource = Resource<never>;

/** What the Worker needs of a resource (the route table's entry): plain data, no functions; `shards` is the build's choice. */
export function routeOf(resource: AnyResource, shards: number): RouteResource {
  return {
    id: resource.id,
    path: resource.path,
    query: resource.query,
    selectors: (resource.selectors ?? []).map(({ param, in: where, required, match, missing }) => ({
      param,
      in: where,
      required,
      match,
      ...(missing === undefined ? {} : { missing }),
    })),
    columns: resource.record.columns,
    shards,
    viewDownloads: resource.downloadsPerView === true,
    ...(resource.search === undefined ? {} : { search: resource.search }),
    ...(resource.patterns === undefined
      ? {}
      : { patterns: { filters: resource.patterns.filters, missing: resource.patterns.missing } }),
  };
}

/** An example's request target, e.g. `/de/Streets?locality=Berlin&page=2` or `/de/FederalStates/09/Districts`. */
export function exampleTarget(
  resource: { readonly path: string },
  example: RequestExample,
): string {
  const path = resource.path.replace(/\{([A-Za-z]+)\}/g, (all, name: string) => {
    const value = example.path?.[name];
    return value === undefined ? all : encodeURIComponent(value);
  });
  const query = new URLSearchParams(Object.entries(example.query)).toString();
  return query === "" ? path : `${path}?${query}`;
}

/** A paged resource's query spec, derived from its selectors (the query filters) and the filters it refuses. */
export function pagedQuery(
  selectors: readonly SelectorSpec[],
  unservedFilters: readonly string[] = [],
): QuerySpec {
  return {
    paged: true,
    filters: selectors.filter((s) => s.in === "query").map((s) => s.param),
    unservedFilters,
  };
}

/** An unpaged list: the whole list in one response, no filters. */
export const UNPAGED: QuerySpec = { paged: false, filters: [], unservedFilters: [] };

/** The path parameters of a resource path, e.g. `["key"]` for `/de/FederalStates/{key}/Districts`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1] ?? "");
}
