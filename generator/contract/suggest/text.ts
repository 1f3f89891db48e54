/**
 * What a person typed, read as an address: a street, maybe a postal code (whole or its first
 * digits) and maybe a locality, in any order. The text is cut into tokens at spaces, commas and
 * semicolons; a token of digits may be the postal code, or a word of the street (`Straße 12`); a
 * house number (`10a`, `10-12`) may be left out, or a word of the street (`Straße 77a`). Every
 * way to read the rest as a street followed or preceded by a locality is a reading; suggestions keep, per street name, the reading that fits
 * it best (rank.ts). The last word is a prefix (search as you type) unless the text ends in a
 * space.
 */
import {
  foldWords,
  leadOf,
  MAX_TYPOS,
  skeletonOf,
  spellingOf,
  typoAllowance,
  type FoldedWord,
} from "./fold.ts";

/** Tokens of a text beyond which no reading is made (the text then finds nothing). */
export const MAX_TOKENS = 8;
/** Skeleton characters of a street part beyond which it is no street (names are shorter). */
export const MAX_STREET_CHARACTERS = 64;
/** Skeleton characters a street part needs (a street `Au`); below MIN_PREFIX_CHARACTERS only as a whole name. */
export const MIN_STREET_CHARACTERS = 2;
/** Skeleton characters a part being typed needs to be taken as a prefix: fewer begin too many names. */
export const MIN_PREFIX_CHARACTERS = 3;
/** Skeleton characters a part needs to be walked with typos: a shorter one finds names as typed. */
export const MIN_FUZZY_CHARACTERS = 4;
/** Digits of a postal code at most (Germany's five; Austria's, Switzerland's and Liechtenstein's four). */
const MAX_POSTAL_DIGITS = 5;

/** One part of a reading: the street or the locality. */
export interface Part {
  /** The part's skeleton, abbreviations written out (but in a word being typed). */
  readonly skeleton: string;
  /** The same as typed, when an abbreviation was written out (`Kralshorstr` may be Karlshorster mistyped). */
  readonly raw?: string;
  /** The typos a walk allows: what the part's words might tolerate (a typed word may have lost two letters), at most MAX_TYPOS; none below MIN_FUZZY_CHARACTERS. */
  readonly k: number;
  /** Whether the part ends the text: its last word may be unfinished. */
  readonly prefix: boolean;
  /** How the part is written (fold.ts spellingOf). */
  readonly spelling: number;
  /** Skeleton characters of its leading words (fold.ts leadOf): its tries are those of the pairs after them. */
  readonly lead: number;
  /** Its words as typed (the address check reports them). */
  readonly words: readonly FoldedWord[];
}

export interface Reading {
  readonly street: Part;
  readonly locality?: Part;
  /** Digits taken as the postal code or its first digits. */
  readonly postalCode?: string;
}

interface Token {
  readonly index: number;
  readonly piece: string;
  readonly words: readonly FoldedWord[];
  readonly raw: readonly FoldedWord[];
  readonly digits: boolean;
  readonly houseNumber: boolean;
}

const HOUSE_NUMBER = /^\d+([a-z]|[-/]\d+[a-z]?)$/i;

/** The tokens of a text that may be words of an address (punctuation left out). */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const piece of text.normalize("NFC").split(/[\s,;]+/u)) {
    const words = foldWords(piece);
    if (words.length === 0) continue;
    tokens.push({
      index: tokens.length,
      piece,
      words,
      raw: foldWords(piece, true),
      digits: /^\d+$/.test(piece),
      houseNumber: HOUSE_NUMBER.test(piece),
    });
  }
  return tokens;
}

/** A part of consecutive tokens; `last`: whether it ends the text and may be unfinished. */
export function partOf(
  tokens: readonly Pick<Token, "piece" | "words" | "raw">[],
  last: boolean,
): Part {
  // A word being typed is a prefix as typed: `Str` may begin `Strelitzer` as well as `Straße`.
  const words = tokens.flatMap((token, i) =>
    last && i === tokens.length - 1 ? token.raw : token.words,
  );
  const skeleton = skeletonOf(words);
  // A typed word may have lost up to two letters to typos; a part too short to tell is exact.
  const k =
    Array.from(skeleton).length < MIN_FUZZY_CHARACTERS
      ? 0
      : Math.min(
          MAX_TYPOS,
          words.reduce(
            (sum, word) => sum + (/^\d+$/.test(word.folded) ? 0 : typoAllowance(word.letters + 2)),
            0,
          ),
        );
  // As typed, abbreviations not written out: `Kralshorstr` may be Karlshorster mistyped.
  const raw = skeletonOf(tokens.flatMap((token) => token.raw));
  const spelling = spellingOf(tokens.map((token) => token.piece).join(" "));
  const prefix = last && Array.from(skeleton).length >= MIN_PREFIX_CHARACTERS;
  return {
    skeleton,
    k,
    prefix,
    spelling,
    words,
    lead: leadOf(words),
    ...(raw === skeleton ? {} : { raw }),
  };
}

/** A text read as one part (the address check's street or locality): house numbers left out, no prefix. */
export const partOfText = (text: string): Part => partOf(tokensOf(text), false);

/** Whether tokens hold a word (a street is more than numbers). */
const hasWords = (tokens: readonly Token[]) =>
  tokens.some((token) => !token.digits && !token.houseNumber);

/** Every reading of a text (none when it has more than MAX_TOKENS tokens or no street in it). */
export function readingsOf(text: string): Reading[] {
  const tokens = tokensOf(text);
  if (tokens.length === 0 || tokens.length > MAX_TOKENS) return [];
  const typing = !/[\s,;]$/u.test(text);
  const lastIndex = (tokens.at(-1) as Token).index;
  const digitTokens = tokens
    .filter((token) => token.digits && token.piece.length <= MAX_POSTAL_DIGITS)
    .sort((a, b) => b.piece.length - a.piece.length)
    .slice(0, 2);
  const houseNumbers = tokens.some((token) => token.houseNumber);
  const readings: Reading[] = [];
  for (const postal of [undefined, ...digitTokens])
    for (const dropHouseNumbers of houseNumbers ? [false, true] : [false]) {
      const rest = tokens.filter(
        (token) => token !== postal && !(dropHouseNumbers && token.houseNumber),
      );
      const extra = postal === undefined ? {} : { postalCode: postal.piece };
      const part = (span: readonly Token[]) =>
        partOf(span, typing && span.at(-1)?.index === lastIndex);
      const add = (street: readonly Token[], locality: readonly Token[]) => {
        // A number of four digits or more is a postal code, not a street's (`Straße 229`); but a
        // text that is a street alone keeps a four-digit one as a year (`Platz des 9. November 1989`).
        const year = postal === undefined && locality.length === 0;
        const longest = year ? 5 : 4;
        if (!hasWords(street) || street.some((t) => t.digits && t.piece.length >= longest)) return;
        const streetPart = part(street);
        const length = Array.from(streetPart.skeleton).length;
        if (length < MIN_STREET_CHARACTERS || length > MAX_STREET_CHARACTERS) return;
        if (locality.length === 0) return void readings.push({ street: streetPart, ...extra });
        if (locality.some((token) => token.digits || token.houseNumber)) return;
        readings.push({ street: streetPart, locality: part(locality), ...extra });
      };
      add(rest, []);
      for (let cut = 1; cut < rest.length; cut++) {
        add(rest.slice(0, cut), rest.slice(cut));
        add(rest.slice(cut), rest.slice(0, cut));
      }
    }
  return readings;
}
