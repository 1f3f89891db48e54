import type { QuerySpec } from "../routes/query.ts";

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
  readonly query: QuerySpec;
  /** For paged resources: the filter every request must carry, and what to say when it is missing. */
  readonly requiredFilter?: { readonly param: string; readonly detail: string };
  /** For filtered resources: the record's value of each filter. */
  readonly filterValue?: (record: R, param: string) => string;
  /** The record order (compare keys with `<`). */
  readonly sortKey: (record: R) => string;
  readonly columns: readonly Column<R>[];
}

/** A resource with its record type erased, for code that only routes (the Worker). */
export type AnyResource = Resource<never>;
