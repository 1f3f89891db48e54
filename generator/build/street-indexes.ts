import type { FileSink } from "../io/sink.ts";
import { emitSearch, type SearchIndexSummary, type SearchUnit } from "./emit-search.ts";
import { emitSuggest, type SuggestIndexSummary } from "./emit-suggest.ts";
import type { PhaseTimer } from "./timing.ts";

/** What a country's street indexes came to: the search index's summary, and the suggestions index's when written. */
export type StreetIndexesSummary = Omit<SearchIndexSummary, "indexed"> & {
  readonly suggest?: SuggestIndexSummary;
};

/**
 * A country's street-search index and, when `suggest` (its Suggestions is emitted), its
 * suggestions index, written from the search index's numbering of streets and places while that
 * is still in hand: on the search thread (search-thread.ts) or, for a list too large to copy to
 * one, on the main thread, each under its `timer` phase.
 */
export function emitStreetIndexes(
  unit: SearchUnit,
  sink: FileSink,
  readBudget: number | undefined,
  suggest: boolean,
  timer?: PhaseTimer,
): StreetIndexesSummary {
  const measure = <T>(phase: string, run: () => T): T =>
    timer === undefined ? run() : timer.measure(phase, run);
  const { indexed, ...search } = measure("search", () => emitSearch(unit, sink, readBudget));
  if (!suggest) return search;
  const country = unit.resource.search.country;
  return { ...search, suggest: measure("suggest", () => emitSuggest(country, indexed, sink)) };
}
