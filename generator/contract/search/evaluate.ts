/**
 * What the Worker's search answers need beside the list algebra: the parsed `/Streets` filters
 * (answered by filtering.ts) and the one query that is a single list (fulltext.ts for the rest).
 */
import type { StreetFilter } from "./filter.ts";
import type { SearchQuery } from "../postgres/tsquery.ts";

/** A one-lexeme query needs no algebra: its list is the answer, and a page reads one block of it. */
export function isSingleList(query: SearchQuery): boolean {
  return query.root?.op === "lexeme" && !query.root.prefix;
}

/** The parsed `/Streets` filters of one request (at least one). */
export interface StreetFilters {
  readonly name?: StreetFilter;
  readonly postalCode?: StreetFilter;
  readonly locality?: StreetFilter;
}
