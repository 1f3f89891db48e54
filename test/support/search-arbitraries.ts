/**
 * fast-check generators for the search property test: search terms and /Streets filter values
 * built from the street data's own vocabulary, with the operators, punctuation, whitespace,
 * Unicode (NFD, exotic scripts), 1,000-character terms, stop-word-only terms and percent-encoded
 * oddities (decoded as a query string arrives) that users and attackers send.
 */
import fc from "fast-check";
import { GERMAN_STOP_WORDS } from "../../generator/contract/postgres/data/pg-tsearch.ts";
import type { SearchStreet } from "./search-data.ts";

export interface Vocabulary {
  readonly words: readonly string[];
  readonly postalCodes: readonly string[];
  readonly names: readonly string[];
  readonly localities: readonly string[];
}

export function vocabulary(
  streets: readonly Pick<SearchStreet, "name" | "postalCode" | "locality">[],
  words: Iterable<string>,
): Vocabulary {
  const distinct = (values: string[]) => [...new Set(values)].sort();
  return {
    words: distinct([...words]),
    postalCodes: distinct(streets.map((s) => s.postalCode)),
    names: distinct(streets.map((s) => s.name)),
    localities: distinct(streets.map((s) => s.locality)),
  };
}

const SPACES = [
  " ",
  " ",
  " ",
  "  ",
  "\t",
  "\n",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\u2007",
  "\u0085",
  "\u1680",
];
const PUNCTUATION = [..."., /-'\\_@+~<>&;#:\"!|()*%?=[]{}$^`’–"];
const OPERATORS = [
  "-",
  "--",
  "or",
  "OR",
  "Or",
  '"',
  "(",
  ")",
  "|",
  "&",
  "!",
  "<->",
  "<2>",
  ":*",
  "*",
  "or-",
  "-or",
];
const EXOTIC = [
  "ǅ",
  "ǆ",
  "İ",
  "ı",
  "ẞ",
  "ß",
  "Æ",
  "ø",
  "Ł",
  "ﬁ",
  "Ⅲ",
  "\u212a",
  "ſ",
  "µ",
  "é",
  "e\u0301",
  "a\u0308",
  "\u0308",
  "\u200b",
  "\u00ad",
  "😀",
  "𝐀",
  "漢",
  "Ω",
  "й",
  "ا",
  "\ufeff",
];

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
/** One word as a user might type it: any case, cut short, with its umlauts spelt out or stripped. */
const typed = (word: fc.Arbitrary<string>) =>
  fc
    .tuple(word, fc.nat(100), fc.constantFrom("as is", "lower", "upper", "cut", "ae", "nfd"))
    .map(([w, n, how]) => {
      if (how === "lower") return w.toLowerCase();
      if (how === "upper") return w.toUpperCase();
      if (how === "cut")
        return Array.from(w)
          .slice(0, 1 + (n % Math.max(1, Array.from(w).length)))
          .join("");
      if (how === "ae")
        return w.replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss");
      if (how === "nfd") return w.normalize("NFD");
      return w;
    });

/** A query-string value with percent escapes (any byte, also broken UTF-8 and %00) and `+`, decoded. */
const percentDecoded = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(
      text,
      fc.array(
        fc.tuple(
          fc.nat(1000),
          fc.oneof(
            fc.integer({ min: 0, max: 255 }),
            fc.constantFrom(0x2b, 0x22, 0x25, 0x20, 0xc3, 0xa4),
          ),
        ),
        { maxLength: 4 },
      ),
      fc.boolean(),
    )
    .map(([value, escapes, plus]) => {
      let raw = encodeURIComponent(value);
      for (const [at, byte] of escapes) {
        const i = at % (raw.length + 1);
        raw =
          `${raw.slice(0, i)}%${byte.toString(16).padStart(2, "0").toUpperCase()}${raw.slice(i)}`.replace(
            /%(?![0-9A-F]{2})/g,
            "%25",
          );
      }
      if (plus) raw = raw.replace(/%20/g, "+");
      return new URLSearchParams(`v=${raw}`).get("v") ?? "";
    });

export function searchTerm(v: Vocabulary): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 12, arbitrary: typed(pick(v.words)) },
    { weight: 3, arbitrary: pick(GERMAN_STOP_WORDS) },
    { weight: 3, arbitrary: typed(pick(v.postalCodes)) },
    { weight: 2, arbitrary: fc.tuple(pick(v.words), pick(v.words)).map(([a, b]) => `${a}-${b}`) },
    { weight: 4, arbitrary: pick(OPERATORS) },
    { weight: 3, arbitrary: pick(PUNCTUATION) },
    { weight: 1, arbitrary: pick(EXOTIC) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,3}([.,\-/][0-9a-z]{1,3}){0,2}$/) },
  );
  const sentence = fc
    .array(fc.tuple(piece, pick([...SPACES, "", ",", "-", '"'])), { minLength: 1, maxLength: 8 })
    .map((parts) => parts.map(([p, s]) => p + s).join(""));
  const onlyStopWords = fc
    .array(pick(GERMAN_STOP_WORDS), { minLength: 1, maxLength: 6 })
    .map((w) => w.join(" "));
  const long = fc
    .array(sentence, { minLength: 20, maxLength: 60 })
    .map((parts) => Array.from(parts.join(" ")).slice(0, 1000).join(""))
    .filter((t) => Array.from(t).length >= 900);
  return fc.oneof(
    { weight: 12, arbitrary: sentence },
    { weight: 2, arbitrary: sentence.map((t) => t.normalize("NFD")) },
    { weight: 2, arbitrary: percentDecoded(sentence) },
    { weight: 1, arbitrary: onlyStopWords },
    { weight: 1, arbitrary: long },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  );
}

/** A last word to complete (prefix mode): no space, operator character, quote or colon, not starting with `-`. */
export function lastWord(v: Vocabulary): fc.Arbitrary<string> {
  const bad = /[\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u205f\u3000!&|()<":]/u;
  return fc
    .oneof(
      { weight: 8, arbitrary: typed(pick(v.words)) },
      { weight: 2, arbitrary: typed(pick(v.postalCodes)) },
      {
        weight: 2,
        arbitrary: fc.tuple(pick(v.words), typed(pick(v.words))).map(([a, b]) => `${a}-${b}`),
      },
      { weight: 1, arbitrary: pick(GERMAN_STOP_WORDS) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(typed(pick(v.words)), pick([".", "/", "'", "\\", "_", "@", "1", "ß"]))
          .map(([w, p]) => w + p),
      },
    )
    .filter((w) => w !== "" && !w.startsWith("-") && !bad.test(w));
}

/** A value for name, locality (from the names and localities) or postalCode, mostly in the supported subset. */
export function filterValue(values: readonly string[]): fc.Arbitrary<string> {
  const literal = fc
    .tuple(
      pick(values),
      fc.nat(200),
      fc.nat(200),
      fc.array(fc.nat(7), { maxLength: 12 }),
      fc.tuple(fc.nat(99), fc.nat(12), pick(EXOTIC)),
    )
    .map(([value, a, b, cases, insert]) => {
      const chars = Array.from(value);
      const start = a % chars.length;
      const end = start + 1 + (b % Math.min(8, chars.length - start));
      const out = chars
        .slice(start, end)
        .map((ch, i) =>
          (cases[i] ?? 0) === 1 ? ch.toUpperCase() : (cases[i] ?? 0) === 2 ? ch.toLowerCase() : ch,
        );
      if (insert[0] < 15) out.splice(insert[1] % (out.length + 1), 0, insert[2]);
      return {
        text: out.map((ch) => (/[.\\()[\]{}*+?|^$]/.test(ch) ? `\\${ch}` : ch)).join(""),
        atStart: start === 0,
        atEnd: end === chars.length,
      };
    });
  const anchored = fc
    .tuple(literal, fc.nat(9))
    .map(
      ([l, n]) =>
        `${(l.atStart && n < 6) || n === 9 ? "^" : ""}${l.text}${(l.atEnd && n % 2 === 0) || n === 8 ? "$" : ""}`,
    );
  return fc.oneof(
    { weight: 12, arbitrary: anchored },
    { weight: 2, arbitrary: anchored.map((text) => text.normalize("NFD")) },
    { weight: 2, arbitrary: percentDecoded(literal.map((l) => l.text)) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }) },
  );
}
