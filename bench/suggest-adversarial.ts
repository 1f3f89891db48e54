/**
 * The adversarial set of `npm run bench:suggest`: texts that cost the most or find the most (one
 * and two letters, broad prefixes, 200 characters, only digits, only stop words, many words,
 * broad prefixes beside a postal code or locality), and address checks of real Berlin streets
 * (valid, another postal code, a typo in the street or the locality, a lone postal code).
 */
import { readFileSync } from "node:fs";
import { seeded } from "./suggest-typos.ts";

/** Texts for Suggestions; `names` (the national list's) lend a few long ones. */
export function adversarialTexts(names: readonly string[]): string[] {
  const longest = [...names].sort((a, b) => b.length - a.length).slice(0, 3);
  const random = seeded(7);
  const letters = (n: number) =>
    Array.from(
      { length: n },
      () => "abcdefghijklmnopqrstuvwxyzäöüß"[Math.floor(random() * 30)],
    ).join("");
  return [
    // One and two letters, three-letter prefixes of the commonest name starts.
    ..."aSßÄ1".split(""),
    "ab",
    "St",
    "Sc",
    "Ha",
    "Kö",
    "Sch",
    "Str",
    "Hau",
    "Ber",
    "Bah",
    "Am ",
    "Am B",
    // 200 characters.
    "a".repeat(200),
    "Straße ".repeat(29).slice(0, 200),
    letters(200),
    "Hauptstraße 10117 Berlin ".repeat(8).slice(0, 200),
    "Schützenstraße".repeat(15).slice(0, 200),
    `${longest.join(" ")} ${"x".repeat(200)}`.slice(0, 200),
    // Only digits.
    "1",
    "10117",
    "12345678",
    "0",
    "1 2 3 4 5 6 7 8",
    "99999 00000",
    // Only stop words.
    "der die das",
    "am an der",
    "in der",
    "und oder nicht",
    // Many words.
    "Straße des 17. Juni 10557 Berlin Tiergarten Mitte",
    "a b c d e f g h",
    "Am Alten Markt Weg Straße Platz Allee Gasse",
    "Hauptstraße Bahnhofstraße Schulstraße Gartenstraße Dorfstraße",
    ...longest,
    // Broad prefixes beside places, places alone.
    "Haupt 1",
    "Sch 8",
    "Stra Berlin",
    "Berl München",
    "Hauptstraße München",
    "Hauptstr 80331 München",
    "Bahnhofstr 10",
    "Str 1",
    "10117 Berlin",
    "Berlin",
    "Frankfurt am Main Ha",
    // A place typed first, then a street's first letters: hundreds of names, each narrowed by place.
    "Berlin Str",
    "München Str",
    "Dresden Sch",
    "10115 Str",
    "Str München",
    "Strase Berlin",
    "Bergstr Berg",
    "Kurfürstendamm Strasse Berln 10719",
    "Schutzenstrase 1011 Berlim",
    letters(12),
    letters(30),
  ];
}

/** Address checks of Berlin streets (`file`: the embedded list), each kind of mistake a few times. */
export function addressChecks(file: string, seed: number): string[] {
  const rows = readFileSync(file, "utf8")
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line !== "" && !line.includes('"'))
    .map((line) => line.split(","));
  const random = seeded(seed);
  const pick = () => rows[Math.floor(random() * rows.length)] ?? [];
  const check = (street: string, postalCode?: string, locality?: string) =>
    `/de/AddressCheck?${new URLSearchParams({
      street,
      ...(postalCode === undefined ? {} : { postalCode }),
      ...(locality === undefined ? {} : { locality }),
    }).toString()}`;
  const typo = (text: string) => {
    const at = 1 + Math.floor(random() * Math.max(1, text.length - 2));
    return text.slice(0, at) + text.slice(at + 1);
  };
  const out: string[] = [];
  for (let n = 0; n < 10; n++) {
    const [name = "", code = "", locality = ""] = pick();
    const other = String((Number(code) + 3) % 100000).padStart(5, "0");
    out.push(
      check(name, code, locality),
      check(name.toLowerCase().replace("straße", "str."), code, locality.toUpperCase()),
      check(name, other, locality),
      check(typo(name), code, locality),
      check(name, code, typo(locality)),
      check(name, code),
      check(name, undefined, locality),
    );
  }
  out.push(check("Hauptstraße", "1", "Berlin"), check("a", "10117"), check("Sch", undefined, "B"));
  return out;
}
