/**
 * The typo set of `npm run bench:suggest`: misspellings generated from real street names, the way
 * people mistype them, and the prefixes a person types on the way to a name.
 *
 * A misspelling edits one word of the name that has at least five letters (the tolerance:
 * one typo in a word of 5–8 letters, two from 9): one random edit, or for a word of nine or more
 * letters two edits half of the time. An edit inserts a letter (a–z), deletes one, replaces one
 * (by a–z) or swaps two neighbours (equally likely), anywhere in the word. A misspelling that is itself a name of
 * the list (or folds to one) is drawn again: it has no wrong spelling to correct.
 */
import { foldWords, skeletonOf } from "../generator/contract/suggest/fold.ts";

export interface TypoCase {
  /** The street name meant. */
  readonly intended: string;
  /** What is typed. */
  readonly text: string;
  /** Edits made (0 for a prefix). */
  readonly edits: number;
}

/** SplitMix32, as bench/national-streets.ts: the same sequence for a seed everywhere. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

/** Letters an edit inserts or replaces with: a keyboard's a–z (an umlaut typed as its vowel is a spelling suggestions take as the same, not a typo). */
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** One random edit of a word (an array of characters), in place. */
export function editWord(chars: string[], random: () => number): void {
  const pick = (n: number) => Math.floor(random() * n);
  const letter = () => LETTERS[pick(LETTERS.length)] ?? "e";
  const kind = pick(4);
  const at = pick(chars.length);
  if (kind === 0) chars.splice(pick(chars.length + 1), 0, letter());
  else if (kind === 1 && chars.length > 1) chars.splice(at, 1);
  else if (kind === 3 && chars.length > 1) {
    const i = Math.min(at, chars.length - 2);
    [chars[i], chars[i + 1]] = [chars[i + 1] ?? "", chars[i] ?? ""];
  } else {
    let other = letter();
    while (other === chars[at]?.toLowerCase()) other = letter();
    chars[at] = other;
  }
}

/** A misspelling of `name`, or undefined when no word of it has five letters. */
export function misspell(
  name: string,
  random: () => number,
): { text: string; edits: number } | undefined {
  const words = [...name.matchAll(/\p{L}+/gu)].filter((m) => Array.from(m[0]).length >= 5);
  const word = words[Math.floor(random() * words.length)];
  if (word === undefined) return undefined;
  const chars = Array.from(word[0]);
  const edits = chars.length >= 9 && random() < 0.5 ? 2 : 1;
  for (let i = 0; i < edits; i++) editWord(chars, random);
  const at = word.index ?? 0;
  return { text: name.slice(0, at) + chars.join("") + name.slice(at + word[0].length), edits };
}

const skeleton = (text: string) => skeletonOf(foldWords(text));

/** `count` misspellings of names drawn from `names` (distinct names), none of them another name. */
export function typoSet(names: readonly string[], count: number, seed: number): TypoCase[] {
  const random = seeded(seed);
  const known = new Set(names.map(skeleton));
  const cases: TypoCase[] = [];
  for (let tries = 0; cases.length < count && tries < count * 20; tries++) {
    const intended = names[Math.floor(random() * names.length)] ?? "";
    const typed = misspell(intended, random);
    if (typed === undefined || known.has(skeleton(typed.text))) continue;
    cases.push({ intended, text: typed.text, edits: typed.edits });
  }
  return cases;
}

/** Every prefix from the fourth character of `count` names drawn from `names` (whole names left out). */
export function prefixSet(names: readonly string[], count: number, seed: number): TypoCase[] {
  const random = seeded(seed);
  const cases: TypoCase[] = [];
  for (let n = 0; n < count; n++) {
    const intended = names[Math.floor(random() * names.length)] ?? "";
    const chars = Array.from(intended);
    for (let length = 4; length < chars.length; length++) {
      const text = chars.slice(0, length).join("");
      if (text.trim() === text) cases.push({ intended, text, edits: 0 });
    }
  }
  return cases;
}
