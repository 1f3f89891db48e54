import { compareText } from "../contract/search/store.ts";
import { foldWords, skeletonOf, type FoldedWord } from "../contract/suggest/fold.ts";
import { shapesOf } from "../contract/suggest/names.ts";
import { encodeLocalityPayload, encodePlaces, MAX_LOCALITIES } from "../contract/suggest/places.ts";
import type { Alphabet, TrieEntry } from "../contract/suggest/trie.ts";

/** A place of the search index as suggestions see it (its number is its index). */
export interface SuggestPlace {
  readonly postalCode: string;
  readonly locality: string;
}

/**
 * Where a locality's official name goes on past what people type of it: `Frankfurt am Main`,
 * `Halle (Saale)`, `Cottbus/Chóśebuz`, `Mühlheim an der Donau`, `Bad Homburg v.d. Höhe`.
 */
const NAME_GOES_ON = /\s*[/(,]|\s+(am|an|im|in|ob|bei|vor|auf|unter|über|v\.)\s/iu;

/** A locality's skeletons: its whole name, and its first name alone when it goes on (flagged 1). */
export function localitySkeletons(locality: string): { words: FoldedWord[]; flags: number }[] {
  const words = foldWords(locality);
  const cut = NAME_GOES_ON.exec(locality);
  const first = cut === null || cut.index === 0 ? [] : foldWords(locality.slice(0, cut.index));
  const shorter = first.length > 0 && skeletonOf(first).length >= 3 ? first : undefined;
  return [{ words, flags: 0 }, ...(shorter === undefined ? [] : [{ words: shorter, flags: 1 }])];
}

/** The skeletons of every locality (the alphabet must code them too). */
export function localityTexts(places: readonly SuggestPlace[]): string[] {
  return [...new Set(places.map((place) => place.locality))].flatMap((locality) =>
    localitySkeletons(locality).map(({ words }) => skeletonOf(words)),
  );
}

/**
 * places.bin (the postal codes with their first places: places are sorted by postal code; each
 * place's locality number) and the entries of the localities' tries.
 */
export function suggestPlaces(
  places: readonly SuggestPlace[],
  alphabet: Alphabet,
): { readonly file: Uint8Array; readonly localities: TrieEntry[] } {
  const codes: [string, number][] = [];
  places.forEach((place, i) => {
    const last = codes.at(-1);
    if (last !== undefined && compareText(last[0], place.postalCode) > 0)
      throw new Error("suggestions: the search index's places are not sorted by postal code");
    if (last?.[0] !== place.postalCode) codes.push([place.postalCode, i]);
  });
  // Localities numbered in order of first use.
  const numbers = new Map<string, number>();
  const localityOf = places.map((place) => {
    let number = numbers.get(place.locality);
    if (number === undefined) numbers.set(place.locality, (number = numbers.size));
    return number;
  });
  if (numbers.size > MAX_LOCALITIES)
    throw new Error(`suggestions: ${numbers.size} localities, more than ${MAX_LOCALITIES}`);
  const localities = [...numbers].flatMap(([locality, number]) =>
    localitySkeletons(locality).map(({ words, flags }) => ({
      key: alphabet.encode(skeletonOf(words)),
      payload: encodeLocalityPayload({ flags, words: shapesOf(words), locality: number }),
    })),
  );
  return { file: encodePlaces(codes, localityOf), localities };
}
