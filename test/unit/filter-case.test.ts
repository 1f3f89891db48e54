import { describe, expect, it } from "vitest";
import { casePairs } from "../../generator/contract/postgres/ctype.ts";
import {
  caseClass,
  LATIN_END,
  REACHED_FROM_BEYOND,
  representative,
  wholeClass,
  wholeRepresentative,
} from "../../generator/contract/search/filter-case.ts";

// The fast path below LATIN_END (and for the listed classes) must give what the whole closure gives.
const fastPathCodePoints = [
  ...Array.from({ length: LATIN_END }, (_, c) => c),
  ...REACHED_FROM_BEYOND.flat(),
  0x1e9e, // ẞ, reached from ß
  0x212a,
  0x2c65,
];

describe("case classes: the Latin fast path equals the whole closure", () => {
  it.each(fastPathCodePoints.map((c) => [c.toString(16), c]))("U+%s", (_, c) => {
    expect([...caseClass(c)].sort((a, b) => a - b)).toEqual(wholeClass(c));
    expect(representative(c)).toBe(wholeRepresentative(c));
  });

  it("beyond it, for every character of a case pair: its class and representative", () => {
    const beyond = [...new Set([...casePairs()].flat())].filter((c) => c >= LATIN_END);
    expect(beyond.length).toBeGreaterThan(1000);
    for (const c of beyond) {
      expect([...caseClass(c)].sort((a, b) => a - b)).toEqual(wholeClass(c));
      expect(representative(c)).toBe(wholeRepresentative(c));
    }
  });

  it.each([
    ["k", 0x4b, [0x4b, 0x6b, 0x212a]],
    ["ß", 0xdf, [0xdf, 0x1e9e]],
    ["7", 0x37, [0x37]],
  ])("%s's class", (_, c, members) => {
    expect([...caseClass(c as number)].sort((a, b) => a - b)).toEqual(members);
  });
});
