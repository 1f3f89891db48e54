import {
  MAX_SEARCH_TERM_LENGTH,
  PREFIX_PARAMETER,
  SEARCH_TERM_PARAMETER,
  STREET_FILTERS,
} from "../contract/search/request.ts";
import type { QuerySpec } from "../contract/query.ts";
import type {
  AnyResource,
  QueryParameter,
  RequestExample,
  Resource,
  Selector,
} from "./resource.ts";

/**
 * Street search: `/{country}/FullTextSearch` for every country whose Streets resource a build
 * serves, and the `name`, `postalCode` and `locality` filters of `/{country}/Streets`, both
 * answered from the country's search index (contract/search/store.ts).
 */

/** The query of a Streets resource with search: the three filters, at least one. */
export const STREETS_QUERY: QuerySpec = {
  paged: true,
  filters: [...STREET_FILTERS],
  unservedFilters: [],
};

const FILTER_RULES =
  "A PostgreSQL regular expression found anywhere in the value, as the original matches it (plain text finds every value containing it; ^ and $ anchor; . [ ] | ( ) ? * + {m,n} and escapes as in PostgreSQL, e.g. 'Schützenstr.', '[ck]arl', 'Haupt(str|weg)'), evaluated in linear time. Back-references, lookahead, lookbehind, word boundaries (\\y \\m \\M) and POSIX bracket classes ([[:alpha:]]) are a 400 naming the construct, as is an invalid pattern. A name pattern is looked up by the letters in a row every match contains: one that would leave more than 4000 candidate names (e.g. '.*' or '\\d' alone) is a 400 asking for three or more letters in a row, or for postalCode or locality.";

/** The name and postal code filters of a Streets resource (the locality filter is its selector). */
export const STREET_FILTER_PARAMETERS: readonly QueryParameter[] = [
  {
    name: "name",
    description: `Street name, ignoring case. ${FILTER_RULES} Combine freely with postalCode and locality; at least one of the three is required.`,
  },
  {
    name: "postalCode",
    description: `Postal code, case-sensitive: postalCode=1011 finds 10115 and 10117, ^80 every code starting with 80. ${FILTER_RULES}`,
  },
];

/** The locality filter's description on a Streets resource with search. */
const LOCALITY_FILTER =
  "Locality name. A value that names a locality (after Unicode NFC normalisation, trimming and lower-casing: berlin, ' BERLIN ' and Berlin are the same request) selects its streets; any other value is matched ignoring case anywhere in the locality, like name.";
const NO_FILTER = "No name, postal code or locality given.";

/** The locality selector of a country's Streets resource: a locality's name selects its view. */
export function streetLocalitySelector<R extends { readonly locality: string }>(): Selector<R> {
  return {
    param: "locality",
    in: "query",
    required: true,
    match: "caseInsensitive",
    description: LOCALITY_FILTER,
    missing: NO_FILTER,
    value: (s) => s.locality,
  };
}

const SEARCH_PARAMETERS: readonly QueryParameter[] = [
  {
    name: SEARCH_TERM_PARAMETER,
    required: true,
    description: `Words to find, at most ${MAX_SEARCH_TERM_LENGTH} characters. Every word must occur in the street's name, postal code or locality, compared as PostgreSQL's german configuration with unaccent does (case, accents and the German stemmer: Straße finds Strasse and Straßen). As in websearch_to_tsquery: "quoted words" must occur in that order, 'or' between words finds either, and -word excludes it. Stop words (der, am, weg, …) are ignored; a term of stop words only finds nothing. Missing or blank: 400.`,
  },
  {
    name: PREFIX_PARAMETER,
    description: `Search as you type: true makes the last word a prefix when it has at least two characters after normalisation (berlin pariser pl finds Pariser Platz). Not in the original API; default false.`,
    schema: { type: "string", enum: ["true", "false"] },
  },
];

const COUNTRY_EXAMPLES: Readonly<Record<string, readonly RequestExample[]>> = {
  de: [
    {
      summary: "Every Berlin street with the word Platz, 10 per page",
      query: { searchTerm: "Berlin Platz", pageSize: "10" },
    },
    { summary: "Askanischer Platz in Berlin", query: { searchTerm: "Berlin Askanischer Platz" } },
    {
      summary: "Search as you type",
      query: { searchTerm: "berlin askanischer pl", [PREFIX_PARAMETER]: "true" },
    },
  ],
  at: [
    { summary: "A street in Bregenz", query: { searchTerm: "6900 Bregenz Achgasse" } },
    {
      summary: "Search as you type",
      query: { searchTerm: "bregenz ach", [PREFIX_PARAMETER]: "true" },
    },
  ],
  ch: [
    { summary: "Streets of Zürich", query: { searchTerm: "Zürich" } },
    { summary: "Search as you type", query: { searchTerm: "züri", [PREFIX_PARAMETER]: "true" } },
  ],
  li: [
    { summary: "Streets of Vaduz", query: { searchTerm: "Vaduz" } },
    { summary: "Search as you type", query: { searchTerm: "vad", [PREFIX_PARAMETER]: "true" } },
  ],
};

/** The FullTextSearch resource of a country, answering from the index of its Streets resource. */
export function fullTextSearchOf(streets: AnyResource): AnyResource {
  const country = streets.search?.country ?? "";
  const resource: Resource<never> = {
    id: `${country}.fulltextsearch`,
    path: `/${country}/FullTextSearch`,
    title: `${streets.title}: full-text search`,
    description: `Full-text search over the streets of ${streets.path}: each street's name, postal code and locality, with the original OpenPLZ API's matches and order (${streets.path}'s order, not ranked). The same records, paging and headers as ${streets.path}.`,
    query: { paged: true, filters: [SEARCH_TERM_PARAMETER, PREFIX_PARAMETER], unservedFilters: [] },
    queryParameters: SEARCH_PARAMETERS,
    search: { country, role: "fullText" },
    sortKey: streets.sortKey,
    record: streets.record,
    examples: COUNTRY_EXAMPLES[country] ?? [],
    credits: streets.credits,
  };
  return resource as unknown as AnyResource;
}
