import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  literalQuery,
  satisfier,
  satisfies,
  type LiteralQuery,
} from "../../generator/contract/regex/literals.ts";
import { parsePattern } from "../../generator/contract/regex/parse.ts";
import { compilePattern } from "../../generator/contract/regex/pattern.ts";
import { caseFoldKey } from "../../generator/contract/search/filter.ts";
import { regexPattern } from "../support/regex-arbitraries.ts";
import { POST_CODES } from "../support/source-model.ts";

const identity = (text: string) => text;
const show = (q: LiteralQuery): string =>
  q.op === "all"
    ? "*"
    : q.op === "literal"
      ? q.text
      : `(${q.of.map(show).join(q.op === "and" ? " & " : " | ")})`;

it("folds case for ~* with the street index's key, so BERLIN and berlin ask alike", () => {
  const of = (pattern: string) => show(literalQuery(parsePattern(pattern, true), caseFoldKey));
  expect(of("BERLIN")).toBe(of("berlin"));
  expect(of("BERLIN")).toBe(caseFoldKey("berlin"));
});

const seed = Number(process.env["REGEX_SEED"] ?? Date.now() % 2 ** 31);

describe("a pattern's literal query", () => {
  const literalsOf = (pattern: string): string =>
    show(literalQuery(parsePattern(pattern, false), identity));
  it.each<[pattern: string, query: string]>([
    // one `or` however often the group repeats
    ["(a|b|c|d|e){18}", "(a | b | c | d | e)"],
    ["(ab|cd).*(ab|cd).*(ab|cd)", "(ab | cd)"],
    // a literal containing another is implied by it
    ["x(a|ab|abc)y", "(xay | xaby | xabcy)"],
    [
      "(stadt1|stadt10|stadt11|stadt12|stadt13|stadt14|stadt15|stadt16|stadt17|stadt2)",
      "(stadt & (stadt1 | stadt2))",
    ],
    // the common prefix, else suffix, of three characters or more is required besides the branches
    ["(Hauptstr|Hauptweg|Hauptplatz)", "(Haupt & (Hauptstr | Hauptweg | Hauptplatz))"],
    ["(Mühlweg|Kirchweg|Feldweg)", "(weg & (Mühlweg | Kirchweg | Feldweg))"],
    ["(Berlin|Bern)", "(Ber & (Berlin | Bern))"],
    ["(Berlin|Hamburg)", "(Berlin | Hamburg)"],
  ])("%j: %s", (pattern, query) => {
    expect(literalsOf(pattern)).toBe(query);
  });
});

describe("a query prepared once (satisfier) answers as satisfies", () => {
  const codes = Array.from({ length: 12 }, (_, i) => String(10000 + i * 2311)).join("|");
  const cities = "berlin|hamburg|münchen|köln|bonn|ulm|essen|bremen|hof|gera|jena|kiel|😀x";
  it.each<[pattern: string, values: readonly string[]]>([
    [codes, ["10000", "12311", "12312", "x10000y", "", "35421"]],
    [`${codes}|1234|9876`, ["01234", "9876", "987", "12311", "35421"]],
    [cities, ["Berlin", "xulmx", "bremerhaven", "😀x", "😀", "kie", "", "hofgeismar"]],
    [`(${cities}).*(a|b)`, ["berlina", "ulm", "kiel b", "essen"]],
    ["ab|cd", ["xabx", "c", "cd"]],
  ])("%j", (pattern, values) => {
    const query = literalQuery(parsePattern(pattern, false), identity);
    const prepared = satisfier(query);
    for (const value of values) expect(prepared(value)).toBe(satisfies(query, value));
  });
});

describe("the literal query is sound: every value a pattern matches satisfies it", () => {
  const names = [...new Set(POST_CODES.map((p) => p.city))];

  it("on generated patterns over the embedded localities' names", () => {
    console.log(`regex literal soundness: seed ${seed} (replay: REGEX_SEED=${seed})`);
    const folded = names.map((name) => caseFoldKey(name));
    let checked = 0;
    for (const pattern of fc.sample(regexPattern(names), { seed, numRuns: 100 })) {
      const compiled = compilePattern(pattern, { ignoreCase: true });
      if (!compiled.ok) continue;
      const literals = literalQuery(compiled.pattern.tree, caseFoldKey);
      names.forEach((name, i) => {
        if (!compiled.pattern.test(name)) return;
        checked++;
        expect(satisfies(literals, folded[i] ?? ""), `${pattern} on ${name}`).toBe(true);
      });
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
