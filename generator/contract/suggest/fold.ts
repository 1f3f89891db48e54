/**
 * How suggestions compare text: a street name, a locality or what a person typed is cut into
 * words and each word folded, so that case, German transliterations (ä/ae, ö/oe, ü/ue, ß/ss),
 * other accents and the abbreviations of `straße` and `platz` never count as typos. A name's
 * skeleton is its folded words without separators: `Müllerstraße` and `Muellerstrasse` are one
 * skeleton, `Karl-Marx-Allee` and `Karl Marx Allee` another, `Frankfurter Allee` and
 * `Frankfurterallee` a third. The distances (walk.ts, distance.ts) take an `e` after `a`, `o`
 * or `u` and an `s` after `s` as free to add or leave out, so `Muller` is Müller and `Strase`
 * Straße too. The build folds the names and localities with this code and the Worker the
 * request's text.
 */

/** One word of a name or of the request's text. */
export interface FoldedWord {
  /** Lower case, transliterated (ä: ae, ß: ss), without accents: a–z, digits and the few letters without a Latin base. */
  readonly folded: string;
  /** Letters and digits of the word as written (`müller`: 6), which decide its typo allowance. */
  readonly letters: number;
}

/** Letters written out as others, or that Unicode does not decompose to a Latin base. */
const SPELLED_OUT: Readonly<Record<string, string>> = {
  ä: "ae",
  ö: "oe",
  ü: "ue",
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};
const SPELLED = /[äöüßẞæœøłđðþı]/g;
/** The combining accents of Latin letters (after NFD): what folding drops. */
const MARKS = /[\u0300-\u036f]+/g;
/**
 * What separates words: white space and punctuation (a plain class: Unicode property classes are
 * built on their first use, which a fresh isolate's first request would pay).
 */
const SEPARATORS = /[\s!-/:-@[-`{-~\u00a0-\u00bf\u2000-\u206f\u3000-\u303f]+/u;

/** A word's letters lower-cased (NFC), transliterated, stripped of accents. */
export function foldLetters(word: string): string {
  const spelled = word.replace(SPELLED, (letter) => SPELLED_OUT[letter] ?? letter);
  // ASCII is its own NFD and has no marks: most words once ä, ö, ü and ß are written out. A fresh
  // isolate's first NFD costs about 0.3 ms (ICU's normalizer), each later one a regex run more.
  if (ASCII.test(spelled)) return spelled;
  return spelled.normalize("NFD").replace(MARKS, "");
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * `str` and a word ending in it stand for `straße` (`Schützenstr.`, `Str`), `pl` alone for
 * `platz`: the abbreviations of a lower-cased word written out, before folding.
 */
export function expandAbbreviation(word: string): string {
  if (word === "pl") return "platz";
  return word.endsWith("str") ? `${word}aße` : word;
}

/** The words of a text (a name, a locality, a typed token), lower-cased, abbreviations written out unless `raw`. */
export function foldWords(text: string, raw = false): FoldedWord[] {
  const words: FoldedWord[] = [];
  for (const piece of text.normalize("NFC").toLowerCase().split(SEPARATORS)) {
    if (piece === "") continue;
    const word = raw ? piece : expandAbbreviation(piece);
    const folded = foldLetters(word);
    if (folded !== "") words.push({ folded, letters: Array.from(word.replace(MARKS, "")).length });
  }
  return words;
}

/** The skeleton of folded words: their letters without separators. */
export const skeletonOf = (words: readonly FoldedWord[]): string =>
  words.map((word) => word.folded).join("");

/**
 * How a text is written, case and runs of spaces aside, as a 32-bit hash: among names of one
 * skeleton (`Dessauer Straße`, `Dessauerstraße`), the one written as typed ranks first.
 */
export function spellingOf(text: string): number {
  const written = text.normalize("NFC").toLowerCase().trim().replace(/\s+/gu, " ");
  let h = 0x811c9dc5;
  for (let i = 0; i < written.length; i++) h = Math.imul(h ^ written.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Typos a word tolerates by its length: none below five letters, one from five to eight, two from
 * nine (Meilisearch's and Typesense's defaults). A name tolerates what its words do together, at
 * most MAX_TYPOS.
 */
export function typoAllowance(letters: number): number {
  return letters >= 9 ? 2 : letters >= 5 ? 1 : 0;
}

/** Typos one request's street (or locality) may have in all. */
export const MAX_TYPOS = 2;

/**
 * Words a street name may start with that a person often leaves out (`Am Kupfergraben` is typed
 * `Kupfergraben`): articles and prepositions, folded. A name that starts with them is found
 * without them too, ranked after a name that is exactly what was typed.
 */
const LEADING_WORDS = new Set([
  "am",
  "an",
  "auf",
  "bei",
  "beim",
  "das",
  "dem",
  "den",
  "der",
  "des",
  "die",
  "hinter",
  "im",
  "in",
  "ueber",
  "unter",
  "vom",
  "von",
  "vor",
  "zu",
  "zum",
  "zur",
]);

/** The words of a name after its leading articles and prepositions; undefined when it has none (or nothing else). */
export function withoutLeadingWords(words: readonly FoldedWord[]): FoldedWord[] | undefined {
  let first = 0;
  while (first < words.length - 1 && LEADING_WORDS.has(words[first]?.folded ?? "")) first++;
  const rest = words.slice(first);
  return first === 0 || skeletonOf(rest).length < 3 ? undefined : rest;
}

/** Skeleton characters of the leading words of some words (0 when they have none). */
export function leadOf(words: readonly FoldedWord[]): number {
  const rest = withoutLeadingWords(words);
  return rest === undefined
    ? 0
    : Array.from(skeletonOf(words)).length - Array.from(skeletonOf(rest)).length;
}
