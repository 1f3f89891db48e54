import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alphabetOf } from "../../generator/contract/regex/alphabet.ts";
import { JoinedValues } from "../../generator/contract/regex/joined.ts";
import { compileTree, parseFilterPattern } from "../../generator/contract/regex/pattern.ts";
import { inRanges } from "../../generator/contract/regex/ast.ts";
import { runsSatisfying } from "../../generator/contract/regex/run-scan.ts";
import { decidingRun } from "../../generator/contract/regex/run-decides.ts";
import { runQuery, type RunQuery } from "../../generator/contract/regex/runs.ts";
import { regexPattern } from "../support/regex-arbitraries.ts";
import { LOCALITY_NAMES, LOCALITY_POSTAL_CODES } from "../support/source-model.ts";

/**
 * The runs of character classes a pattern requires (regex/runs.ts) and their scan over the joined
 * values (regex/run-scan.ts): a value without them is never one the engine matches, and the scan
 * flags exactly the values that contain them. Also the engine's verdicts with its classes cut to
 * the values' alphabet (regex/alphabet.ts), against the whole pattern.
 *
 * REGEX_SEED=<n> replays a run; REGEX_RUNS=<n> sets the number of patterns per column.
 */
const seed = Number(process.env["REGEX_SEED"] ?? Date.now() % 2 ** 31);
const runs = Number(process.env["REGEX_RUNS"] ?? 100);

/** The reference: whether one value contains every run the query requires, position by position (no class holds the newline). */
function runsSatisfied(query: RunQuery, value: string): boolean {
  switch (query.op) {
    case "all":
      return true;
    case "run": {
      const codes = Array.from(value, (ch) => ch.codePointAt(0) ?? 0);
      const holds = (ranges: (typeof query.classes)[number], code: number) =>
        code !== 0x0a && inRanges(ranges, code);
      for (let at = 0; at + query.classes.length <= codes.length; at++)
        if (query.classes.every((ranges, k) => holds(ranges, codes[at + k] ?? 0x0a))) return true;
      return false;
    }
    case "and":
      return query.of.every((q) => runsSatisfied(q, value));
    case "or":
      return query.of.some((q) => runsSatisfied(q, value));
  }
}

function parsed(pattern: string, ignoreCase: boolean) {
  const result = parseFilterPattern(pattern, { ignoreCase });
  if (!result.ok) throw new Error(`refused: ${pattern}`);
  return result.tree;
}

function engine(pattern: string, ignoreCase: boolean, alphabet?: ReturnType<typeof alphabetOf>) {
  const compiled = compileTree(pattern, parsed(pattern, ignoreCase), alphabet);
  return compiled.ok ? compiled.pattern.test : undefined;
}

function passes(query: RunQuery): number {
  return query.op === "all"
    ? 0
    : query.op === "run"
      ? 1
      : query.of.reduce((n, q) => n + passes(q), 0);
}

/** Classes-heavy patterns without literals: the shapes runs are for. */
const classPattern: fc.Arbitrary<string> = (() => {
  const atom = fc.constantFrom(
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    "\\d",
    "\\D",
    ".",
    "[aeiou]",
    "[^a]",
    "[a-zäöüß]",
    "(a|e|i|o|u)",
    "(ae|oe|ß|ü)",
    "( |-)",
    "x",
    "^",
    "$",
  );
  const quantified = fc
    .tuple(atom, fc.constantFrom("", "", "?", "*", "+", "{2}", "{1,3}", "{2,}", "{0,2}"))
    .map(([a, q]) => (q !== "" && (a === "^" || a === "$") ? a : a + q));
  const sequence = fc.array(quantified, { minLength: 1, maxLength: 6 }).map((p) => p.join(""));
  return fc
    .array(sequence, { minLength: 1, maxLength: 3 })
    .map((branches) => (branches.length === 1 ? (branches[0] ?? "") : `(${branches.join("|")})`))
    .chain((inner) =>
      fc.constantFrom(inner, `${inner}+`, `(${inner}){2}`, `\\W${inner}`, `${inner}\\s\\w`),
    );
})();

describe("runs of classes a pattern requires", () => {
  it.each<[pattern: string, value: string, contains: boolean]>([
    ["\\w+\\W+\\w+\\W+\\w+", "Frankfurt am Main", true],
    ["\\w+\\W+\\w+\\W+\\w+", "Berlin", false],
    ["\\w+\\W+\\w+\\W+\\w+", "Bad Oldesloe", true], // `\w\W` and `\W\w`: the engine decides
    ["\\W\\w\\W\\w\\W", "Halle (Saale)", false],
    ["\\W\\w\\W\\w\\W", "a b c d", true],
    ["(a|e|i|o|u)(a|e|i|o|u)(a|e|i|o|u)", "Neuenburg", true],
    ["(a|e|i|o|u)(a|e|i|o|u)(a|e|i|o|u)", "Berlin", false],
    ["(a|e|i|o|u){3}", "NEUENBURG", true], // `~*`: the classes hold both cases
    ["(ae|oe|ue|ss|ä|ö|ü|ß){2,}", "Berlin", false],
    ["(ae|oe|ue|ss|ä|ö|ü|ß){2,}", "Süßen", true],
    ["[0-9][^0-9]", "01067", false],
    ["x?\\s\\d", "Berlin 2", true],
  ])("%s: %s contains them: %s", (pattern, value, contains) => {
    const query = runQuery(parsed(pattern, true));
    expect(query.op).not.toBe("all");
    expect(runsSatisfied(query, value)).toBe(contains);
    expect(runsSatisfying(query, JoinedValues.of([value]))?.[0]).toBe(contains ? 1 : 0);
    if (engine(pattern, true)?.(value) === true) expect(contains).toBe(true);
  });

  it.each<[pattern: string, runs: number]>([
    ["\\w+\\W+\\w+\\W+\\w+", 2], // `\w\W` and `\W\w`, each once
    ["\\W\\w\\W\\w\\W", 1],
    ["(a|e|i|o|u)(a|e|i|o|u)(a|e|i|o|u)", 1],
    ["(ae|oe|ue|ss|ä|ö|ü|ß){2,}", 1],
    ["a*", 0],
    ["(x|\\w*)", 0],
  ])("%s needs %d passes", (pattern, count) => {
    expect(passes(runQuery(parsed(pattern, true)))).toBe(count);
  });

  it("drops runs nearly every position holds, given the alphabet", () => {
    const tree = parsed("[^a]+[^b]+[^c]+[^d]+$", true);
    expect(runQuery(tree).op).not.toBe("all");
    expect(runQuery(tree, alphabetOf(LOCALITY_NAMES)).op).toBe("all");
  });

  it("scans values with characters beyond the tables and surrogate pairs", () => {
    const values = ["aĀb", "a😀b", "ab", "Āa", "😀😀"];
    const joined = JoinedValues.of(values);
    for (const [pattern, expected] of [
      ["a[^a-z]b", [1, 1, 0, 0, 0]],
      ["[Ā-ſ]a", [0, 0, 0, 1, 0]],
      ["[😀][😀]", [0, 0, 0, 0, 1]],
      ["\\W\\W", [0, 0, 0, 0, 1]],
    ] as const) {
      const query = runQuery(parsed(pattern, false));
      expect([...(runsSatisfying(query, joined) ?? [])], pattern).toEqual(expected);
      expect(
        values.map((v) => (runsSatisfied(query, v) ? 1 : 0)),
        pattern,
      ).toEqual(expected);
    }
  });
});

describe("a run that decides the pattern", () => {
  it.each<[pattern: string, decides: boolean]>([
    ["(a|e|i|o|u)(a|e|i|o|u)(a|e|i|o|u)", true],
    ["(a|e|i|o|u){3}", true],
    ["\\W\\w\\W\\w\\W", true],
    ["[äöü]ß", true],
    ["x.y", true],
    ["^[aeiou]{2}", false], // anchored
    ["[aeiou]{2}$", false],
    ["(ab|cd)", false], // not `[ac][bd]`
    ["[aeiou]{2,3}", false],
    ["[aeiou]{5}", false], // runs.ts carries four copies of a repetition
    ["(a|e|i|o|u)".repeat(7), false], // longer than a run
    ["\\w\\w", false], // not worth a pass: the engine decides
    ["..", false],
  ])("%s: %s", (pattern, decides) => {
    expect(
      decidingRun(parsed(pattern, true), () =>
        runQuery(parsed(pattern, true), alphabetOf(LOCALITY_NAMES)),
      ) !== undefined,
    ).toBe(decides);
  });
});

describe(`generated patterns over the embedded values (seed ${seed}, replay: REGEX_SEED=${seed})`, () => {
  // Each column also gets patterns a run decides, so that path is checked whatever the seed draws.
  it.each<[string, readonly string[], boolean, number, readonly string[]]>([
    ["name", LOCALITY_NAMES, true, 0, ["(a|e|i|o|u){3}", "\\W\\w\\W", "[äöü]ß"]],
    ["postalCode", LOCALITY_POSTAL_CODES, false, 1, ["[0-4][5-9]", "(1|2)0", "9.9"]],
  ])(
    "%s: the runs keep every value the engine matches, the scan agrees value by value, the cut engine agrees with the whole",
    (column, values, ignoreCase, offset, deciding) => {
      const alphabet = alphabetOf(values);
      const joined = JoinedValues.of(values);
      const patterns = [
        ...deciding,
        ...fc.sample(regexPattern(values), { seed: seed + offset, numRuns: runs }),
        ...fc.sample(classPattern, { seed: seed + offset, numRuns: runs }),
      ];
      const wrong: string[] = [];
      let checked = 0;
      let decided = 0;
      for (const pattern of patterns) {
        const result = parseFilterPattern(pattern, { ignoreCase });
        if (!result.ok) continue;
        const whole = compileTree(pattern, result.tree);
        const cut = compileTree(pattern, result.tree, alphabet);
        if (!whole.ok || !cut.ok) continue;
        checked++;
        const query = runQuery(result.tree, alphabet);
        const flags = runsSatisfying(query, joined);
        const decides = decidingRun(result.tree, () => query) !== undefined;
        if (decides) decided++;
        values.forEach((value, i) => {
          const matched = whole.pattern.test(value);
          const kept = flags === undefined || flags[i] === 1;
          if (matched && !kept) wrong.push(`${pattern} drops ${value}`);
          if (decides && kept !== matched) wrong.push(`${pattern} decides ${value} wrong`);
          if (kept !== runsSatisfied(query, value)) wrong.push(`${pattern} scans ${value} wrong`);
          if (cut.pattern.test(value) !== matched) wrong.push(`${pattern} cut differs on ${value}`);
        });
        if (wrong.length > 8) break;
      }
      expect(wrong.slice(0, 8), `${column} (replay: REGEX_SEED=${seed})`).toEqual([]);
      expect(checked).toBeGreaterThan(runs);
      expect(decided, "patterns a run decides").toBeGreaterThan(0);
    },
  );
});
