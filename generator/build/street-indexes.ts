import type { FileSink } from "../io/sink.ts";
import { emitSearch, type SearchIndexSummary } from "./emit-search.ts";
import { emitSuggest, type SuggestIndexSummary } from "./emit-suggest.ts";
import type { IndexedStreets } from "./search-records.ts";

/** What a country's street indexes came to: the search index's summary, and the suggestions index's when written. */
export type StreetIndexesSummary = SearchIndexSummary & {
  readonly suggest?: SuggestIndexSummary;
};

/**
 * A country's street-search index and, when `suggest` (its Suggestions is emitted), its
 * suggestions index, written from the same numbering of streets and places (`indexed`), on the
 * search thread (search-thread.ts).
 */
export function emitStreetIndexes(
  country: string,
  indexed: IndexedStreets,
  sink: FileSink,
  readBudget: number | undefined,
  suggest: boolean,
): StreetIndexesSummary {
  const search = emitSearch(country, indexed, sink, readBudget);
  return suggest ? { ...search, suggest: emitSuggest(country, indexed, sink) } : search;
}
