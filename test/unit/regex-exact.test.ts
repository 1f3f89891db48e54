import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeMatchTable } from "../../generator/contract/match-table-encode.ts";
import {
  decodeMatchTable,
  matchRecords,
  type ColumnTest,
  type MatchTable,
} from "../../generator/contract/match-table.ts";
import { alphabetOf } from "../../generator/contract/regex/alphabet.ts";
import { exactLiterals } from "../../generator/contract/regex/exact.ts";
import { JoinedValues, satisfying } from "../../generator/contract/regex/joined.ts";
import { ALL, literalQuery, satisfies } from "../../generator/contract/regex/literals.ts";
import {
  compilePattern,
  parseFilterPattern,
  surelyAccepted,
} from "../../generator/contract/regex/pattern.ts";
import { matchesEmpty } from "../../generator/contract/regex/universal.ts";
import { caseFoldKey } from "../../generator/contract/search/filter.ts";
import { regexPattern } from "../support/regex-arbitraries.ts";
import { POST_CODES } from "../support/source-model.ts";

/**
 * The searches over a column's joined values (joined.ts, exact.ts) against the engine: for
 * generated patterns over the embedded names (`~*`) and postal codes (`~`), the records the match
 * table selects are those whose value the compiled pattern matches. REGEX_SEED=<n> replays a run.
 */
const seed = Number(process.env["REGEX_SEED"] ?? Date.now() % 2 ** 31);
const runs = Number(process.env["REGEX_RUNS"] ?? 200);

const names = [...new Set(POST_CODES.map((p) => p.city))].filter((n) => n !== "");
const postalCodes = [...new Set(POST_CODES.map((p) => p.postalCode))];
const identity = (text: string) => text;

function tableOf(values: readonly string[], ignoreCase: boolean): MatchTable {
  return decodeMatchTable(
    encodeMatchTable(values.length, [
      { param: "v", valueOf: (i) => values[i] ?? "", ...(ignoreCase ? { fold: caseFoldKey } : {}) },
    ]),
  );
}

/** The column test as the Worker builds it (edge/matched.ts): exact strings, else literals and the engine. */
function columnTest(table: MatchTable, pattern: string, ignoreCase: boolean): ColumnTest | string {
  const compiled = compilePattern(pattern, { ignoreCase });
  if (!compiled.ok) return "refused";
  const column = table.columns.get("v");
  const fold = ignoreCase ? caseFoldKey : identity;
  const exact = column && exactLiterals(compiled.pattern.tree, fold, column.alphabet);
  if (exact !== undefined)
    return { param: "v", test: () => false, literals: { query: ALL, folded: ignoreCase }, exact };
  return {
    param: "v",
    test: compiled.pattern.test,
    literals: { query: literalQuery(compiled.pattern.tree, fold), folded: ignoreCase },
  };
}

/** Alternations of pieces of the values, in any case, perhaps anchored: the shapes exact.ts takes. */
const alternation = (values: readonly string[]) =>
  fc
    .tuple(
      fc.array(
        fc
          .tuple(fc.constantFrom(...values), fc.nat(), fc.integer({ min: 1, max: 8 }), fc.boolean())
          .map(([value, at, length, upper]) => {
            const piece = value.slice(at % Math.max(1, value.length), (at % 9) + length);
            const cased = upper ? piece.toUpperCase() : piece.toLowerCase();
            return cased.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`) || "x";
          }),
        { minLength: 1, maxLength: 12 },
      ),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([pieces, start, end]) => `${start ? "^" : ""}(${pieces.join("|")})${end ? "$" : ""}`);

describe("the match table's searches select what the engine matches", () => {
  it.each<[string, readonly string[], boolean, number]>([
    ["name", names, true, 0],
    ["postalCode", postalCodes, false, 1],
  ])(
    `${runs} generated patterns and ${runs} alternations over the embedded %s values`,
    (column, values, ignoreCase, offset) => {
      const table = tableOf(values, ignoreCase);
      const patterns = [
        // Anchors, and a newline or a class holding one, next to the joined values' separators.
        ...["n\\n", "n[\\x00-\\x7f]b", "[^x]{2}$", "^.[^a]", "n$", "^b", "0$", "^1.*9$"],
        ...fc.sample(regexPattern(values), { seed: seed + offset, numRuns: runs }),
        ...fc.sample(alternation(values), { seed: seed + offset, numRuns: runs }),
      ];
      let exact = 0;
      const mismatches = patterns.flatMap((pattern) => {
        const test = columnTest(table, pattern, ignoreCase);
        if (typeof test === "string") return [];
        if (test.exact !== undefined) exact++;
        const engine = compilePattern(pattern, { ignoreCase });
        if (!engine.ok) return [];
        const expected = values.flatMap((value, i) => (engine.pattern.test(value) ? [i] : []));
        const found = matchRecords(table, [test]);
        return JSON.stringify(found) === JSON.stringify(expected)
          ? []
          : [`${pattern}: ${found.length} selected, the engine ${expected.length}`];
      });
      expect(mismatches.slice(0, 8), `${column} (replay: REGEX_SEED=${seed})`).toEqual([]);
      expect(exact, `${column}: patterns decided by search`).toBeGreaterThan(runs / 2);
    },
  );
});

describe("exactLiterals", () => {
  const alphabet = alphabetOf(["Berlin", "Köln", "Kassel", "ſt", "80331"]);
  it.each<[string, boolean, string[] | undefined, boolean?, boolean?]>([
    ["Berlin", true, ["BERLIN"]],
    ["(berlin|KÖLN)", true, ["BERLIN", "KÖLN"]],
    ["^(Berlin|Köln)$", true, ["BERLIN", "KÖLN"], true, true],
    ["^803", false, ["803"], true, false],
    ["[bk]ln", true, ["BLN", "KLN"]],
    ["ber.in", true, undefined],
    ["berl+", true, undefined],
    ["[^b]erlin", true, undefined],
    ["^", true, undefined],
    ["a|", true, undefined],
    // `ſ` folds with `s` here, but `~*` does not take it for `s`: the engine decides.
    ["st", true, undefined],
    ["qx", true, []],
  ])("%s (ignoring case: %s)", (pattern, ignoreCase, texts, start = false, end = false) => {
    const parsed = parseFilterPattern(pattern, { ignoreCase });
    if (!parsed.ok) throw new Error(pattern);
    const exact = exactLiterals(parsed.tree, ignoreCase ? caseFoldKey : identity, alphabet);
    expect(exact && { ...exact, texts: [...exact.texts].sort() }).toEqual(
      texts === undefined ? undefined : { texts: [...texts].sort(), start, end },
    );
  });
});

describe("satisfying over the joined values answers as satisfies per value", () => {
  const values = ["Frankfurt am Main", "Frankfurt (Oder)", "", "Berlin", "Bad Oldesloe", "a\u0301"];
  const joined = JoinedValues.of(values.map(caseFoldKey));
  it.each(["frankfurt", "(main|oder)", "e", "(ber|old)(lin|esloe)", "x", "n$", "a.*b"])(
    "%s",
    (pattern) => {
      const parsed = parseFilterPattern(pattern, { ignoreCase: true });
      if (!parsed.ok) throw new Error(pattern);
      const query = literalQuery(parsed.tree, caseFoldKey);
      const flags = satisfying(query, joined);
      expect(values.map((_, i) => (flags === undefined ? 1 : flags[i]) === 1)).toEqual(
        values.map((value) => satisfies(query, caseFoldKey(value))),
      );
      expect(joined.count).toBe(values.length);
      expect(values.map((_, i) => joined.at(i))).toEqual(values.map(caseFoldKey));
    },
  );
});

describe("surelyAccepted: a pattern it passes compiles within the limits", () => {
  it.each<[string, boolean]>([
    ["x{0,255}y{0,255}", true],
    ["Frankfurt", true],
    ["(.{1,255}){1,255}", false],
    ["(a{0,40}){0,30}", false],
    ["(.*e){20}x", true],
  ])("%s: %s", (pattern, sure) => {
    const parsed = parseFilterPattern(pattern, { ignoreCase: true });
    if (!parsed.ok) throw new Error(pattern);
    expect(surelyAccepted(parsed.tree)).toBe(sure);
  });

  it.each<[string, readonly string[], boolean, number]>([
    ["name", names, true, 2],
    ["postalCode", postalCodes, false, 3],
  ])(`${runs} generated patterns over the %s values`, (_, values, ignoreCase, offset) => {
    const unsure = fc
      .sample(regexPattern(values), { seed: seed + offset, numRuns: runs })
      .filter((pattern) => {
        const parsed = parseFilterPattern(pattern, { ignoreCase });
        return (
          parsed.ok && surelyAccepted(parsed.tree) && !compilePattern(pattern, { ignoreCase }).ok
        );
      });
    expect(unsure, `replay: REGEX_SEED=${seed}`).toEqual([]);
  });
});

describe("matchesEmpty: a pattern it passes matches every value", () => {
  it.each<[string, boolean]>([
    ["x{0,255}y{0,255}", true],
    ["(a|)b?", true],
    ["a?$", true],
    ["^x*", true],
    ["^x*$", false],
    ["(^|a)b?", false],
    ["a*b", false],
    ["[^\\u0000-\\uffff]*", true],
  ])("%s: %s", (pattern, empty) => {
    const parsed = parseFilterPattern(pattern, { ignoreCase: true });
    if (!parsed.ok) throw new Error(pattern);
    expect(matchesEmpty(parsed.tree)).toBe(empty);
  });

  it.each<[string, readonly string[], boolean, number]>([
    ["name", names, true, 4],
    ["postalCode", postalCodes, false, 5],
  ])(`${runs} generated patterns over the %s values`, (_, values, ignoreCase, offset) => {
    const wrong = fc
      .sample(regexPattern(values), { seed: seed + offset, numRuns: runs })
      .filter((pattern) => {
        const compiled = compilePattern(pattern, { ignoreCase });
        return (
          compiled.ok &&
          matchesEmpty(compiled.pattern.tree) &&
          !values.every((value) => compiled.pattern.test(value))
        );
      });
    expect(wrong, `replay: REGEX_SEED=${seed}`).toEqual([]);
  });
});
