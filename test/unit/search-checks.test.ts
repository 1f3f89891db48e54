import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lexemePositions } from "../../generator/build/search-keys.ts";
import { ListWriter } from "../../generator/build/search-lists.ts";
import type { Street } from "../../generator/build/search-records.ts";
import {
  foldings,
  lexemesOf,
  mayHold,
  streetDocument,
} from "../../generator/contract/postgres/lexize.ts";
import { matches } from "../../generator/contract/postgres/tsquery.ts";
import { parseSearchTerm } from "../../generator/contract/postgres/websearch.ts";
import { decodePlaceTable, encodePlaceTable } from "../../generator/contract/search/meta.ts";
import { checked } from "../../generator/contract/search/checks.ts";
import { decodePostings } from "../../generator/contract/search/postings.ts";
import { PLAIN_NAME_LENGTH } from "../../generator/contract/search/store.ts";
import type { SearchNode } from "../../generator/contract/postgres/tsquery.ts";

/**
 * The document check (checks.ts), on lists written as the build writes them (name bits from
 * lexemePositions): a phrase decided by its candidates' places, or checks decided by bits of
 * bitmaps, keep the same streets as each street's whole document says.
 */

function index(streets: readonly Street[]) {
  const names = [...new Set(streets.map((s) => s.name))];
  const placeKeys = [...new Set(streets.map((s) => `${s.postalCode}\t${s.locality}`))];
  const places = placeKeys.map((key) => {
    const [postalCode = "", locality = ""] = key.split("\t");
    return { postalCode, locality, json: "}", csv: "" };
  });
  const indexed = {
    streets,
    headKeys: ["name"],
    heads: names.map((name) => [name]),
    headOf: Int32Array.from(streets, (s) => names.indexOf(s.name)),
    places,
    placeOf: Int32Array.from(streets, (s) => placeKeys.indexOf(`${s.postalCode}\t${s.locality}`)),
  };
  const chunks: Buffer[] = [];
  const writer = new ListWriter(indexed.heads, (_, bytes) => chunks.push(bytes));
  const lists = lexemePositions(indexed).map(({ lexeme, positions, inName }) => ({
    lexeme,
    ref: writer.list(
      positions,
      (_, p) => indexed.placeOf[p] ?? 0,
      (_, p) => indexed.headOf[p] ?? 0,
      inName,
    ),
  }));
  writer.finish();
  const stream = Buffer.concat(chunks);
  const table = decodePlaceTable(
    encodePlaceTable(
      places.map((p) => ({ ...p, count: 0, listBytes: 0 })),
      0,
    ),
  );
  const listOf = (lexeme: string) => {
    const ref = lists.find((l) => l.lexeme === lexeme)?.ref ?? [0, 0];
    return decodePostings(stream.subarray(ref[1], ref.at(-1)), ref[0] ?? 0);
  };
  return { table, listOf };
}

/** Each term of a phrase as the driver: the streets the check keeps of its list, and those whose documents match. */
function decide(streets: readonly Street[], term: string) {
  const { table, listOf } = index(streets);
  const root = parseSearchTerm(term).root;
  if (root?.op !== "phrase") return [];
  const docs = streets.map((s) => lexemesOf(streetDocument(s.name, s.postalCode, s.locality)));
  const expected = streets.flatMap((_, p) => (matches({ root }, docs[p] ?? new Map()) ? [p] : []));
  return root.terms.flatMap((driver, at) => {
    if (driver.prefix || root.terms.findIndex((t) => t.lexeme === driver.lexeme) !== at) return [];
    const list = listOf(driver.lexeme);
    const inputs = { postings: () => [list], places: table, bitmaps: new Map() };
    const kept = checked(list.positions, [driver], [root], inputs, driver).positions;
    return [{ driver: driver.lexeme, kept: [...kept], expected }];
  });
}

const LONG = `${"X".repeat(PLAIN_NAME_LENGTH)} Straße`;
const berlin = (name: string, postalCode = "10115"): Street => ({
  name,
  postalCode,
  locality: "Berlin",
});
const STREETS: readonly Street[] = [
  berlin("Hauptstraße"),
  berlin("Berliner Straße"),
  berlin("Straße des 17. Juni", "10117"),
  berlin("Am Berliner Tor", "10117"),
  { name: "Berliner Straße", postalCode: "20095", locality: "Hamburg" },
  { name: "Hamburger Straße", postalCode: "20095", locality: "Hamburg" },
  { name: "Große Straße", postalCode: "60311", locality: "Frankfurt am Main" },
  { name: "Mainstraße", postalCode: "15230", locality: "Frankfurt (Oder)" },
  { name: "Weg", postalCode: "10115", locality: "Straße Berlin" },
  berlin(LONG),
];

describe("a phrase decided by its candidates' places", () => {
  it.each([
    ['"Berlin Straße"', ["Berliner Straße", "Berliner Straße"]],
    ['"Straße Berlin"', ["Weg"]],
    ['"Frankfurt Main"', []],
    ['"Frankfurt am Main"', ["Große Straße"]],
    ['"Hauptstraße 10115"', ["Hauptstraße"]],
    ['"Straße 10115 Berlin"', ["Berliner Straße", LONG]],
    ['"Juni 10117"', ["Straße des 17. Juni"]],
  ])("%s", (term, names) => {
    for (const { kept, expected } of decide(STREETS, term)) {
      expect(kept).toEqual(expected);
      expect(kept.map((p) => STREETS[p]?.name)).toEqual(names);
    }
  });

  const words = ["Berlin", "Berliner", "Straße", "Main", "am", "Weg", "10115", "Alt", "des"];
  const text = (min: number, max: number) =>
    fc.array(fc.constantFrom(...words), { minLength: min, maxLength: max }).map((w) => w.join(" "));
  const street = fc.record({
    name: text(1, 4),
    postalCode: fc.constantFrom("10115", "20095"),
    locality: text(1, 3),
  });
  it("keeps exactly the streets whose documents match, whichever term drives (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.array(street, { minLength: 1, maxLength: 12 }),
        text(2, 4),
        (streets, words) => {
          for (const { kept, expected } of decide(streets, `"${words}"`))
            expect(kept).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("checks decided by bits of bitmaps", () => {
  const word = (lexeme: string, prefix = false): SearchNode => ({ op: "lexeme", lexeme, prefix });
  const bitmap = (...positions: number[]) => {
    const words = new Uint32Array(1);
    for (const p of positions) words[0] = (words[0] as number) | (1 << p);
    return words;
  };
  const bitmaps = new Map([
    ["=straß", bitmap(1, 4, 7)],
    ["*ri", bitmap(2, 7)],
  ]);
  const phrase: SearchNode = {
    op: "phrase",
    terms: [
      { lexeme: "straß", prefix: false, offset: 0 },
      { lexeme: "ri", prefix: true, offset: 1 },
    ],
  };
  it.each<[string, SearchNode[], number[]]>([
    ["a word keeps its streets", [word("straß")], [1, 7]],
    ["its negation the others", [{ op: "not", operand: word("straß") }], [2, 3, 9]],
    ["a prefix with one keeps its streets", [word("ri", true)], [2, 7]],
    // A check no bitmap decides needs the candidates' documents: without the places, none passes.
    ["a word without one is left to the documents", [word("weg")], []],
    ["a phrase keeps the streets of its words, then its documents decide", [phrase], []],
  ])("%s", (_, checks, kept) => {
    const inputs = { postings: () => [], places: undefined, bitmaps };
    expect(Array.from(checked(Int32Array.of(1, 2, 3, 7, 9), [], checks, inputs).positions)).toEqual(
      kept,
    );
  });
});

describe("a text's foldings hold its lexemes (mayHold)", () => {
  // The document check leaves a name or place unlexized when its foldings hold none of a query's
  // lexemes: right only if every lexeme of a text lies in one of its two foldings.
  const holdsItsLexemes = (text: string) => {
    const folded = foldings(text);
    return [...lexemesOf(text).keys()].every((lexeme) => mayHold(folded, lexeme));
  };
  it.each<[string, string, boolean]>([
    [" 80331 München", "munch", true],
    [" 10115 Berlin", "munch", false],
    ["Schützenstraße", "schutz", true],
    ["Schützenstraße", "strass", true],
    ["Karl-Marx-Allee", "karl-marx-alle", true],
    [" 03149 Forst (Lausitz)/Baršć (Łužyca)", "barsc", true],
    [" 03149 Forst (Lausitz)/Baršć (Łužyca)", "dortmund", false],
  ])("%s may hold %s: %s", (text, lexeme, held) => {
    expect(holdsItsLexemes(text)).toBe(true);
    expect(mayHold(foldings(text), lexeme)).toBe(held);
  });
  it("for every line of the embedded Berlin streets", () => {
    const lines = readFileSync("data/de/streets-berlin.csv", "utf8").split("\n");
    expect(lines.length).toBeGreaterThan(10_000);
    expect(lines.filter((line) => !holdsItsLexemes(line))).toEqual([]);
  });
  it("for texts of letters, digits and punctuation (fast-check)", () => {
    const units = [
      ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüÄÖÜßẞéÉçłŁžšćřÅİıæ0123456789 -/().,'&@:_",
    ];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...units), maxLength: 40 }), holdsItsLexemes),
      { numRuns: 3000 },
    );
  });
});
