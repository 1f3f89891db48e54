import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { Automaton } from "../../generator/contract/regex/automaton.ts";
import { toRe2Syntax } from "../support/re2-syntax.ts";
import { parsePattern } from "../../generator/contract/regex/parse.ts";

/**
 * The patterns' own engine (contract/regex/automaton.ts) against RE2 (re2js, the engine it
 * replaced) on the same parsed trees: anchors, empty matches, code points beyond UTF-16's first
 * plane, and a pattern with more DFA states than one automaton keeps (its states built anew); and
 * each value tested in place within the values joined (testIn) as it is tested alone.
 * regex-property.test.ts holds both to PostgreSQL itself.
 */
const seed = Number(process.env["REGEX_SEED"] ?? Date.now() % 2 ** 31);

const verdicts = (pattern: string, values: readonly string[], ignoreCase = false) => {
  const tree = parsePattern(pattern, ignoreCase);
  const re2 = RE2JS.compile(toRe2Syntax(tree));
  const automaton = new Automaton(tree);
  // Each value also where it lies in the values joined as a match table holds them.
  const joined = `\n${values.join("\n")}\n`;
  let at = 1;
  const inJoined = values.map((value) => {
    const verdict = automaton.testIn(joined, at, at + value.length);
    at += value.length + 1;
    return verdict;
  });
  const ours = values.map((value) => automaton.test(value));
  expect(inJoined).toEqual(ours);
  return { ours, re2: values.map((value) => re2.test(value)) };
};

describe("the pattern automaton", () => {
  it.each([
    ["K", ["Köln", "Berlin", "AK", ""]],
    ["^b", ["Berlin", "Abb", "b", ""]],
    ["n$", ["Berlin", "Bonn ", "n", ""]],
    ["^$", ["", "a"]],
    ["$^", ["", "a"]],
    ["x*", ["", "abc"]],
    ["(^|a)b?$", ["", "b", "cb", "cab", "ca", "abc"]],
    ["a|", ["", "b"]],
    ["[^a]*[^b]*q", ["q", "abq", "ab"]],
    ["(.{1,3}){2}z", ["z", "az", "abz", "abcdefgz", "abcdefghz"]],
    ["^(Berlin|Köln)$", ["Berlin", "Köln", "Berlinx", "xKöln"]],
    ["\\U0001F600.", ["a\u{1F600}b", "\u{1F600}", "\u{1F600}\u{1F600}"]],
    ["^.$", ["\u{1F600}", "\u{1F600}\u{1F600}", "\ud83d", "é"]],
    ["[^x]", ["\u{10000}", "x"]],
  ])("%s: what RE2 answers", (pattern, values) => {
    const { ours, re2 } = verdicts(pattern, values);
    expect(ours).toEqual(re2);
  });

  it("answers as RE2 when the states it needs outgrow what it keeps", () => {
    // The DFA of `a(a|b){14}` has 2^15 states, and the literal's letters make 28 classes, so one
    // automaton keeps 4,681 (automaton.ts MAX_ENTRIES): 400 values of 40-60 letters visit more.
    const values = fc.sample(
      fc.array(fc.constantFrom("a", "b"), { minLength: 40, maxLength: 60 }).map((l) => l.join("")),
      { seed, numRuns: 400 },
    );
    const { ours, re2 } = verdicts("a(a|b){14}b$|zyxwvutsrqponmlkjihgfedc", values);
    expect(ours).toEqual(re2);
    expect(ours.filter(Boolean).length).toBeGreaterThan(0);
    expect(ours.filter((v) => !v).length).toBeGreaterThan(0);
  });

  it(`answers as RE2 on generated patterns over letters, digits and spaces (seed ${seed})`, () => {
    const piece = fc.constantFrom("a", "b", "1", " ", ".", "[ab]", "[^a ]", "\\d", "\\w", "^", "$");
    const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{1,3}", "{0,2}");
    const pattern = fc
      .array(
        fc.tuple(piece, quantifier).map(([p, q]) => (p === "^" || p === "$" ? p : p + q)),
        { minLength: 1, maxLength: 6 },
      )
      .chain((parts) => fc.constantFrom(parts.join(""), `(${parts.join("")})+`, parts.join("|")));
    fc.assert(
      fc.property(
        pattern,
        fc.array(fc.stringMatching(/^[ab1 ]{0,8}$/), { maxLength: 12 }),
        (p, values) => {
          const { ours, re2 } = verdicts(p, values);
          expect(ours).toEqual(re2);
        },
      ),
      { seed, numRuns: 500 },
    );
  });
});
