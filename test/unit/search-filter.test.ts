import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  caseFoldKey,
  filterMatches,
  FilterSyntaxError,
  foldIsExact,
  parseStreetFilter,
  type FilterParameter,
} from "../../generator/contract/search/filter.ts";

const match = (parameter: FilterParameter, pattern: string, value: string) =>
  filterMatches(parseStreetFilter(parameter, pattern), value);

/** What PostgreSQL 17 answers for `value ~* ('(?p)' || pattern)` (name, locality) and `~` (postalCode). */
describe("the /Streets filters select what the original's regular expressions select", () => {
  it.each<[FilterParameter, string, string, boolean]>([
    ["name", "pariser", "Pariser Platz", true],
    ["name", "PLATZ", "Pariser Platz", true],
    ["name", "^pariser", "Pariser Platz", true],
    ["name", "^platz", "Pariser Platz", false],
    ["name", "platz$", "Pariser Platz", true],
    ["name", "pariser$", "Pariser Platz", false],
    ["name", "^Pariser Platz$", "Pariser Platz", true],
    ["name", "^Pariser Platz$", "Pariser Platz 2", false],
    ["name", "^", "Pariser Platz", true],
    ["name", "$", "Pariser Platz", true],
    ["name", "^$", "", true],
    ["name", "^$", "x", false],
    ["name", "^Unter den", "Unter den Linden", true],
    ["name", "Str\\.", "Schützenstr.", true],
    ["name", "Str\\.", "Schützenstraße", false],
    ["name", "\\^", "a^b", true],
    ["name", "a\\$", "a$", true],
    ["name", "\\\\", "a\\b", true],
    ["name", "a]b}c", "a]b}c", true],
    ["name", "\\ä", "Ärger", true],
    // per character: no multi-character folding; both sides as written (no Unicode normalisation)
    ["name", "STRAßE", "Straße", true],
    ["name", "STRASSE", "Straße", false],
    ["name", "straße", "STRASSE", false],
    ["name", "ÄUSSERE", "Äußere", false],
    ["name", "é", "É", true],
    ["name", "Mu\u0308ller", "Müller", false],
    ["name", "Mu\u0308ller", "MU\u0308LLER", true],
    // a pattern character c finds {towlower(c), towupper(c)} (PGlite's musl: towupper(ß) = ẞ)
    ["name", "ǅ", "ǆ", true],
    ["name", "ǅ", "Ǆ", true],
    ["name", "ǅ", "ǅ", false],
    ["name", "ß", "ẞ", true],
    ["name", "i", "İ", false],
    ["name", "İ", "i", true],
    ["name", "k", "\u212a", false], // Kelvin sign
    ["locality", "berlin", "Berlin", true],
    ["locality", "^Frankfurt \\(Oder\\)$", "Frankfurt (Oder)", true],
    ["postalCode", "1011", "10115", true],
    ["postalCode", "^1011", "01011", false],
    ["postalCode", "17$", "10117", true],
    ["postalCode", "ab", "AB1", false],
  ])("%s=%j against %j: %s", (parameter, pattern, value, expected) => {
    expect(match(parameter, pattern, value)).toBe(expected);
  });

  it.each([
    ["\\y", /uses the word boundary/],
    ["(?i)abc", /uses embedded options/],
    ["a(?=b)", /uses lookahead/],
    ["(a)\\1", /uses the back-reference/],
    ["[[:alpha:]]", /uses character classes like \[\[:alpha:\]\]/],
    ["x\\", /is not a valid regular expression: it ends with a backslash/],
    ["\\", /is not a valid regular expression: it ends with a backslash/],
    ["a{3,2}", /is not a valid regular expression/],
    ["(", /is not a valid regular expression: unmatched '\('/],
    ["a\0b", /is not a valid regular expression: it contains the character U\+0000/],
  ])("refuses %j, naming the parameter and the construct", (pattern, reason) => {
    for (const parameter of ["name", "postalCode", "locality"] as const) {
      let error: unknown;
      try {
        parseStreetFilter(parameter, pattern);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FilterSyntaxError);
      expect((error as FilterSyntaxError).parameter).toBe(parameter);
      expect((error as Error).message).toMatch(new RegExp(`^The value of ${parameter} `));
      expect((error as Error).message).toMatch(reason);
    }
  });

  it.each<[string, "name" | "postalCode", string[], string[]]>([
    ["Schützenstr.", "name", ["Schützenstraße", "SCHÜTZENSTR. 5"], ["Schützenweg", "Schützenstr"]],
    ["[ck]arl", "name", ["Karlstraße", "Am Carlsgarten"], ["Kerlweg"]],
    ["Haupt(str|weg)", "name", ["Hauptstraße", "Am Hauptweg"], ["Hauptallee"]],
    [
      "^Unter den .*n$",
      "name",
      ["Unter den Linden", "unter den eichen"],
      ["Unter den Zelt", "Unter der Linden"],
    ],
    ["Straße?$", "name", ["Lange Straße", "Lange Straß"], ["Straßenbahnweg"]],
    ["^101(1|7)7$", "postalCode", ["10117", "10177"], ["10127", "101177"]],
    ["^1011[0-9]", "postalCode", ["10115"], ["1011"]],
    ["a^b", "name", [], ["a^b", "ab"]],
  ])("reads %j as a regular expression (%s)", (pattern, parameter, matching, other) => {
    const filter = parseStreetFilter(parameter, pattern);
    expect(filter.pattern).toBeDefined();
    expect(matching.map((value) => filterMatches(filter, value))).toEqual(matching.map(() => true));
    expect(other.map((value) => filterMatches(filter, value))).toEqual(other.map(() => false));
  });

  it("keeps plain text, anchors and escapes on the literal path", () => {
    for (const value of ["Pariser Platz", "^Unter den", "damm$", "str\\.", "a]b}"])
      expect(parseStreetFilter("name", value).pattern).toBeUndefined();
  });

  it("folds case for candidate lookups so that every ~* match has equal keys", () => {
    expect(caseFoldKey("Straße")).toBe(caseFoldKey("STRAẞE"));
    expect(caseFoldKey("ǅ")).toBe(caseFoldKey("ǆ"));
    expect(caseFoldKey("Pariser")).toBe(caseFoldKey("PARISER"));
    expect(caseFoldKey("Pariser")).not.toBe(caseFoldKey("Parisor"));
  });
});

const codes = (text: string) => new Set(Array.from(text, (ch) => ch.codePointAt(0) ?? 0));
const ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789ßäöüÄÖÜ";

describe("an n-gram list that is exactly the runs a short name filter passes (foldIsExact)", () => {
  it.each<[string, string, boolean]>([
    ["str", ASCII, true],
    ["A", ASCII, true],
    ["", ASCII, true],
    ["ß", ASCII, true],
    ["k", ASCII, true],
    ["k", `${ASCII}\u212a`, false], // the Kelvin sign folds with k, ~* k does not find it
    ["s", `${ASCII}ſ`, false], // so does the long s with s
    ["ǅ", "ǄǅǆDZ", false],
    ["^str", ASCII, false],
    ["str$", ASCII, false],
  ])("name=%j over the characters %j: %s", (pattern, occurring, expected) => {
    expect(foldIsExact(parseStreetFilter("name", pattern), codes(occurring))).toBe(expected);
  });

  it("is never wrong: a value whose folded form holds the folded literal then matches", () => {
    const chars = fc.constantFrom(..."aAkKsSſßẞǄǅǆiIİı\u212a".split(""));
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 3 }),
        fc.array(chars, { maxLength: 8 }),
        (literal, value) => {
          const filter = parseStreetFilter("name", literal.join(""));
          const text = value.join("");
          if (
            foldIsExact(filter, codes(text)) &&
            caseFoldKey(text).includes(caseFoldKey(literal.join("")))
          )
            expect(filterMatches(filter, text)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("a filter far longer than any request may send (the Worker refuses it first)", () => {
  it("is read without overflowing the stack", () => {
    const value = "1".repeat(200_000);
    const filter = parseStreetFilter("postalCode", value);
    expect(filter.literal).toHaveLength(200_000);
    expect([filterMatches(filter, value), filterMatches(filter, value.slice(1))]).toEqual([
      true,
      false,
    ]);
  });
});
