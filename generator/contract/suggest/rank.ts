/**
 * The order of suggestions (docs/SUGGESTIONS.md): fewest typos, then how exactly the name matched
 * (find.ts TIERS; a name that holds the text's digits, `Straße 12`, before one that takes them as
 * a postal code), then how near a street is to the postal code and locality of the text, then
 * the street order. A name found by a reading with a postal code or locality is narrowed to its
 * streets nearest to them; each name keeps the reading that ranks it best. A name's streets are
 * one group: they share their rank but for their positions, and distinct names' streets never
 * interleave in the street order, so ordering groups orders streets.
 */
import { NO_PLACE, type NameHit } from "./find.ts";
import type { SuggestPlaces } from "./places.ts";

/** What a reading's postal code and locality say of places (both fields always there, undefined when it names none: one shape in V8). */
export interface PlaceFilter {
  /**
   * The localities the text names: per place the typos of the one that holds it (NO_PLACE: none),
   * and the fewest of any (the reading's own typos in the locality).
   */
  readonly locality: { readonly of: (place: number) => number; readonly typos: number } | undefined;
  /** The digits, and the places whose postal code starts with them. */
  readonly postal:
    | {
        readonly digits: string;
        readonly first: number;
        readonly end: number;
        /** The leading digits a place's postal code has in common with `digits` (places.ts sharedDigits). */
        readonly shared: (place: number) => number;
      }
    | undefined;
}

/** A text's locality as a filter: per place, the typos of the near locality holding it (`near`: locality → typos). */
export const localityFilter = (
  places: SuggestPlaces,
  near: ReadonlyMap<number, number>,
): NonNullable<PlaceFilter["locality"]> => ({
  of: (place) => near.get(places.localityOf(place)) ?? NO_PLACE,
  typos: Math.min(...near.values()),
});

/** A text's postal code (or its first digits) as a filter: the places whose code starts with it. */
export function postalFilter(
  places: SuggestPlaces,
  digits: string,
): NonNullable<PlaceFilter["postal"]> {
  const [first, end] = places.placesStartingWith(digits);
  return { digits, first, end, shared: places.sharedDigits(digits) };
}

/** How far a place is from what the text says of places: 0 when it is in both. */
export function proximityOf(filter: PlaceFilter, place: number): number {
  let far = 0;
  const { postal, locality } = filter;
  if (postal !== undefined && (place < postal.first || place >= postal.end)) {
    far += postal.digits.length - postal.shared(place);
  }
  if (locality !== undefined) far += locality.of(place) - locality.typos;
  return far;
}

/** The streets of a name that a reading suggests, with their rank. */
export interface Group {
  readonly typos: number;
  readonly tier: number;
  /** 1 when the reading took digits of the text as a postal code, 0 otherwise. */
  readonly digits: number;
  /** Whether the reading named a postal code or locality (a street found as typed in one explains the text). */
  readonly placed: boolean;
  readonly proximity: number;
  /** Streets in the group. */
  readonly count: number;
  /** The positions of its streets in the street order, increasing; undefined: [first, first + count). */
  readonly positions?: readonly number[] | undefined;
  readonly first: number;
}

/** The group's i-th street. */
export const positionAt = (group: Group, i: number): number =>
  group.positions === undefined ? group.first + i : (group.positions[i] ?? 0);

/** A place's proximity to the filter's postal code or locality; Infinity when in no locality of the text. */
const placeProximity = (filter: PlaceFilter, place: number): number =>
  filter.locality?.of(place) === NO_PLACE ? Infinity : proximityOf(filter, place);

/** Per place, its placeProximity once worked out (NaN before): names found together share places. */
export const proximities = (places: number): Float64Array => new Float64Array(places).fill(NaN);

/**
 * A name's streets as one group: all of them, or (places given) those in a locality of the text
 * (none there: no group), of them those nearest to the postal code. The typos of the text's
 * locality count to the group's.
 */
export function groupOf(
  hit: NameHit,
  filter: PlaceFilter,
  places: Int32Array | undefined,
  known: Float64Array,
): Group | undefined {
  const rank = {
    typos: hit.typos + (filter.locality?.typos ?? 0),
    tier: hit.tier,
    digits: filter.postal === undefined ? 0 : 1,
    placed: filter.postal !== undefined || filter.locality !== undefined,
  };
  // `positions` set either way: groups of one shape, which compareGroups sorts by thousands.
  if (places === undefined)
    return { ...rank, proximity: 0, count: hit.count, positions: undefined, first: hit.position };
  // Each place's proximity kept in `known` (proximities: room for every place), then two passes
  // rather than an array of them: this runs per name found, thousands for a short prefix beside a
  // place, in a fresh isolate's lower tiers.
  let nearest = Infinity;
  for (let i = 0; i < places.length; i++) {
    const place = places[i] as number;
    let far = known[place] as number;
    if (Number.isNaN(far)) known[place] = far = placeProximity(filter, place);
    if (far < nearest) nearest = far;
  }
  if (nearest === Infinity) return undefined;
  const positions: number[] = [];
  for (let i = 0; i < places.length; i++)
    if (known[places[i] as number] === nearest) positions.push(hit.position + i);
  return {
    ...rank,
    proximity: nearest,
    count: positions.length,
    positions,
    first: positions[0] ?? hit.position,
  };
}

/** Whether group a ranks before group b. */
export function compareGroups(a: Group, b: Group): number {
  return (
    a.typos - b.typos ||
    a.tier - b.tier ||
    a.digits - b.digits ||
    a.proximity - b.proximity ||
    a.first - b.first
  );
}

/** The suggestions in order: their count and the positions [start, end) of them. */
export function pageOf(
  groups: readonly Group[],
  start: number,
  end: number,
): { readonly total: number; readonly positions: number[] } {
  const sorted = [...groups].sort(compareGroups);
  const positions: number[] = [];
  let seen = 0;
  for (const group of sorted) {
    for (let i = Math.max(0, start - seen); i < group.count && seen + i < end; i++)
      positions.push(positionAt(group, i));
    seen += group.count;
  }
  return { total: seen, positions };
}
