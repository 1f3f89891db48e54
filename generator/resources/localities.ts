import { MAX_PATTERN_LENGTH } from "../contract/regex/pattern.ts";
import type { QuerySpec } from "../contract/query.ts";
import type { PatternFilters, QueryParameter } from "./resource.ts";

/** The original's answer when a `…/Localities` request gives neither filter (its controllers' BadHttpRequestException). */
export const NO_LOCALITY_FILTER = "No postal code or name given.";

const DIALECT = `a PostgreSQL regular expression found anywhere in the value (plain text finds every value containing it; ^ and $ anchor; . [ ] | ( ) ? * + {m,n} and escapes as in PostgreSQL), at most ${MAX_PATTERN_LENGTH} characters. Back-references, lookahead, lookbehind, word boundaries (\\y \\m \\M) and POSIX bracket classes ([[:alpha:]]) are a 400 naming the construct, as is an invalid pattern. At least one of postalCode and name is required (none: 400 "${NO_LOCALITY_FILTER}").`;

/**
 * The two filters every `…/Localities` endpoint takes, as the original: `postalCode` (`~`,
 * case-sensitive) and `name` (`~*`, ignoring case), regular expressions found anywhere in the
 * value, at least one of them. The Worker matches them over all of a country's localities.
 */
export function localityFilters<
  R extends { readonly postalCode: string; readonly name: string },
>(example: {
  postalCode: string;
  name: string;
}): {
  readonly query: QuerySpec;
  readonly patterns: PatternFilters<R>;
  readonly queryParameters: readonly QueryParameter[];
} {
  return {
    query: { paged: true, filters: ["postalCode", "name"], unservedFilters: [] },
    patterns: {
      filters: [
        { param: "postalCode", ignoreCase: false },
        { param: "name", ignoreCase: true },
      ],
      missing: NO_LOCALITY_FILTER,
      value: (record, param) => (param === "name" ? record.name : record.postalCode),
    },
    queryParameters: [
      {
        name: "postalCode",
        description: `Postal code, case-sensitive: ${example.postalCode} finds it and every code containing it, ^${example.postalCode.slice(0, 2)} every code starting with ${example.postalCode.slice(0, 2)}. ${DIALECT}`,
      },
      {
        name: "name",
        description: `Locality name, ignoring case (each pattern letter matches its lower and upper case): ${example.name} finds every locality whose name contains it, ^${example.name}$ only that name. ${DIALECT}`,
      },
    ],
  };
}
