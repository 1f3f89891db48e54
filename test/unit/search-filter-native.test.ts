import { describe, expect, it } from "vitest";
import {
  filterMatches,
  parseStreetFilter,
  type FilterParameter,
} from "../../generator/contract/search/filter.ts";

/**
 * The `/Streets` filters take the engine's own string search where it is exact (`native`): it
 * must answer as the character-by-character comparison does, for every value, on the characters
 * where JavaScript's case rules and the server's differ too.
 */
const VALUES = [
  "",
  "Straße",
  "STRASSE",
  "strasse",
  "Kaiser-Wilhelm-Str.",
  "\u212Aaiser", // KELVIN SIGN: towlower is k, but k's cases are k and K
  "\u017Ftraße", // LONG S: uppercases to S
  "\u0130stanbul", // I WITH DOT ABOVE: lower-cases to i + combining dot in JavaScript
  "\u0131lm", // DOTLESS I: uppercases to I
  "a\u{1F600}b",
  "10117",
  "01067 Dresden",
  "Str.(Nord)",
  "a/b-c|d",
  "ǅemal",
  "STRAẞE",
  "a\uD800b", // a lone surrogate
  "\u{1F600}\u{1F600}",
];

const FILTERS: [FilterParameter, string][] = [
  ["name", "str"],
  ["name", "STR"],
  ["name", "^str"],
  ["name", "e$"],
  ["name", "^strasse$"],
  ["name", "k"],
  ["name", "s"],
  ["name", "i"],
  ["name", "I"],
  ["name", "\\."],
  ["name", "\\(nord\\)"],
  ["name", "/b\\-c\\|"],
  ["name", "ß"],
  ["name", "ǆ"],
  ["name", "Straße"],
  ["name", "^stra"],
  ["name", "ße$"],
  ["name", "ſ"],
  ["name", "^ǅ"],
  ["name", "\u{1F600}"],
  ["name", "a\u{1F600}"],
  ["name", ""],
  ["name", "^"],
  ["name", "$"],
  ["name", "^$"],
  ["locality", "dres"],
  ["postalCode", "011"],
  ["postalCode", "^01"],
  ["postalCode", "7$"],
  ["postalCode", "^10117$"],
  ["postalCode", "\u{1F600}"],
  ["postalCode", "a\u{1F600}b"],
];

describe("filters by the engine's string search", () => {
  it.each(FILTERS)("%s=%s answers as the comparison by characters", (parameter, value) => {
    const filter = parseStreetFilter(parameter, value);
    const { native: _, ...byCharacters } = filter;
    for (const text of VALUES)
      expect([text, filterMatches(filter, text)]).toEqual([
        text,
        filterMatches(byCharacters, text),
      ]);
  });

  it("is used for every literal but one with a surrogate code point of its own", () => {
    expect(parseStreetFilter("name", "^Str\\.").native).toBeDefined();
    expect(parseStreetFilter("postalCode", "1011").native).toBeDefined();
    expect(parseStreetFilter("name", "ß").native).toBeDefined();
    expect(parseStreetFilter("name", "a\uD800").native).toBeUndefined();
    expect(parseStreetFilter("postalCode", "\u{1F600}").native).toBeUndefined();
  });
});
