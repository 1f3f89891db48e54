import { describe, expect, it } from "vitest";
import { lexemesOf, streetDocument } from "../../generator/contract/postgres/lexize.ts";
import { formatQuery, lexemesOfQuery, matches } from "../../generator/contract/postgres/tsquery.ts";
import { parseSearchTerm, SearchTermError } from "../../generator/contract/postgres/websearch.ts";

const q = (term: string, lastWordPrefix = false) =>
  formatQuery(parseSearchTerm(term, { lastWordPrefix }));

/** `websearch_to_tsquery('config_openplzapi', term)::text` as PostgreSQL 15 and 17 print it. */
describe("parseSearchTerm = websearch_to_tsquery('config_openplzapi', …)", () => {
  it.each([
    ["Berlin, Pariser Platz", "'berlin' & 'paris' & 'platz'"],
    ['"pariser platz" or -mitte', "'paris' <-> 'platz' | !'mitt'"],
    // stop words inside a phrase leave a gap; at its ends they vanish
    ['"Platz der Republik"', "'platz' <2> 'republ'"],
    ['"Straße des 17. Juni"', "'strass' <2> '17' <-> 'juni'"],
    ['"Platz der"', "'platz'"],
    ['"der Platz"', "'platz'"],
    ["Straße des 17. Juni", "'strass' & '17' & 'juni'"],
    // one word can be a phrase
    ["Karl-Marx-Allee", "'karl-marx-alle' <-> 'karl' <-> 'marx' <-> 'alle'"],
    ["10117,Berlin", "'10117' <-> 'berlin'"],
    ["it's", "'it' <-> 's'"],
    ["Dr.-Karl-Renner-Ring", "'dr' <-> 'karl-renner-ring' <-> 'karl' <-> 'renn' <-> 'ring'"],
    // only stop words, punctuation or nothing: the empty query
    ["am weg", ""],
    ['"am weg"', ""],
    ["der", ""],
    ["", ""],
    ["   ", ""],
    ["weg -weg", ""],
    ['"der die das"', ""],
    ["-", ""],
    ['""', ""],
    ['"', ""],
    // `-`, `or`
    ["-berlin", "!'berlin'"],
    ["--berlin", "!!'berlin'"],
    ["- berlin", "!'berlin'"],
    ["berlin -", "'berlin'"],
    ["berlin or mitte", "'berlin' | 'mitt'"],
    ["berlin OR mitte", "'berlin' | 'mitt'"],
    ["berlin OR", "'berlin' & 'or'"],
    ["or berlin", "'or' & 'berlin'"],
    ["berlin or or mitte", "'berlin' | 'or' & 'mitt'"],
    ["berlin or-mitte", "'berlin' & 'or-mitt' <-> 'or' <-> 'mitt'"],
    ["berlin or(mitte)", "'berlin' | 'mitt'"],
    ["berlin or -", "'berlin'"],
    ["berlin -or mitte", "'berlin' & !'or' & 'mitt'"],
    ['berlin -"unter den linden"', "'berlin' & !'lind'"],
    ['-"a b" or c', "!( 'a' <-> 'b' ) | 'c'"],
    // operator characters are ignored: no grouping, no tsquery syntax
    ["(berlin or mitte) tiergarten", "'berlin' | 'mitt' & 'tiergart'"],
    ["berlin | mitte", "'berlin' & 'mitt'"],
    ["berlin & !mitte", "'berlin' & 'mitt'"],
    ["berlin<2>mitte", "'berlin' & '2' <-> 'mitt'"],
    ["berlin:*", "'berlin'"],
    ["ber*", "'ber'"],
    ["a:b", "'a' & 'b'"],
    ['foo"bar"baz', "'foo' & 'bar' & 'baz'"],
    ['"unclosed phrase', "'unclosed' <-> 'phras'"],
    ['x-"y z"', "'x' & 'y' <-> 'z'"],
    // the parser decides what a word is
    ["St. Gallen", "'st' & 'gall'"],
    ["St.Gallen", "'st.gallen'"],
    ["Berlin/Mitte", "'berlin/mitte'"],
    ["Hauptstr.12", "'hauptstr.12'"],
    ["12-14", "'12' <-> '-14'"],
    ["Auf’m Berg", "'m' & 'berg'"],
    ["Zürich–Altstetten", "'zurich' <-> 'altstett'"],
    ["<b>Platz</b>", "'b' <-> 'platz' & '/b'"],
    ["&amp; Platz", "'amp' & 'platz'"],
    ["für", "'fur'"],
    ["Über", "'uber'"],
    ["ueber", "'ueb'"],
    // spaces are iswspace: not NBSP
    ["Pariser\u00a0Platz", "'paris' <-> 'platz'"],
    ["Pariser\u2003Platz", "'paris' & 'platz'"],
    ["Pariser\tPlatz", "'paris' & 'platz'"],
    // NFD as it arrives percent-decoded
    ["Mu\u0308llerstrasse", "'mullerstrass'"],
  ])("%j → %s", (term, expected) => {
    expect(q(term)).toBe(expected);
  });

  it("answers PostgreSQL's errors with a SearchTermError: 33 operators waiting at once, U+0000", () => {
    expect(q(`${"-".repeat(32)}a`)).toBe(`${"!".repeat(32)}'a'`);
    expect(() => parseSearchTerm(`${"-".repeat(33)}a`)).toThrow(SearchTermError);
    expect(() => parseSearchTerm("a\0b")).toThrow(SearchTermError);
  });

  it("takes a 1,000-character term", () => {
    expect(q("Platz ".repeat(166).trim())).toBe(Array(166).fill("'platz'").join(" & "));
  });
});

describe("prefix mode (lastWordPrefix)", () => {
  it.each([
    ["berlin pariser pl", "'berlin' & 'paris' & 'pl':*"],
    ["berlin pariser pl ", "'berlin' & 'paris' & 'pl':*"],
    ["berlin -pl", "'berlin' & !'pl':*"],
    ["berlin p", "'berlin' & 'p'"],
    ["karl-marx-al", "'karl-marx-al':* <-> 'karl':* <-> 'marx':* <-> 'al':*"],
    ["A-Be", "'a-b':* <-> 'a' <-> 'be':*"],
    ['berlin "pariser pl"', "'berlin' & 'paris' <-> 'pl'"],
    ['berlin "pariser pl', "'berlin' & 'paris' <-> 'pl'"],
    ["pl berlin", "'pl' & 'berlin':*"],
    ["berlin am", "'berlin'"],
    ["berlin or", "'berlin' & 'or':*"],
    ["berlin or pl", "'berlin' | 'pl':*"],
    ["Straße des 17. J", "'strass' & '17' & 'j'"],
    ["10117 Pariser Pl", "'10117' & 'paris' & 'pl':*"],
  ])("%j → %s", (term, expected) => {
    expect(q(term, true)).toBe(expected);
  });
});

describe("matches = tsvector @@ tsquery", () => {
  const doc = lexemesOf(streetDocument("Karl-Marx-Allee", "10178", "Berlin"));
  it.each([
    ['"Karl Marx Allee"', true],
    ["Marx-Allee", false],
    ['"Allee 10178"', true],
    ['"10178 Berlin"', true],
    ['"Berlin 10178"', false],
    ['"Karl Allee"', false],
    ["KARL-MARX-ALLEE", true],
    ['"marx alle"', true],
    ['berlin -"karl marx"', false],
    ['berlin -"marx karl"', true],
    ["hamburg or -berlin", false],
    ["Karl-Marx", false],
    ["-hamburg", true],
    ["", false],
    ["der", false],
    ["karl mar", false],
  ])("Karl-Marx-Allee 10178 Berlin @@ %j is %s", (term, expected) => {
    expect(matches(parseSearchTerm(term), doc)).toBe(expected);
  });

  it.each([
    ["karl mar", true],
    ["berlin karl-marx-al", true],
    ["ber 10178", false],
    ["10178 ber", true],
    ["berlin 1017", true],
    ["berlin 10179", false],
    ['"allee 1017"', false],
    ["allee -ber", false],
  ])("with the last word a prefix, %j is %s", (term, expected) => {
    expect(matches(parseSearchTerm(term, { lastWordPrefix: true }), doc)).toBe(expected);
  });

  it("phrase distances count stop words: Platz der Republik", () => {
    const platz = lexemesOf("Platz der Republik 10557 Berlin");
    expect(matches(parseSearchTerm('"Platz des Republik"'), platz)).toBe(true);
    expect(matches(parseSearchTerm('"Platz Republik"'), platz)).toBe(false);
    expect(matches(parseSearchTerm('"Platz der die Republik"'), platz)).toBe(false);
  });

  it("lists the lexemes a query looks up, once each", () => {
    expect(
      lexemesOfQuery(
        parseSearchTerm('berlin -"pariser platz" or berlin pl', { lastWordPrefix: true }),
      ),
    ).toEqual([
      { lexeme: "berlin", prefix: false },
      { lexeme: "paris", prefix: false },
      { lexeme: "platz", prefix: false },
      { lexeme: "pl", prefix: true },
    ]);
  });
});
