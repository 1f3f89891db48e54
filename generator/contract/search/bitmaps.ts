/**
 * Dense lists as bitmaps over the street positions (`/_s/{cc}/b/{n}.bin`): bit p of 32-bit
 * little-endian word p >>> 5 is set when street p's document has the term. A lexeme, or a
 * two-character prefix (the union of its lexemes' lists), on at least one street in
 * BITMAP_DENSITY has one, a longer prefix on one in LONG_PREFIX_DENSITY (meta.bitmaps names them
 * by termKey, file n the n-th), so a check against a common word or a short prefix (`straße ki`,
 * `platz he` as typed) is a bit test per candidate, not a decode of long lists nor a lexizing of
 * each candidate's name and place. A list holds exactly the streets whose document has its
 * lexeme, so the test is exact. Place bitmaps (placeBitmapKey) hold the streets of a one-character
 * place filter (`postalCode=1`, `locality=a`; a locality's last, `locality=e$`, whose places lie
 * all over the place order) and of the postal-code filters whose places lie all over the place
 * order and hold a tenth to a twenty-fifth of the streets (two digits anywhere, `postalCode=33`;
 * the last, `3$`; the first, `^3`), for keys on at least one street in
 * BITMAP_DENSITY: beside a name of a few thousand streets those places' streets are too many
 * files to read, and the name's streets are tested bit by bit instead. The last two digits
 * (`33$`, a hundredth) have none: their matches are few and lie all over the street order, so a
 * page of them reads about a record chunk a street, where the places' streets answer with their
 * places.
 */
import type { LexemeMatch } from "../postgres/tsquery.ts";
import { caseFoldKey, foldIsExact, literalText, type StreetFilter } from "./filter.ts";

/** A term as a bitmap key: its lexeme and whether it is a prefix. */
export const termKey = (term: LexemeMatch) => `${term.prefix ? "*" : "="}${term.lexeme}`;

/**
 * A place bitmap's key: the streets whose postal code has the text (a character, two in a row, or
 * with `^`/`$` its first or last one), or whose locality's case-folded form has the character
 * (with `$`: ends with it).
 */
export const placeBitmapKey = (parameter: "postalCode" | "locality", text: string) =>
  `@${parameter === "postalCode" ? "p" : "l"}${text}`;

/** The keys of a place's bitmaps: its postal code's characters and texts above, its locality's case-folded characters. */
export function placeKeys(postalCode: string, locality: string): string[] {
  const code = Array.from(postalCode);
  const texts = [
    ...code,
    ...code.slice(1).map((ch, i) => `${code[i] ?? ""}${ch}`),
    ...(code.length === 0 ? [] : [`^${code[0] ?? ""}`, `${code.at(-1) ?? ""}$`]),
  ];
  const folded = Array.from(caseFoldKey(locality));
  return [
    ...new Set([
      ...texts.map((text) => placeBitmapKey("postalCode", text)),
      ...folded.map((ch) => placeBitmapKey("locality", ch)),
      ...(folded.length === 0 ? [] : [placeBitmapKey("locality", `${folded.at(-1) ?? ""}$`)]),
    ]),
  ];
}

/** A term on at least one street in this many has a bitmap (of about 150 KB nationally). */
export const BITMAP_DENSITY = 256;
/**
 * A prefix of three or more characters, on at least one street in this many: rarer ones are
 * unions of lists short enough to read (a city beside them costs a merge), and a bitmap for each
 * would add a fifth to the index. One in 128 adds a fifth to the bitmaps (and 3-gram counts) and
 * does not lower the costliest requests, which are not such prefixes.
 */
export const LONG_PREFIX_DENSITY = 64;

/** Bytes of a bitmap over `count` streets: whole 32-bit words. */
export const bitmapBytes = (count: number) => ((count + 31) >>> 5) * 4;

/** A bitmap's words as the file's bytes (little-endian). */
export function bitmapWords(words: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  for (let w = 0; w < words.length; w++) view.setUint32(w * 4, words[w] as number, true);
  return bytes;
}

/** A bitmap file's words (the file's bytes are little-endian, as every engine that runs the Worker). */
export function decodeBitmap(bytes: Uint8Array): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >>> 2);
}

/**
 * The key of the place bitmap that holds exactly a place filter's streets: a literal of one
 * character, unanchored, that `~` matches as itself, or `~*` as its case-folded form when no other
 * character `occurring` in the localities folds with it (filter.ts foldIsExact); or a
 * postal code's digits as placeKeys writes them (`33`, `3$`, `^3`).
 */
export function placeFilterKey(
  filter: StreetFilter,
  occurring: ReadonlySet<number>,
): string | undefined {
  const { parameter, pattern, literal, anchoredStart, anchoredEnd, ignoreCase } = filter;
  const text = literalText(literal);
  if (parameter === "postalCode" && pattern === undefined && /^[0-9]{1,2}$/.test(text)) {
    const digits = postalDigitsText(text, anchoredStart, anchoredEnd);
    if (digits !== undefined) return placeBitmapKey(parameter, digits);
  }
  // A locality's last character (`locality=e$`) has a bitmap too; a postal code's has above.
  const atEnd = anchoredEnd && parameter === "locality";
  if (
    parameter === "name" ||
    pattern !== undefined ||
    literal.length !== 1 ||
    anchoredStart ||
    (anchoredEnd && !atEnd)
  )
    return undefined;
  if (ignoreCase && !foldIsExact(filter, occurring, false, anchoredEnd)) return undefined;
  const key = ignoreCase ? caseFoldKey(text) : text;
  return placeBitmapKey(parameter, atEnd ? `${key}$` : key);
}

/** The text of a postal-code filter of one or two digits as placeKeys writes it, if it has one. */
function postalDigitsText(digits: string, anchoredStart: boolean, anchoredEnd: boolean) {
  if (!anchoredStart && !anchoredEnd) return digits;
  if ((anchoredStart && anchoredEnd) || digits.length > 1) return undefined;
  return anchoredStart ? `^${digits}` : `${digits}$`;
}
