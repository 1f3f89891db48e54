import { describe, expect, it } from "vitest";
import {
  foldWords,
  skeletonOf,
  spellingOf,
  withoutLeadingWords,
} from "../../generator/contract/suggest/fold.ts";
import { parseAddressQuery, parseSuggestTerm } from "../../generator/contract/suggest/request.ts";
import { readingsOf } from "../../generator/contract/suggest/text.ts";

/** How suggestions read text: folding, skeletons, readings of an address, parameters. */
const skeleton = (text: string) => skeletonOf(foldWords(text));

describe("folding", () => {
  it.each([
    ["Schützenstraße", "schuetzenstrasse"],
    ["Schuetzenstrasse", "schuetzenstrasse"],
    ["Schützenstr.", "schuetzenstrasse"],
    ["Schützenstr", "schuetzenstrasse"],
    ["Karl-Marx-Allee", "karlmarxallee"],
    ["Karl Marx Allee", "karlmarxallee"],
    ["Frankfurter Allee", "frankfurterallee"],
    ["Frankfurterallee", "frankfurterallee"],
    ["Pariser Pl.", "pariserplatz"],
    ["Straße des 17. Juni", "strassedes17juni"],
    ["Cottbus/Chóśebuz", "cottbuschosebuz"],
    ["Łódźer Weg", "lodzerweg"],
    ["  AEG-Straße  ", "aegstrasse"],
  ])("%s has the skeleton %s", (text, expected) => {
    expect(skeleton(text)).toBe(expected);
  });

  it.each([
    ["Müllerstraße", [6 + 6]],
    ["Karl-Marx-Allee", [4, 4, 5]],
    ["Hauptstr.", [11]],
  ])("counts the letters of %s as written", (text, letters) => {
    expect(foldWords(text).map((w) => w.letters)).toEqual(letters);
  });

  it("leaves the leading articles and prepositions out for a second skeleton", () => {
    expect(skeletonOf(withoutLeadingWords(foldWords("Am Kupfergraben")) ?? [])).toBe(
      "kupfergraben",
    );
    expect(skeletonOf(withoutLeadingWords(foldWords("An der Urania")) ?? [])).toBe("urania");
    expect(withoutLeadingWords(foldWords("Kupfergraben"))).toBeUndefined();
    expect(withoutLeadingWords(foldWords("Am Ob"))).toBeUndefined();
  });

  it("tells spellings apart but for case and runs of spaces", () => {
    expect(spellingOf("Dessauer  Straße")).toBe(spellingOf("dessauer straße"));
    expect(spellingOf("Dessauer Straße")).not.toBe(spellingOf("Dessauerstraße"));
  });
});

describe("readings of an address", () => {
  const summary = (text: string) =>
    readingsOf(text).map(
      (r) =>
        `${r.street.skeleton}${r.street.prefix ? "…" : ""}${r.locality === undefined ? "" : ` | ${r.locality.skeleton}${r.locality.prefix ? "…" : ""}`}${r.postalCode === undefined ? "" : ` @${r.postalCode}`}`,
    );

  it.each([
    ["Schützenstrase 10117", ["schuetzenstrase @10117"]],
    ["10117 Schützenstrase", ["schuetzenstrase… @10117"]],
    [
      "Hauptstr Berlin",
      ["hauptstrasseberlin…", "hauptstrasse | berlin…", "berlin… | hauptstrasse"],
    ],
    ["Kurfürst", ["kurfuerst…"]],
    ["Kurfürst ", ["kurfuerst"]],
    ["Straße 12", ["strasse12…", "strasse @12"]],
    ["Schützenstraße 10a", ["schuetzenstrasse10a…", "schuetzenstrasse"]],
    // Four digits in a text that is a street alone: a year of its name, or a Swiss postal code.
    ["Hauptstraße 1011", ["hauptstrasse1011…", "hauptstrasse @1011"]],
    [
      "Platz des 9. November 1989 ",
      [
        "platzdes9november1989",
        "platzdes9november @1989",
        "platz | des9november @1989",
        "des9november | platz @1989",
        "platzdes | 9november @1989",
        "9november | platzdes @1989",
        "platzdes9 | november @1989",
        "november | platzdes9 @1989",
      ],
    ],
    ["a b c d e f g h i", []],
    ["1", []],
    ["ab", ["ab"]],
    ["a", []],
  ])("reads %j as %j", (text, readings) => {
    expect(summary(text)).toEqual(readings);
  });

  it("writes an abbreviation out but in the word being typed, and keeps it as typed too", () => {
    const [whole] = readingsOf("Kralshorstr Straße ");
    expect([whole?.street.skeleton, whole?.street.raw]).toEqual([
      "kralshorstrassestrasse",
      "kralshorstrstrasse",
    ]);
    const [typing] = readingsOf("Schützenstr");
    expect([typing?.street.skeleton, typing?.street.raw]).toEqual(["schuetzenstr", undefined]);
  });

  it("allows typos by the words' length, none in a short part", () => {
    const k = (text: string) => readingsOf(`${text} `)[0]?.street.k;
    expect([k("Ulm"), k("Marx"), k("Allee"), k("Schützenstrase"), k("Karl Marx Allee")]).toEqual([
      0, 1, 1, 2, 2,
    ]);
  });
});

describe("parameters", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["  ", false],
    ["Schützenstr", true],
  ])("searchTerm %j is valid: %s", (term, ok) => {
    expect(parseSuggestTerm(term).ok).toBe(ok);
  });

  it.each([
    [{ street: "Schützenstraße", postalCode: "10117" }, true],
    [{ street: "Schützenstraße", locality: "Berlin" }, true],
    [{ street: "Schützenstraße", postalCode: " 101 17 " }, true],
    [{ street: "Schützenstraße" }, false],
    [{ postalCode: "10117", locality: "Berlin" }, false],
    [{ street: "Schützenstraße", postalCode: "10117a" }, false],
  ])("the address %j is valid: %s", (given, ok) => {
    const parsed = parseAddressQuery(new Map(Object.entries(given)));
    expect(parsed.ok).toBe(ok);
    if (!parsed.ok) expect(Object.keys(parsed.errors).length).toBeGreaterThan(0);
  });
});
