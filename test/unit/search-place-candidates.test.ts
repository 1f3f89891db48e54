import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  filterMatches,
  parseStreetFilter,
  type StreetFilter,
} from "../../generator/contract/search/filter.ts";
import {
  localityCandidates,
  type LocalityText,
} from "../../generator/contract/search/place-candidates.ts";

const filter = (value: string) => parseStreetFilter("locality", value) as StreetFilter;
/** Localities back to back, after a few characters of other text (the place table's postal codes). */
const localityText = (localities: readonly string[]): LocalityText => {
  let text = "12345";
  const starts = [text.length];
  for (const locality of localities) starts.push((text += locality).length);
  return { text, starts: Int32Array.from(starts) };
};
const charactersOf = (localities: readonly string[]) =>
  [...new Set(localities.join(""))].sort().join("");
const candidates = (value: string, localities: readonly string[]) => {
  const found = localityCandidates(
    filter(value),
    localityText(localities),
    charactersOf(localities),
  );
  return found === undefined ? undefined : Array.from(found);
};

describe("locality pattern candidates", () => {
  it.each([
    ["^(Berlin|Hamburg)$", ["Berlin", "Bremen", "HAMBURG", "Berlinchen"], [1, 0, 1, 1]],
    ["^Mün.*n$", ["München", "MÜNSTER", "Münster", "Bonn"], [1, 1, 1, 0]],
    ["(ä|ö|ü)", ["Köln", "Bonn", "Lübeck", "ÄHRE"], [1, 0, 1, 1]],
    // A literal that spans two localities' texts is in neither.
    ["a(b)", ["xa", "bx", "ab"], [0, 0, 1]],
    // The Kelvin sign folds with k (caseFoldKey), so it is a candidate too.
    ["k.l", ["Kiel", "\u212aola", "Bonn"], [1, 1, 0]],
    ["z(z)", ["Berlin"], [0]],
    // Beside a literal of three or more characters a shorter one is not searched for (the engine
    // tests every candidate): Berg is a candidate without an n.
    ["^Ber.*n$", ["Berg", "Bonn", "Bern"], [1, 0, 1]],
    // Literals of three or more characters narrow together.
    ["Ber.*lin$", ["Berg", "Berlin", "Merlin"], [0, 1, 0]],
    // An anchored prefix of three or more characters alone: the localities that start with it.
    ["^Ber.*lin$", ["Berg", "Berlin", "Merlin", "Oberlin"], [1, 1, 0, 0]],
    ["^(Ber)l", ["xBerl", "BERL", "Bärl"], [0, 1, 0]],
    // The Kelvin sign folds with k: it starts a candidate of ^kie.
    ["^kie.", ["\u212aiel", "Kiel", "Kirl"], [1, 1, 0]],
    ["^B.*n$", ["Berg", "Bonn", "Lenz"], [0, 1, 0]],
    ["^.*$", ["Berlin"], undefined],
  ] as const)("%s over %j: %j", (value, localities, expected) => {
    expect(candidates(value, localities)).toEqual(expected);
  });

  it("hold every locality a pattern matches", () => {
    const letter = fc.constantFrom("a", "A", "b", "B", "ä", "Ä", "ß", "k", "K", "\u212a", " ", "-");
    const word = fc.array(letter, { minLength: 1, maxLength: 4 }).map((cs) => cs.join(""));
    const pattern = fc.oneof(
      fc.array(word, { minLength: 2, maxLength: 3 }).map((ws) => `^(${ws.join("|")})$`),
      fc.tuple(word, word).map(([a, b]) => `${a}.*${b}`),
      fc.tuple(word, word).map(([a, b]) => `^${a}.*${b}`),
      fc.tuple(word, word).map(([a, b]) => `^(${a})[${b.replace(/-/g, "")}b]`),
      fc.tuple(word, word).map(([a, b]) => `(${a}|${b})+`),
      word.map((w) => `[${w.replace(/-/g, "")}a]${w}?$`),
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 12 }), pattern, (localities, value) => {
        const found = candidates(value, localities);
        localities.forEach((locality, i) => {
          if (filterMatches(filter(value), locality)) expect(found?.[i] ?? 1).toBe(1);
        });
      }),
    );
  });
});
