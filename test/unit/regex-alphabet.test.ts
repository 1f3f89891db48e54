import { describe, expect, it } from "vitest";
import { alphabetOf, restrictToAlphabet } from "../../generator/contract/regex/alphabet.ts";
import fc from "fast-check";
import { mergeRanges, type Node, type Range } from "../../generator/contract/regex/ast.ts";
import { rangeWithCases } from "../../generator/contract/regex/classes.ts";
import { parsePattern } from "../../generator/contract/regex/parse.ts";
import { compilePattern } from "../../generator/contract/regex/pattern.ts";
import { casePairs } from "../../generator/contract/postgres/ctype.ts";

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
    expect(
      restrictToAlphabet({ kind: "class", negated: false, ranges: [[0x78, 0x7a]] }, [[0x61, 0x62]]),
    ).toEqual({
      kind: "class",
      negated: false,
      ranges: [],
    });
  });

  // Each range reaches over the characters no value uses, up to the next one of the alphabet
  // outside the class: the fewest ranges, and bounds the classes share.
  it.each<[pattern: string, ranges: [number, number][]]>([
    [".", [[0, 0x10ffff]]],
    ["[^x]", [[0, 0x10ffff]]],
    [
      "[^ace]",
      [
        [0, 0x60],
        [0x62, 0x62],
        [0x64, 0x64],
      ],
    ],
    ["\\w", [[0x21, 0x10ffff]]],
    ["\\W", [[0, 0x61 - 1]]],
  ])("widens %s to %j over the alphabet ' abcde'", (pattern, ranges) => {
    const cut = restrictToAlphabet(parsePattern(pattern, false), alphabetOf([" abcde"]));
    expect(cut).toEqual({ kind: "class", negated: false, ranges });
  });
});

describe("a class whose cut has no fewer ranges", () => {
  it("stays as written", () => {
    const node = parsePattern("[ace]", false);
    expect(restrictToAlphabet(node, alphabetOf([" abcde"]))).toEqual(node);
  });
});

describe("a bracket range under ~*", () => {
  // Every case pair, scanned: what rangeWithCases gives a range of any width.
  const byPairs = (from: number, to: number) =>
    mergeRanges([
      [from, to],
      ...[...casePairs()]
        .filter(([c, mapped]) => c >= from && c <= to && (mapped < from || mapped > to))
        .map(([, mapped]): [number, number] => [mapped, mapped]),
    ]);
  it.each<[from: number, to: number]>([
    [0x61, 0x7a],
    [0x41, 0x5a],
    [0xe0, 0xff],
    [0x100, 0x17f],
    [0x391, 0x3c9],
    [0x30, 0x39],
    [0x1e00, 0x1fff],
    [0x20, 0x2fff],
  ])("[%i-%i] adds the case variants of its members outside it", (from, to) => {
    expect(mergeRanges(rangeWithCases(from, to))).toEqual(byPairs(from, to));
  });
});

describe("a class widened over an alphabet", () => {
  // The definition, character by character: a run of the class's members in the alphabet reaches
  // from after the alphabet's last character outside the class to before its next one.
  const byCharacters = (members: readonly Range[], alphabet: readonly Range[]): Range[] => {
    const out: Range[] = [];
    let open: number | undefined;
    let last = -1;
    for (const [from, to] of alphabet)
      for (let code = from; code <= to; code++) {
        if (members.some(([a, b]) => a <= code && code <= b)) open ??= last + 1;
        else {
          if (open !== undefined) out.push([open, code - 1]);
          open = undefined;
          last = code;
        }
      }
    return open === undefined ? out : [...out, [open, 0x10ffff]];
  };
  const ranges = fc
    .uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 24 })
    .map((codes) => mergeRanges(codes.map((c): Range => [c, c])));

  it("gives the ranges the definition gives, whatever the class and the alphabet", () => {
    fc.assert(
      fc.property(ranges, ranges, (members, alphabet) => {
        const node: Node = { kind: "class", negated: false, ranges: [...members, [0x100, 0x200]] };
        const cut = restrictToAlphabet(node, alphabet);
        const expected = byCharacters(node.ranges, alphabet);
        expect(cut).toEqual(
          expected.length < node.ranges.length
            ? { kind: "class", negated: false, ranges: expected }
            : node,
        );
      }),
      { numRuns: 2000 },
    );
  });
});
