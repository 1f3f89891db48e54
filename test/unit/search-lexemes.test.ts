import { describe, expect, it } from "vitest";
import { lexemesOf, streetDocument } from "../../generator/contract/postgres/lexize.ts";
import { parseTokens } from "../../generator/contract/postgres/parser.ts";
import { tsvectorText } from "../support/search-data.ts";

/**
 * `to_tsvector('config_openplzapi', text)` as PostgreSQL 15 and 17 print it (observed on both; the
 * property test compares every street of the data with PGlite besides).
 */
describe("lexemesOf = to_tsvector('config_openplzapi', …)", () => {
  it.each([
    // unaccent before lower-casing and stop words; Snowball German stems
    ["Pariser Platz 10117 Berlin", "'10117':3 'berlin':4 'paris':1 'platz':2"],
    ["Straße des 17. Juni 10557 Berlin", "'10557':5 '17':3 'berlin':6 'juni':4 'strass':1"],
    [
      "Müller-Breslau-Straße Über für daß Fußweg über Ötztal-Bahnhof",
      "'bahnhof':12 'breslau':3 'dass':7 'fur':6 'fussweg':8 'mull':2 'muller-breslau-strass':1 'otztal':11 'otztal-bahnhof':10 'strass':4 'uber':5,9",
    ],
    // a hyphenated word: the compound first, then each part, each at its own position
    [
      "Karl-Marx-Allee 10178 Berlin",
      "'10178':5 'alle':4 'berlin':6 'karl':2 'karl-marx-alle':1 'marx':3",
    ],
    // stop words take a position
    [
      "Am Kupfergraben 6a Pariser Platz 10117 Berlin",
      "'10117':6 '6a':3 'berlin':7 'kupfergrab':2 'paris':4 'platz':5",
    ],
    ["Am Weg 10115 Berlin", "'10115':3 'berlin':4"],
    ["Frankfurt (Oder)", "'frankfurt':1"],
    // the parser's other token types go through `simple`: lower-cased, not stemmed, not unaccented
    [
      "B 96a 3.5 1,5 -12 +7 v1.2.3 foo@bar.de www.berlin.de http://x.de/a/b /usr/x.txt 1e5 12-34 a1-b2 2.OG St. Gallen",
      "'+7':7 '-12':6 '-34':17 '/a/b':13 '/usr/x.txt':14 '1':4 '12':16 '1e5':15 '2.og':21 '3.5':3 '5':5 '96a':2 'a1':19 'a1-b2':18 " +
        "'b':1 'b2':20 'foo@bar.de':9 'gall':23 'st':22 'v1.2.3':8 'www.berlin.de':10 'x.de':12 'x.de/a/b':11",
    ],
    [
      "Müller2 Straße-3 B-Ärger ÄRGER-B4",
      "'-3':3 'arg':6,8 'b':5 'b-arg':4 'b4':9 'müller2':1 'strass':2 'ärger-b4':7",
    ],
    // tags, entities and protocols take no position
    ["eins <b>zwei</b> &amp; drei http://x.de vier", "'drei':3 'ein':1 'vier':5 'x.de':4 'zwei':2"],
    [
      "Hausboot Im Kolk/Saatw. Damm 13627 Berlin",
      "'13627':5 'berlin':6 'damm':4 'hausboot':1 'kolk/saatw':3",
    ],
    ["Schloß Str. 2-4", "'-4':4 '2':3 'schloss':1 'str':2"],
    // unaccent's own table, not NFD stripping
    ["Ⅲ. Weg", "'iii':1"],
    ["ﬁnkenweg", "'finkenweg':1"],
    ["Œuvre-Straße", "'oeuvr':2 'oeuvre-strass':1 'strass':3"],
    ["Ærø", "'aero':1"],
    ["İstanbul", "'istanbul':1"],
    ["ǅemal", "'dzemal':1"],
    // NFD: combining marks extend a word and unaccent deletes them
    ["Mu\u0308ller", "'mull':1"],
    ["Dr.-Karl-Renner-Ring", "'dr':1 'karl':3 'karl-renner-ring':2 'renn':4 'ring':5"],
    ["Auf’m Berg", "'berg':3 'm':2"],
    ["", ""],
  ])("%j", (text, expected) => {
    expect(tsvectorText(lexemesOf(text))).toBe(expected);
  });

  it("drops a word of 2,047 bytes or more without a position, and only lower-cases one over 1,000 bytes", () => {
    expect(tsvectorText(lexemesOf(`${"x".repeat(2100)} zwei`))).toBe("'zwei':1");
    expect(tsvectorText(lexemesOf(`${"Häuser".repeat(200)} zwei`))).toBe(
      `'${"hauser".repeat(200)}':1 'zwei':2`,
    );
  });

  it("joins a street's fields with single spaces, so positions run on across them", () => {
    expect(streetDocument("Karl-Marx-Allee", "10178", "Berlin")).toBe(
      "Karl-Marx-Allee 10178 Berlin",
    );
  });
});

describe("the default parser", () => {
  it.each([
    [
      "Karl-Marx-Allee",
      "asciihword:Karl-Marx-Allee hword_asciipart:Karl blank:- hword_asciipart:Marx blank:- hword_asciipart:Allee",
    ],
    ["Straße 1,5", "word:Straße blank:  uint:1 blank:, uint:5"],
    ["St.Gallen", "host:St.Gallen"],
    ["<script>x</script>y", "tag:<script> blank:x tag:</script> asciiword:y"],
  ])("%j", (text, expected) => {
    const alias = [
      "",
      "asciiword",
      "word",
      "numword",
      "email",
      "url",
      "host",
      "sfloat",
      "version",
      "hword_numpart",
      "hword_part",
      "hword_asciipart",
      "blank",
      "tag",
      "protocol",
      "numhword",
      "asciihword",
      "hword",
      "url_path",
      "file",
      "float",
      "int",
      "uint",
      "entity",
    ];
    expect(
      parseTokens(text)
        .map((t) => `${alias[t.type]}:${t.text}`)
        .join(" "),
    ).toBe(expected);
  });
});
