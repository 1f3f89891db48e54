import { describe, expect, it } from "vitest";
import { parsePattern } from "../../generator/contract/regex/parse.ts";
import { compilePattern } from "../../generator/contract/regex/pattern.ts";
import { columnShape, matchesEvery } from "../../generator/contract/regex/universal.ts";

const postalCodes = ["01067", "10115", "80331", "99998"];
const names = ["Am See", "Hauptstraße", "B", "Ölweg"];

describe("a pattern that matches every value of a column", () => {
  it("knows a column's alphabet and its shortest and longest value", () => {
    expect(columnShape(["ab", "ä", "abcd"])).toEqual({
      characters: "abcdä",
      shortest: 1,
      longest: 4,
    });
  });

  it.each<[pattern: string, values: readonly string[], ignoreCase: boolean, every: boolean]>([
    ["[0-9]{5}", postalCodes, false, true],
    ["^[0-9]{5}$", postalCodes, false, true],
    ["\\d\\d", postalCodes, false, true],
    ["^\\d{1,9}$", postalCodes, false, true],
    // not recognised (a branch that matches no value is not dropped): tested as usual
    ["(\\d|x)+", postalCodes, false, false],
    [".", postalCodes, false, true],
    ["^", postalCodes, false, true],
    ["", postalCodes, false, true],
    ["[0-9]{6}", postalCodes, false, false],
    ["^[0-9]{4}$", postalCodes, false, false],
    ["[1-9]{5}", postalCodes, false, false],
    ["0", postalCodes, false, false],
    ["^.{2}(.{3}|.{2})$", postalCodes, false, true],
    ["^.{2}(.|.{2})$", postalCodes, false, false],
    [".{2}(.{3}|.{2})", postalCodes, false, true],
    [".", names, true, true],
    ["\\w", names, true, false],
    ["[^x]", names, true, true],
    ["[^ö]", names, true, false],
    ["..", names, true, false],
    ["^.*$", names, true, true],
    ["a|.", names, true, false],
    ["(.|..)", names, true, true],
  ])("%j on %j (ignore case %s): %s", (pattern, values, ignoreCase, every) => {
    expect(matchesEvery(parsePattern(pattern, ignoreCase), columnShape(values))).toBe(every);
    // The claim holds against the engine: every value then matches.
    if (every) {
      const compiled = compilePattern(pattern, { ignoreCase });
      if (!compiled.ok) throw new Error("not compiled");
      expect(values.filter((value) => !compiled.pattern.test(value))).toEqual([]);
    }
  });
});
