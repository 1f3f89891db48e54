import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  filterMatches,
  parseStreetFilter,
  type StreetFilter,
} from "../../generator/contract/search/filter.ts";
import {
  candidates as valueCandidates,
  passingPlaces,
} from "../../generator/contract/search/values.ts";
import {
  decodePlaceTable,
  encodePlaceTable,
  type ColumnText,
} from "../../generator/contract/search/meta.ts";

/** The value filter (contract/search/values.ts): which distinct values, and so which places, pass. */

const filter = (value: string) => parseStreetFilter("locality", value) as StreetFilter;
/** Localities back to back, after a few characters of other text (the place table's postal codes). */
const localityText = (localities: readonly string[]): ColumnText => {
  let text = "12345";
  const starts = [text.length];
  for (const locality of localities) starts.push((text += locality).length);
  return { text, starts: Int32Array.from(starts) };
};
const charactersOf = (localities: readonly string[]) =>
  [...new Set(localities.join(""))].sort().join("");
const candidates = (value: string, localities: readonly string[]) => {
  const found = valueCandidates(filter(value), localityText(localities), charactersOf(localities));
  return found === undefined ? undefined : Array.from(found);
};

describe("locality pattern candidates", () => {
  it.each([
    ["^(Berlin|Hamburg)$", ["Berlin", "Bremen", "HAMBURG", "Berlinchen"], [1, 0, 1, 1]],
    ["^Mün.*n$", ["München", "MÜNSTER", "Münster", "Bonn"], [1, 1, 1, 0]],
    ["(ä|ö|ü)", ["Köln", "Bonn", "Lübeck", "ÄHRE"], [1, 0, 1, 1]],
    // Literal branches of any length searched together, beside a branch that is not one.
    ["(Köln|bonn|Lü.k)", ["KÖLN", "Bonn", "Lübeck", "Essen"], [1, 1, 1, 0]],
    // After `^`, an alternation: the localities that start with one of its branches.
    ["^(Ber|h)", ["Berlin", "Hamburg", "Oberhausen", "xHam"], [1, 1, 0, 0]],
    ["^(B|H|zz)", ["Bonn", "hamm", "Aachen", "Oberhausen"], [1, 1, 0, 0]],
    // A branch that may start with anything: no start is known.
    ["^(B|.*n)", ["Bonn", "Aachen", "Lenz"], [1, 1, 1]],
    // A branch with a character no locality has finds none.
    ["(Köln|zzz)", ["Köln", "Bonn"], [1, 0]],
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
    // A longer branch runs into the next value; the shorter one at the same place is the match.
    ["^(ka|K)$", ["K", "a"], [1, 0]],
    ["^(kab|k)", ["a", "K", "ab", "k"], [0, 1, 0, 1]],
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

// Places as the build sorts them: by postal code (code units), then locality.
const codes = [
  "01067",
  "01067",
  "01069",
  "1010",
  "10115",
  "10117",
  "10178",
  "10179",
  "1020",
  "53111",
  "53113",
  "9485",
  "99998",
].sort();
const places = decodePlaceTable(
  encodePlaceTable(
    codes.map((postalCode, i) => ({
      postalCode,
      locality: `L${i % 3}`,
      count: i + 1,
      listBytes: 4,
    })),
    0,
  ),
);

describe("the places that pass", () => {
  it.each([
    "^0",
    "^01067",
    "^1",
    "^10",
    "^101",
    "^1010",
    "^1011",
    "^10115",
    "^102",
    "^948",
    "^10178",
    "^5",
    "^531",
    "^9",
    "^2",
    "^99999",
    "^",
    "^00",
    "^A",
  ])("%s: exactly the places whose code passes", (value) => {
    const filter = parseStreetFilter("postalCode", value);
    const { pass, list, streets } = passingPlaces(filter, undefined, places, "L012");
    const passing = codes.flatMap((code, p) => (filterMatches(filter, code) ? [p] : []));
    expect([[...list], [...pass.keys()].filter((p) => pass[p] === 1)]).toEqual([passing, passing]);
    expect(streets).toBe(passing.reduce((sum, p) => sum + p + 1, 0));
  });

  it.each([
    ["101", undefined],
    ["^101$", undefined],
    ["^10115$", undefined],
    ["01", undefined],
    ["5$", undefined],
    ["9$", "L"],
    ["", undefined],
    ["^$", undefined],
    [undefined, "l1"],
    [undefined, "^l"],
    [undefined, "0$"],
    [undefined, "^L2$"],
    ["^1[01]", undefined],
    ["10$", undefined],
    ["^1", "l1"],
    [undefined, "^L[02]$"],
  ])(
    "postalCode=%s and locality=%s: each value tested, the places that pass them both",
    (code, locality) => {
      const filters = [
        code === undefined ? undefined : parseStreetFilter("postalCode", code),
        locality === undefined ? undefined : parseStreetFilter("locality", locality, "L012"),
      ] as const;
      const { pass, list, streets } = passingPlaces(filters[0], filters[1], places, "L012");
      const passing = codes.flatMap((value, p) =>
        (filters[0] === undefined || filterMatches(filters[0], value)) &&
        (filters[1] === undefined || filterMatches(filters[1], `L${p % 3}`))
          ? [p]
          : [],
      );
      expect([[...list], [...pass.keys()].filter((p) => pass[p] === 1)]).toEqual([
        passing,
        passing,
      ]);
      expect(streets).toBe(passing.reduce((sum, p) => sum + p + 1, 0));
    },
  );

  it.each([
    ["😀k$", [1]],
    ["😀k", [1]],
    ["a😀", [0, 1]],
  ])(
    "%s over localities with a character outside the BMP: each value tested once, no search stuck inside a surrogate pair",
    (value, expected) => {
      // Found by the property below (a literal search started again inside 😀 found it again, forever).
      const localities = ["ka😀", "ka😀k", "ß"];
      const table = decodePlaceTable(
        encodePlaceTable(
          localities.map((locality) => ({ postalCode: "1", locality, count: 1, listBytes: 1 })),
          0,
        ),
      );
      const characters = [...new Set(localities.join(""))].sort().join("");
      const filter = parseStreetFilter("locality", value, characters) as StreetFilter;
      const { list } = passingPlaces(undefined, filter, table, characters);
      expect([...list]).toEqual(expected);
      expect(localities.flatMap((l, p) => (filterMatches(filter, l) ? [p] : []))).toEqual(expected);
    },
  );

  it.each([
    // The Kelvin sign folds with k, but `~*` does not take it for k: the engine tests every candidate.
    ["(k|x)", [1, 2, 4]],
    ["(ſ|q)", [3]],
    // Only a and ä and their capitals fold as `~*` takes them: the candidates are the matches.
    ["(a|ä)", [2, 4, 5]],
    ["(ä|zz|Kiel)", [1, 4]],
  ])(
    "an alternation of plain texts, %s: the places whose locality it matches",
    (value, expected) => {
      const localities = ["\u212aiel", "Kiel", "xa", "\u017f", "Äx", "a"];
      const table = decodePlaceTable(
        encodePlaceTable(
          localities.map((locality) => ({ postalCode: "1", locality, count: 1, listBytes: 1 })),
          0,
        ),
      );
      const characters = [...new Set(localities.join(""))].sort().join("");
      const filter = parseStreetFilter("locality", value, characters) as StreetFilter;
      expect([...passingPlaces(undefined, filter, table, characters).list]).toEqual(expected);
      expect(localities.flatMap((l, p) => (filterMatches(filter, l) ? [p] : []))).toEqual(expected);
    },
  );

  it("are those whose values pass, for any literal or pattern over any values", () => {
    // Literals are tested on the codes' units and searched for in the localities' text: the
    // same places as each value tested.
    const digit = fc.constantFrom("0", "1", "2", "9");
    const code = fc.array(digit, { minLength: 0, maxLength: 5 }).map((ds) => ds.join(""));
    const letter = fc.constantFrom("a", "B", "ä", "Ä", "ß", "k", "\u212a", " ", "😀", "é");
    const word = fc.array(letter, { minLength: 0, maxLength: 4 }).map((cs) => cs.join(""));
    const anchored = (value: fc.Arbitrary<string>) =>
      fc
        .tuple(fc.boolean(), value, fc.boolean())
        .map(([start, text, end]) => `${start ? "^" : ""}${text}${end ? "$" : ""}`);
    const rows = fc.array(fc.tuple(code, word, fc.nat(5)), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(
        rows,
        fc.option(fc.oneof(anchored(code), fc.constant("^1[02]")), { nil: undefined }),
        fc.option(
          fc.oneof(
            anchored(word),
            fc.constant("(a|ß)"),
            // Alternations of plain texts: their candidates may be their matches (exactAlternation).
            fc
              .array(
                word.filter((w) => w.length > 0),
                { minLength: 2, maxLength: 3 },
              )
              .map((ws) => `(${ws.join("|")})`),
          ),
          { nil: undefined },
        ),
        (unsorted, postalCode, locality) => {
          const sorted = [...unsorted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
          const table = decodePlaceTable(
            encodePlaceTable(
              sorted.map(([postalCode, locality, count]) => ({
                postalCode,
                locality,
                count,
                listBytes: 1,
              })),
              0,
            ),
          );
          const characters = charactersOf(sorted.map(([, l]) => l));
          const filters = [
            postalCode === undefined ? undefined : parseStreetFilter("postalCode", postalCode),
            locality === undefined
              ? undefined
              : parseStreetFilter("locality", locality, characters),
          ] as const;
          const { pass, list, streets } = passingPlaces(filters[0], filters[1], table, characters);
          const passing = sorted.flatMap(([c, l], p) =>
            (filters[0] === undefined || filterMatches(filters[0], c)) &&
            (filters[1] === undefined || filterMatches(filters[1], l))
              ? [p]
              : [],
          );
          expect([...list]).toEqual(passing);
          expect([...pass.keys()].filter((p) => pass[p] === 1)).toEqual(passing);
          expect(streets).toBe(passing.reduce((sum, p) => sum + (sorted[p]?.[2] ?? 0), 0));
        },
      ),
    );
  });
});
