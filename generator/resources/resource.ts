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
   * For paged resources: the filter every request must carry, how it matches (docs), and what to
   * say when it is missing.
   */
  readonly requiredFilter?: { readonly param: string; readonly description: string; readonly detail: string };
  /** For filtered resources: the record's value of each filter. */
  readonly filterValue?: (record: R, param: string) => string;
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

export interface RequestExample {
  readonly summary: string;
  /** Query parameters, in the order shown. */
  readonly query: Readonly<Record<string, string>>;
}

/** An example's request target, e.g. `/de/Streets?locality=Berlin&page=2`. */
export function exampleTarget(resource: { readonly path: string }, example: RequestExample): string {
  const query = new URLSearchParams(Object.entries(example.query)).toString();
  return query === "" ? resource.path : `${resource.path}?${query}`;
}

/** A resource with its record type erased, for code that only routes (the Worker). */
export type AnyResource = Resource<never>;
