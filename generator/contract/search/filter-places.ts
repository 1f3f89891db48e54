/**
 * A postal-code prefix (`postalCode=^555`) as a range of places. The place table (§ 7.2 of
 * docs/FORMAT.md) is sorted by postal code (UTF-16 code units) and numbers the postal codes in
 * that order, so the codes that start with a text are neighbours, found in one pass over the
 * front-coded codes that builds no string, and so are their places, found by binary search: not a
 * test of every code and every place.
 */
import type { StreetFilter } from "./filter.ts";
import { literalText } from "./filter.ts";
import type { PlaceTable } from "./meta.ts";

/** Places [from, to) are those whose postal code passes; undefined when the filter is not a plain prefix. */
export interface PlaceRange {
  readonly from: number;
  readonly to: number;
}

export function postalCodeRange(
  filter: StreetFilter | undefined,
  places: PlaceTable,
): PlaceRange | undefined {
  if (
    filter === undefined ||
    filter.pattern !== undefined ||
    filter.ignoreCase ||
    !filter.anchoredStart ||
    filter.anchoredEnd
  )
    return undefined;
  const [first, last] = places.postalCodesStartingWith(literalText(filter.literal));
  const codeOf = places.postalCodeOf;
  return {
    from: firstIndex(places.size, (p) => (codeOf[p] as number) >= first),
    to: firstIndex(places.size, (p) => (codeOf[p] as number) >= last),
  };
}

/** The first index in [from, length) where `past` holds (it holds from there on), or length. */
function firstIndex(length: number, past: (i: number) => boolean): number {
  let [low, high] = [0, length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (past(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}
