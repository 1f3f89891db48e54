import { describe, expect, it } from "vitest";
import {
  compilePattern,
  MAX_PATTERN_LENGTH,
  patternErrorMessage,
  shortestMatch,
} from "../../generator/contract/regex/pattern.ts";
import { parsePattern } from "../../generator/contract/regex/parse.ts";

const matches = (pattern: string, ignoreCase: boolean, value: string): boolean => {
  const compiled = compilePattern(pattern, { ignoreCase });
  if (!compiled.ok) throw new Error(`${pattern}: ${patternErrorMessage("name", compiled.error)}`);
  return compiled.pattern.test(value);
};

/** What PostgreSQL 17 answers for `value ~* ('(?p)' || pattern)` (names) and `value ~ ('(?p)' || pattern)` (postal codes). */
describe("filter patterns select what PostgreSQL's ~* and ~ select", () => {
  it.each<[pattern: string, ignoreCase: boolean, value: string, expected: boolean]>([
    ["Frankfurt", true, "Frankfurt am Main", true],
    ["Frankfurt", true, "Frankfurt (Oder)", true],
    ["berl", true, "Berlin", true],
    ["berl", true, "Oberlungwitz", true],
    ["^Berlin$", true, "Berlin", true],
    ["^Berlin$", true, "Berlinchen", false],
    ["(Berlin|Hamburg)", true, "Hamburg", true],
    ["(Berlin|Hamburg)", true, "Bremen", false],
    ["1011", false, "10115", true],
    ["^8033", false, "80331", true],
    ["^8033", false, "18033", false],
    ["^\\d{5}$", false, "10115", true],
    ["^\\d{5}$", false, "1011", false],
    ["Schützenstr.", true, "Schützenstraße", true],
    ["Str\\.", true, "Schützenstraße", false],
    ["Gro[sß]+", true, "GROSS Kreutz", true],
    ["[ck]öln", true, "Köln", true],
    ["bad .*see", true, "Bad Wiessee", true],
    ["^Bad( |-)S", true, "Bad-Sassendorf", true],
    ["ue?ber", true, "Überlingen", false],
    ["ü", true, "ÜBERLINGEN", true],
    ["ü", true, "u", false],
    // A constraint in parentheses may be repeated (PostgreSQL accepts it; a bare `^*` it refuses).
    ["(^)+Berlin", true, "Berlin", true],
    ["a(\\Z)+", true, "Spa", true],
    ["a(\\Z)+", true, "Spaß", false],
    ["(?:$)*x", true, "x", true],
    ["STRAßE", true, "Straße", true],
    ["STRASSE", true, "Straße", false],
    // a pattern character c finds {towlower(c), towupper(c)}, not c itself (allcases)
    ["ǅ", true, "ǆ", true],
    ["ǅ", true, "ǅ", false],
    ["[a-c]x", true, "BX", true],
    ["[^a]", true, "A", false],
    ["[^a]", true, "b", true],
    ["[]a]", false, "]", true],
    ["[a-]", false, "-", true],
    ["[\\]]", false, "]", true],
    ["\\w+ \\w+", true, "Bad Ölde", true],
    ["^\\W", true, "Ölde", false],
    ["a\\sb", true, "a b", true],
    ["\\x41", false, "A", true],
    ["\\u00e4", true, "Ä", true],
    ["{", false, "a{", true],
    ["a{,2}", false, "a{,2}", true],
    ["a}", false, "a}", true],
    ["^a|b$", false, "xb", true],
    ["a^b", false, "a^b", false],
    ["(?:ab)+c", false, "ababc", true],
    ["ab*?c", false, "ac", true],
    ["a(?#comment)b", false, "ab", true],
    ["(a|)b", false, "b", true],
    ["\\Aab\\Z", false, "ab", true],
    ["(a+)+$", false, `${"a".repeat(60)}b`, false],
    [".", false, "\n", false],
    ["[^x]", false, "\n", false],
    ["😀", false, "a😀", true],
    ["a|\\x110000", false, "a", true],
    ["\\x110000", false, "x", false],
    ["[a-z-]", false, "-", true],
    ["a()*b", false, "ab", true],
  ])("%j (ignore case: %s) on %j: %s", (pattern, ignoreCase, value, expected) => {
    expect(matches(pattern, ignoreCase, value)).toBe(expected);
  });
});

describe("the fewest characters a match spans (shorter values never reach the engine)", () => {
  it.each<[pattern: string, shortest: number]>([
    ["[a-zäöüß]{20}", 20],
    ["(.*a){12}", 12],
    ["^Berlin$", 6],
    ["(ab|c)d?", 1],
    ["x*", 0],
    ["(a{2,}b){3}", 9],
    ["^$", 0],
    ["😀{2}", 2],
  ])("%j: %i", (pattern, shortest) => {
    expect(shortestMatch(parsePattern(pattern, true))).toBe(shortest);
  });

  it.each<[pattern: string, value: string, matched: boolean]>([
    ["😀{2}", "😀😀", true],
    ["😀{2}", "😀", false],
    ["^.{3}$", "a😀b", true],
    ["[a-z]{5}", "abcd", false],
  ])("%j on %j: %s (a surrogate pair is one character)", (pattern, value, matched) => {
    expect(matches(pattern, true, value)).toBe(matched);
  });
});

describe("patterns refused with a 400, naming the construct", () => {
  it.each<[pattern: string, kind: "invalid" | "unsupported", text: string]>([
    ["(a)\\1", "unsupported", "back-reference '\\1'"],
    ["a(?=b)", "unsupported", "lookahead '(?='"],
    ["a(?!b)", "unsupported", "lookahead '(?!'"],
    ["(?<=a)b", "unsupported", "lookbehind '(?<='"],
    ["(?<!a)b", "unsupported", "lookbehind '(?<!'"],
    ["\\ybad", "unsupported", "word boundary '\\y'"],
    ["\\mbad\\M", "unsupported", "word boundary '\\m'"],
    ["(?i)a", "unsupported", "embedded options"],
    ["[[:alpha:]]", "unsupported", "[[:alpha:]]"],
    ["[[.a.]]", "unsupported", "collating elements"],
    ["\\0", "unsupported", "octal escape"],
    ["(.{1,255}){1,255}", "unsupported", "too far"],
    ["a".repeat(MAX_PATTERN_LENGTH + 1), "unsupported", `at most ${MAX_PATTERN_LENGTH}`],
    ["(a", "invalid", "unmatched '('"],
    ["a)", "invalid", "unmatched ')'"],
    ["[a", "invalid", "unmatched '['"],
    ["*a", "invalid", "nothing to repeat"],
    ["a**", "invalid", "repeats a repetition"],
    ["^*", "invalid", "nothing to repeat"],
    ["a{2,1}", "invalid", "minimum above its maximum"],
    ["a{256}", "invalid", "larger than 255"],
    ["a{2", "invalid", "not closed"],
    ["[z-a]", "invalid", "out of order"],
    ["\\q", "invalid", "not an escape"],
    ["\\p{L}", "invalid", "not an escape"],
    ["a\\", "invalid", "ends with a backslash"],
    ["(?<x>a)", "invalid", "not a group"],
    ["[\\D]", "invalid", "not allowed inside brackets"],
    ["[A-Z-8]", "invalid", "end of another"],
    ["[\\w-z]", "invalid", "cannot start a range"],
  ])("%j: %s", (pattern, kind, text) => {
    const compiled = compilePattern(pattern, { ignoreCase: true });
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(compiled.error.kind).toBe(kind);
    const message = patternErrorMessage("name", compiled.error);
    expect(message).toContain("The value of name");
    expect(message).toContain(text);
  });
});

describe("NUL, which no text holds, matches nothing however it is written", () => {
  // The street index keys name starts by a leading U+0000: a pattern's literal must never hold one.
  it.each(["\\c@s", "\\c`s", "\\u0000s", "\\x0s"])("%j parses as \\x00s", (pattern) => {
    expect(parsePattern(pattern, true)).toEqual(parsePattern("\\x00s", true));
    expect(matches(pattern, true, "s")).toBe(false);
  });
});
