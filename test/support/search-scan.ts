/**
 * Street search as a plain scan over every street, with the Worker's semantics taken from the
 * contract (`matches` on each street's own tsvector, `filterMatches` on each field): the oracle of
 * test/unit/search-index.test.ts and of the differential run (test/tools/search-differential.ts).
 */
import {
  FilterSyntaxError,
  filterMatches,
  parseStreetFilter,
  type FilterParameter,
  type StreetFilter,
} from "../../generator/contract/search/filter.ts";
import type { DocumentLexemes } from "../../generator/contract/postgres/lexize.ts";
import { matches } from "../../generator/contract/postgres/tsquery.ts";
import { parseSearchTerm, SearchTermError } from "../../generator/contract/postgres/websearch.ts";

export interface ScanStreet {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
}

/** What a search answers: a 400, or the matching streets in the order given (every page of them). */
export type Scanned<T> =
  | { readonly status: 400 }
  | {
      readonly status: 200;
      readonly matched: readonly T[];
      /** A regular-expression name: the Worker may refuse it as leaving too many candidate names (regex-plan.ts). */
      readonly patternName?: true;
    };

/** FullTextSearch over `streets` (docs[i] is streets[i]'s tsvector). */
export function scanFullText<T>(
  streets: readonly T[],
  docs: (i: number) => DocumentLexemes,
  term: string,
  prefix: boolean,
): Scanned<T> {
  if (/^[\s\u0085\u180e]*$/u.test(term) || Array.from(term).length > 200) return { status: 400 };
  let query;
  try {
    query = parseSearchTerm(term.normalize("NFC"), { lastWordPrefix: prefix });
  } catch (error) {
    if (error instanceof SearchTermError) return { status: 400 };
    throw error;
  }
  return { status: 200, matched: streets.filter((_, i) => matches(query, docs(i))) };
}

/** The filters given (an empty value is no filter), in the order given. */
export const givenFilters = (values: Partial<Record<FilterParameter, string>>) =>
  Object.entries(values).filter(([, value]) => value !== "") as [FilterParameter, string][];

/** /Streets with the name, postalCode and locality filters over `streets`. */
export function scanStreets<T extends ScanStreet>(
  streets: readonly T[],
  values: Partial<Record<FilterParameter, string>>,
): Scanned<T> {
  const given = givenFilters(values);
  if (given.length === 0) return { status: 400 };
  const filters: [FilterParameter, StreetFilter][] = [];
  try {
    for (const [p, value] of given) filters.push([p, parseStreetFilter(p, value.normalize("NFC"))]);
  } catch (error) {
    if (error instanceof FilterSyntaxError) return { status: 400 };
    throw error;
  }
  // A value of locality alone that names a locality is that locality's view (the Streets contract before search).
  if (given.length === 1 && given[0]?.[0] === "locality") {
    const exact = given[0][1].normalize("NFC").trim().toLowerCase();
    const view = streets.filter((s) => s.locality.normalize("NFC").trim().toLowerCase() === exact);
    if (view.length > 0) return { status: 200, matched: view };
  }
  return {
    status: 200,
    matched: streets.filter((s) => filters.every(([p, f]) => filterMatches(f, s[p]))),
    ...(filters.some(([p, f]) => p === "name" && f.pattern !== undefined)
      ? { patternName: true as const }
      : {}),
  };
}

/** One page of a scan's matches, with their total. */
export function scannedPage<T>(
  matched: readonly T[],
  page: number,
  pageSize: number,
): { status: 200; total: number; page: readonly T[] } {
  return {
    status: 200,
    total: matched.length,
    page: matched.slice((page - 1) * pageSize, page * pageSize),
  };
}
