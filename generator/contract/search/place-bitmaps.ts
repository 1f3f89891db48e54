/**
 * Bitmaps of place filters of one character (in the bitmap files of bitmaps.ts, named
 * `@p{character}` for postal codes and `@l{case-folded character}` for localities): bit p set when
 * street p's place has the character, for characters on at least one street in BITMAP_DENSITY.
 * A `/Streets` filter of one character (`postalCode=1`, `locality=a`) passes most of a country's
 * places, so its places' lists are far more than a search may read; beside a name its streets are
 * then this bitmap, and the name's runs are counted by popcounts over their ranges.
 */
import { caseFoldKey, literalText, type StreetFilter } from "./filter.ts";

/** A place bitmap's key (a bitmap file's name in the meta's `bitmaps`). */
export const placeBitmapKey = (parameter: "postalCode" | "locality", character: string) =>
  `@${parameter === "postalCode" ? "p" : "l"}${character}`;

/** The keys of a place's bitmaps: its postal code's characters, its locality's case-folded ones. */
export const placeKeys = (postalCode: string, locality: string): string[] => [
  ...new Set([
    ...Array.from(postalCode, (ch) => placeBitmapKey("postalCode", ch)),
    ...Array.from(caseFoldKey(locality), (ch) => placeBitmapKey("locality", ch)),
  ]),
];

/**
 * The key of the bitmap that holds exactly a place filter's streets: a literal of one character,
 * unanchored, that `~` matches as itself, or `~*` as its case-folded form (no character of the
 * field's `occurring` ones folds with it unless `~*` accepts it: filter.ts foldIsExact, for one
 * character, without the table of every case class that it builds).
 */
export function placeFilterKey(
  filter: StreetFilter,
  occurring: ReadonlySet<number>,
): string | undefined {
  if (filter.parameter === "name" || filter.pattern !== undefined) return undefined;
  if (filter.literal.length !== 1 || filter.anchoredStart || filter.anchoredEnd) return undefined;
  const text = literalText(filter.literal);
  if (!filter.ignoreCase) return placeBitmapKey(filter.parameter, text);
  const key = caseFoldKey(text);
  const [lower, upper] = [filter.accepts[0], filter.accepts[1]];
  for (const d of occurring)
    if (d !== lower && d !== upper && caseFoldKey(String.fromCodePoint(d)) === key)
      return undefined;
  return placeBitmapKey(filter.parameter, key);
}
