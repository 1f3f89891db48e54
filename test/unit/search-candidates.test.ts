import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nameMayHave } from "../../generator/contract/search/candidates.ts";
import { lexemesOf } from "../../generator/contract/postgres/lexize.ts";

/** A phrase's candidates skip lexizing a name that cannot have a term: that must never skip one that has it. */
describe("nameMayHave: a name's text holds each of its lexemes", () => {
  it.each([
    [
      "Müller-Breslau-Straße Über für daß Fußweg",
      ["mull", "muller-breslau-strass", "uber", "dass"],
    ],
    ["Straße des 17. Juni", ["strass", "17", "juni"]],
    ["Müller2 Straße-3 B-Ärger ÄRGER-B4", ["müller2", "-3", "b-arg", "ärger-b4", "b4"]],
    ["http://x.de/a/b www.berlin.de", ["x.de/a/b", "/a/b", "www.berlin.de"]],
  ])("%s", (name, lexemes) => {
    const found = [...lexemesOf(name).keys()];
    for (const lexeme of lexemes) expect(found).toContain(lexeme);
    for (const lexeme of found) expect(nameMayHave(name, lexeme)).toBe(true);
  });

  it.each([
    ["Hauptstraße", "munch"],
    ["Münchner Straße", "berlin"],
    ["Am Markt", "markt-"],
  ])("%s cannot have %s", (name, lexeme) => {
    expect([...lexemesOf(name).keys()]).not.toContain(lexeme);
    expect(nameMayHave(name, lexeme)).toBe(false);
  });

  const letters = [..."aäAÄoöÖuüÜßẞeEiIyYsSnNrRtTgGhH -.,/:@_&'<0123456789éÉæÆœŒﬁİıǅǄøØ", "𝔘"];
  it.each([
    [
      "German-like",
      fc.array(fc.constantFrom(...letters), { maxLength: 40 }).map((a) => a.join("")),
    ],
    ["any", fc.string({ unit: "grapheme", maxLength: 30 })],
  ])("every lexeme of a %s name", (_, names) => {
    fc.assert(
      fc.property(names, (name) =>
        [...lexemesOf(name).keys()].every((lexeme) => nameMayHave(name, lexeme)),
      ),
      { numRuns: 3000 },
    );
  });
});
