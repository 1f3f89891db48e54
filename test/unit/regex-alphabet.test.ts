import { describe, expect, it } from "vitest";
import { alphabetOf, restrictToAlphabet } from "../../generator/contract/regex/alphabet.ts";
import { compilePattern } from "../../generator/contract/regex/pattern.ts";

const values = [
  "Berlin",
  "Frankfurt (Oder)",
  "Frankfurt am Main",
  "Grünheide (Mark)",
  "Schöneiche bei Berlin",
  "Bad Oldesloe",
  "Øster-Ørsted",
  "St. Gallen",
  "01067",
  "",
];
const alphabet = alphabetOf(values);

describe("a pattern cut down to the values' alphabet", () => {
  it("lists the values' characters as merged ranges", () => {
    expect(alphabetOf(["abd", "c", "0"])).toEqual([
      [0x30, 0x30],
      [0x61, 0x64],
    ]);
  });

  it.each([
    ["\\w+\\W+\\w+", true],
    ["[^a-z ]+", true],
    ["^.{5}$", false],
    ["\\s\\S", false],
    ["(ü|ö|ø)", true],
    ["[^x]*[^y]*q", true],
    ["\\D\\d", false],
    ["^$", false],
    ["[a-f]", true],
    ["[^\\w\\s]", false],
    ["Ø", true],
  ])(
    "%s gives every value the verdict of the whole pattern (ignoring case: %s)",
    (pattern, ignoreCase) => {
      const whole = compilePattern(pattern, { ignoreCase });
      const cut = compilePattern(pattern, { ignoreCase }, alphabet);
      if (!whole.ok || !cut.ok) throw new Error(pattern);
      expect(values.map(cut.pattern.test)).toEqual(values.map(whole.pattern.test));
    },
  );

  it("turns a class without members in the alphabet into one that matches nothing", () => {
    const cut = compilePattern("[xyz]|q", { ignoreCase: false }, alphabetOf(["ab"]));
    if (!cut.ok) throw new Error("[xyz]|q");
    expect(["ab", "xq"].map(cut.pattern.test)).toEqual([false, true]);
    expect(restrictToAlphabet({ kind: "any" }, [[0x61, 0x62]])).toEqual({
      kind: "class",
      negated: false,
      ranges: [[0x61, 0x62]],
    });
  });

  it("keeps a class that the cut would give more ranges", () => {
    const many: [number, number][] = [0x61, 0x63, 0x65, 0x67].map((c) => [c, c]);
    expect(restrictToAlphabet({ kind: "any" }, many)).toEqual({ kind: "any" });
    expect(
      restrictToAlphabet({ kind: "class", negated: true, ranges: [[0x78, 0x78]] }, many),
    ).toEqual({
      kind: "class",
      negated: true,
      ranges: [[0x78, 0x78]],
    });
  });
});
