import { describe, expect, it } from "vitest";
import { containsWords } from "../../generator/model/de-town-parts.ts";

/** The pattern the town-part join's whole-word test stands for (compiled per pair, it was slow). */
function reference(text: string, words: string): boolean {
  if (words === "") return false;
  const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "iu").test(text);
}

describe("containsWords: a municipality's name as whole words of a row's name", () => {
  it.each([
    ["Neuwied östliche Stadtteile: Block", "Neuwied", true],
    ["Neuwieder Block", "Neuwied", false],
    ["Stadt Wehlen", "wehlen", true],
    ["Wehlen", "", false],
    ["Aa-aa", "aa", true], // the second occurrence decides
    ["aaa", "aa", false],
    ["Frankfurt (Oder)", "(Oder)", true],
    ["a.b", ".", false],
    ["a . b", ".", true],
    ["1a 2", "a", false],
    ["STRASSE", "straße", false], // case folding is one character for one
    ["ẞtraße Ost", "ßtraße", true],
    ["a𝒜b 𝒜", "𝒜", true], // a character outside the BMP, as a word and inside one
    ["x𝒜", "𝒜", false],
    ["𝒜x", "x", false],
    ["Ⅻ x", "ⅻ", true],
    ["Kelvin K", "k", true],
    // Latin-1 throughout (no regular expression run): the same answers.
    ["MÜHLDORF a.Inn-Ost", "mühldorf A.INN", true],
    ["Mühldorfer Straße", "MÜHLDORF", false],
    ["ÀÉÎ öü", "àéî", true],
    ["a×b", "A÷B", false], // × and ÷ are no case pair
    ["Maß µ ÿ", "MASS", false],
    ["Maß µ ÿ", "µ ÿ", true],
    ["Gießen2", "gießen", false],
    ["x Øster", "øSTER", true],
    ["Kelvin \u00e5", "\u00c5", true],
  ] as const)("%s ∋ %s: %s", (text, words, expected) => {
    expect(containsWords(text, words)).toBe(expected);
    expect(reference(text, words)).toBe(expected);
  });
});
