/**
 * Street search with the original OpenPLZ API's semantics, without a database: FullTextSearch as
 * PostgreSQL's `websearch_to_tsquery('config_openplzapi', …)` against `to_tsvector(…)` of
 * `Name PostalCode Locality`, and the `/Streets` filters as its `~*` / `~` regular expressions
 * (the supported subset). Pure: no Node APIs, nothing of the project.
 */
export {
  lexemesOf,
  positionedLexemes,
  streetDocument,
  streetLexemes,
  type DocumentLexemes,
  type PositionedLexeme,
} from "../postgres/lexize.ts";
export {
  parseSearchTerm,
  PREFIX_MIN_LENGTH,
  SearchTermError,
  type SearchOptions,
} from "../postgres/websearch.ts";
export {
  formatQuery,
  lexemesOfQuery,
  matches,
  type LexemeMatch,
  type PhraseTerm,
  type SearchNode,
  type SearchQuery,
} from "../postgres/tsquery.ts";
export {
  caseFoldKey,
  filterMatches,
  FilterSyntaxError,
  parseStreetFilter,
  type FilterParameter,
  type StreetFilter,
} from "./filter.ts";
