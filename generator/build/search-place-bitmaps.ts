import { BITMAP_DENSITY, bitmapBytes, bitmapWords, placeKeys } from "../contract/search/bitmaps.ts";

/**
 * The place bitmaps (contract/search/place-bitmaps.ts) of the characters of postal codes and
 * localities on at least one street in BITMAP_DENSITY. `write` takes the n-th bitmap file's bytes
 * from `first` on; returns their keys in file order.
 */
export function writePlaceBitmaps(
  places: readonly { readonly postalCode: string; readonly locality: string }[],
  placeOf: ArrayLike<number>,
  count: number,
  first: number,
  write: (n: number, bytes: Uint8Array) => void,
): string[] {
  const streetsOf = new Int32Array(places.length);
  for (let p = 0; p < count; p++) streetsOf[placeOf[p] ?? 0]!++;
  const keysOf = places.map((place) => placeKeys(place.postalCode, place.locality));
  const streets = new Map<string, number>();
  keysOf.forEach((keys, place) => {
    for (const key of keys) streets.set(key, (streets.get(key) ?? 0) + (streetsOf[place] ?? 0));
  });
  const dense = [...streets]
    .filter(([, n]) => n * BITMAP_DENSITY >= count)
    .map(([key]) => key)
    .sort();
  const words = new Map(dense.map((key) => [key, new Uint32Array(bitmapBytes(count) / 4)]));
  const bitmapsOf = keysOf.map((keys) => keys.flatMap((key) => words.get(key) ?? []));
  for (let p = 0; p < count; p++)
    for (const bits of bitmapsOf[placeOf[p] ?? 0] ?? []) bits[p >>> 5]! |= 1 << (p & 31);
  dense.forEach((key, i) => write(first + i, bitmapWords(words.get(key) as Uint32Array)));
  return dense;
}
