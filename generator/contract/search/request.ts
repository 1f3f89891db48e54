/**
 * A search request's parameters as the Worker reads them: `searchTerm` and the prefix switch of
 * FullTextSearch, the `name`, `postalCode` and `locality` filters of Streets. Bad input is an
 * error listing per parameter, answered with a 400 problem.
 */
import {
  FilterSyntaxError,
  parseStreetFilter,
  type FilterParameter,
  type StreetFilter,
} from "./filter.ts";
import type { SearchMeta } from "./meta.ts";
import { matchesEvery } from "../regex/universal.ts";
import type { SearchQuery } from "../postgres/tsquery.ts";
import { parseSearchTerm, SearchTermError } from "../postgres/websearch.ts";

export const SEARCH_TERM_PARAMETER = "searchTerm";
/** Opt-in search as you type (not in the original API). */
export const PREFIX_PARAMETER = "lastWordPrefix";
/** Longer terms are refused: no street's name, postal code and locality together come near it. */
export const MAX_SEARCH_TERM_LENGTH = 200;
export const STREET_FILTERS: readonly FilterParameter[] = ["locality", "name", "postalCode"];

/** The parsed `/Streets` filters of one request. */
export interface StreetFilters {
  readonly name?: StreetFilter;
  readonly postalCode?: StreetFilter;
  readonly locality?: StreetFilter;
}

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: Record<string, string[]>; readonly detail: string };

const fail = (parameter: string, message: string, detail = message): Parsed<never> => ({
  ok: false,
  errors: { [parameter]: [message] },
  detail,
});

/** .NET's char.IsWhiteSpace, which the original's [Required] trims with. */
const BLANK = /^[\s\u0085\u180e]*$/u;

/** A FullTextSearch request's term (as sent; empty counts as absent) and prefix switch. */
export function parseSearchRequest(
  term: string | undefined,
  prefix: string | undefined,
): Parsed<SearchQuery> {
  if (term === undefined || BLANK.test(term))
    return fail(
      SEARCH_TERM_PARAMETER,
      `The ${SEARCH_TERM_PARAMETER} field is required.`,
      `No ${SEARCH_TERM_PARAMETER} given.`,
    );
  const length = Array.from(term).length;
  if (length > MAX_SEARCH_TERM_LENGTH)
    return fail(
      SEARCH_TERM_PARAMETER,
      `The ${SEARCH_TERM_PARAMETER} has ${length} characters; at most ${MAX_SEARCH_TERM_LENGTH} are allowed.`,
    );
  const lastWordPrefix = (prefix ?? "false").toLowerCase();
  if (lastWordPrefix !== "true" && lastWordPrefix !== "false")
    return fail(
      PREFIX_PARAMETER,
      `The value '${prefix?.slice(0, 40) ?? ""}' is not valid for ${PREFIX_PARAMETER}: use true or false.`,
    );
  try {
    return {
      ok: true,
      value: parseSearchTerm(term.normalize("NFC"), { lastWordPrefix: lastWordPrefix === "true" }),
    };
  } catch (error) {
    if (error instanceof SearchTermError) return fail(SEARCH_TERM_PARAMETER, error.message);
    throw error;
  }
}

/**
 * A Streets request's filters (given ones only, at least one); `given` maps each parameter to its
 * value as sent. `characters`: per parameter, every character of the values it will be tested on
 * (the index's meta), to which a pattern's classes are cut (filter.ts).
 */
export function parseStreetFilters(
  given: ReadonlyMap<string, string>,
  noFilter: string,
  characters?: Readonly<Record<FilterParameter, string>>,
): Parsed<StreetFilters> {
  const filters: { -readonly [K in FilterParameter]?: ReturnType<typeof parseStreetFilter> } = {};
  for (const parameter of STREET_FILTERS) {
    const value = given.get(parameter);
    if (value === undefined || value === "") continue;
    try {
      filters[parameter] = parseStreetFilter(
        parameter,
        value.normalize("NFC"),
        characters?.[parameter],
      );
    } catch (error) {
      if (error instanceof FilterSyntaxError) return fail(parameter, error.message);
      throw error;
    }
  }
  if (Object.keys(filters).length === 0)
    return {
      ok: false,
      errors: Object.fromEntries(STREET_FILTERS.map((p) => [p, [noFilter]])),
      detail: noFilter,
    };
  return { ok: true, value: filters };
}

/**
 * The filters without those that filter nothing: a pattern that matches every value of its column
 * (regex/universal.ts, from the shapes in the index's meta: `postalCode=[0-9]{5}`), and `^` or `$`
 * alone (the empty literal, found at the start or end of every value). None left: every street.
 */
export function withoutUniversal(filters: StreetFilters, meta: SearchMeta): StreetFilters {
  const kept: { -readonly [K in keyof StreetFilters]: StreetFilters[K] } = {};
  for (const parameter of ["name", "postalCode", "locality"] as const) {
    const filter = filters[parameter];
    const tree = filter?.pattern?.tree;
    const shape =
      parameter === "name"
        ? { ...meta.columns.name, characters: meta.nameCharacters }
        : meta.columns[parameter];
    if (tree !== undefined && matchesEvery(tree, shape)) continue;
    const empty = filter?.pattern === undefined && filter?.literal.length === 0;
    if (empty && !(filter.anchoredStart && filter.anchoredEnd)) continue;
    if (filter !== undefined) kept[parameter] = filter;
  }
  return kept;
}
