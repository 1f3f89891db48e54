/**
 * The Localities pattern mix of bench/localities-regex.ts (and of the differential run,
 * test/tools/search-differential.ts): an adversarial list of name patterns (broad matches, large
 * classes, nested and bounded repetitions, long alternations of names, `.*`-heavy patterns,
 * anchors, the longest patterns accepted) and of postal-code patterns, each on every country.
 */
import { upTo200 } from "./pattern-length.ts";

const longAlternation = Array.from({ length: 19 }, (_, i) => `stadt${i}`).join("|");
// Up to the 200-character limit: alternations of real names, classes, counted repetitions.
const cityNames = [
  "Berlin",
  "Hamburg",
  "München",
  "Köln",
  "Frankfurt",
  "Stuttgart",
  "Düsseldorf",
  "Leipzig",
  "Dortmund",
  "Essen",
  "Bremen",
  "Dresden",
  "Hannover",
  "Nürnberg",
  "Duisburg",
  "Bochum",
  "Wuppertal",
  "Bielefeld",
  "Bonn",
  "Münster",
  "Mannheim",
  "Karlsruhe",
  "Augsburg",
  "Wiesbaden",
  "Zürich",
  "Genève",
  "Basel",
  "Lausanne",
  "Bern",
  "Winterthur",
  "Luzern",
  "Vaduz",
  "Wien",
  "Graz",
];
export const namePatterns: string[] = [
  "Frankfurt",
  "berl",
  "^Berlin$",
  "(Berlin|Hamburg)",
  "e",
  ".",
  "^",
  "(a+)+$",
  "(.*a){12}",
  "(.*e){20}x",
  "[a-zäöüß]+ [a-zäöüß]+ [a-zäöüß]+$",
  "\\w+\\W+\\w+\\W+\\w+",
  "[^x]*[^y]*[^z]*q",
  "(a|e|i|o|u)(a|e|i|o|u)(a|e|i|o|u)",
  "(.{1,10}){1,10}z",
  "x{0,255}y{0,255}",
  longAlternation,
  "ß|ä|ö|ü|é|è|ê|à|â|ç|ñ",
  "(a|b|c|d|e)".repeat(18),
  "[a-zäöüß]".repeat(20),
  // Classes the alphabet cut shrinks most, and repetitions of them.
  "\\W\\w\\W\\w\\W",
  "\\S+\\s\\S+\\s\\S+\\s\\S+",
  "[^a]+[^b]+[^c]+[^d]+$",
  "(\\w+\\s?){1,8}$",
  "(.*[äöü]){3}",
  ".{30}",
  "^(.)(.)(.)(.)(.).*[^\\w\\s]",
  "\\d|\\D",
  // The worst shapes up to the 200-character limit.
  upTo200(cityNames, "|"),
  `^(${upTo200(cityNames, "|").slice(0, 180)})$`,
  upTo200(
    cityNames.map((n) => `.*${n.slice(0, 3)}`),
    "",
  ),
  upTo200(
    Array.from({ length: 60 }, () => ".*[aeiou]"),
    "",
  ),
  upTo200(
    Array.from({ length: 60 }, () => "[a-zA-ZäöüÄÖÜß -]"),
    "",
  ),
  upTo200(
    Array.from({ length: 60 }, () => "[^q]?"),
    "",
  ),
  upTo200(
    Array.from({ length: 60 }, () => "(a|b)?"),
    "",
  ),
  upTo200(
    Array.from({ length: 60 }, () => "\\w{0,9}"),
    "",
  ),
  // No literal, a junction between every two classes: the longest chain of runs to analyse.
  upTo200(
    Array.from({ length: 80 }, (_, i) => (i % 3 === 1 ? "." : `[^${"abcdefghij"[i % 10]}]`)),
    "",
  ),
  "[\\u0100-\\uffff]{1,50}",
  "[^\\u0000-\\u007f]+.*[^\\u0000-\\u007f]+",
  "^.{1,40}$",
  "(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)(.)",
  "^((((((((((a)))))))))*)*$",
  "([a-z]{2,5}[ -]){1,4}[a-z]{2,5}$",
  "(ae|oe|ue|ss|ä|ö|ü|ß){2,}",
];
export const postalCodePatterns = [
  "1011",
  "^8033",
  ".",
  "^[0-9]{5}$",
  "(0|1|2|3|4|5|6|7|8|9)*9$",
  "[0-9]{4,5}",
  "^(1|2|3)[0-9]{3}(0|5)?$",
  upTo200(
    Array.from({ length: 40 }, (_, i) => String(10000 + i * 2311)),
    "|",
  ),
  "(.*0){4}",
  "\\d{1,255}",
];
const countries = ["de", "at", "ch", "li"];

/** [country, parameter, pattern] for every pattern (`only`, or both lists) on every country: names, then postal codes. */
export function localityPatterns(
  only?: readonly string[],
): [country: string, param: string, pattern: string][] {
  return countries.flatMap((country) => [
    ...(only ?? namePatterns).map((p): [string, string, string] => [country, "name", p]),
    ...(only ?? postalCodePatterns).map((p): [string, string, string] => [
      country,
      "postalCode",
      p,
    ]),
  ]);
}

/** The request path of a pattern, as bench/localities-regex.ts asks it. */
export const localityPatternPath = (country: string, param: string, pattern: string): string =>
  `/${country}/Localities?${param}=${encodeURIComponent(pattern)}&pageSize=50`;
