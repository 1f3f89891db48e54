import type { ReadBudget } from "../contract/search/budget.ts";
import {
  findLocalities,
  findNames,
  pairsToRead,
  queriesOf,
  type NameHit,
} from "../contract/suggest/find.ts";
import type { SuggestPlaces } from "../contract/suggest/places.ts";
import { compareGroups, groupOf, type Group, type PlaceFilter } from "../contract/suggest/rank.ts";
import type { Part, Reading } from "../contract/suggest/text.ts";
import type { SuggestIndex } from "./suggest-index.ts";
import type { SuggestStreets } from "./suggest-streets.ts";

/** The share of the read budget kept for the page (its record, head and tail files) while names are narrowed by place. */
export const PAGE_RESERVE = 0.25;

const partKey = (part: Part) =>
  `${part.skeleton}\u0000${part.raw ?? ""}\u0000${part.k}\u0000${part.prefix}`;

/** What the readings of a text need read: the name shards of their street parts, and the places when one has a postal code or locality. */
export async function readFor(
  index: SuggestIndex,
  readings: readonly Reading[],
  budget: ReadBudget,
  needPlaces = readings.some((r) => r.locality !== undefined || r.postalCode !== undefined),
): Promise<{
  shardOf: (pair: string) => Uint8Array | undefined;
  places: SuggestPlaces | undefined;
}> {
  const pairs = new Set(
    readings.flatMap(({ street }) =>
      queriesOf(street, index.alphabet).flatMap((query) => pairsToRead(query, street.k)),
    ),
  );
  const [shardOf, places] = await Promise.all([
    index.nameShards(pairs, budget),
    needPlaces ? index.places(budget) : undefined,
  ]);
  return { shardOf, places };
}

/** Walks, memoised by part: the names of a street part, the places of a locality part. */
export class Finder {
  private readonly names = new Map<string, NameHit[]>();
  private readonly localities = new Map<string, Uint8Array | undefined>();

  constructor(
    private readonly index: SuggestIndex,
    private readonly read: Awaited<ReturnType<typeof readFor>>,
  ) {}

  namesOf(part: Part): NameHit[] {
    const key = partKey(part);
    let hits = this.names.get(key);
    if (hits === undefined) {
      const found = new Map<number, NameHit>();
      findNames(part, this.index.alphabet, this.read.shardOf, found);
      this.names.set(key, (hits = [...found.values()]));
    }
    return hits;
  }

  /** Per place, the typos of the locality part that holds it; undefined when no locality is near. */
  localitiesOf(part: Part): Uint8Array | undefined {
    const places = this.read.places;
    if (places === undefined) return undefined;
    const key = partKey(part);
    if (!this.localities.has(key))
      this.localities.set(
        key,
        findLocalities(part, this.index.alphabet, places.localities, places.places),
      );
    return this.localities.get(key);
  }

  /** What a reading says of places; undefined when its locality names none. */
  filterOf(reading: Reading): PlaceFilter | undefined {
    const places = this.read.places;
    let filter: PlaceFilter = {};
    if (reading.locality !== undefined) {
      const localities = this.localitiesOf(reading.locality);
      if (localities === undefined) return undefined;
      filter = { localities };
    }
    if (reading.postalCode !== undefined && places !== undefined) {
      const [first, end] = places.placesStartingWith(reading.postalCode);
      filter = {
        ...filter,
        postal: { digits: reading.postalCode, first, end, codeOf: (p) => places.codeOfPlace(p) },
      };
    }
    return filter;
  }
}

/**
 * Every name the readings suggest, each as the group of the reading that ranks it best. A reading
 * with a postal code or locality reads its names' places (the record table), best names first,
 * while they fit the budget with PAGE_RESERVE left; a name that does not fit is left out.
 */
export async function suggestGroups(
  streets: SuggestStreets,
  finder: Finder,
  readings: readonly Reading[],
  budget: ReadBudget,
): Promise<Group[]> {
  const best = new Map<number, Group>();
  const keep = (group: Group, name: number) => {
    const known = best.get(name);
    if (known === undefined || compareGroups(group, known) < 0) best.set(name, group);
  };
  const placesRead = new Map<number, Int32Array>();
  for (const reading of readings) {
    const filter = finder.filterOf(reading);
    if (filter === undefined) continue;
    const hits = finder.namesOf(reading.street);
    if (filter.postal === undefined && filter.localities === undefined) {
      for (const hit of hits) keep(groupOf(hit, filter), hit.position);
      continue;
    }
    const ordered = [...hits].sort(
      (a, b) => a.typos - b.typos || a.tier - b.tier || a.position - b.position,
    );
    for (const hit of ordered) {
      let places = placesRead.get(hit.position);
      if (places === undefined) {
        if (!budget.fits(streets.placeFiles(hit.position, hit.count), PAGE_RESERVE)) continue;
        places = await streets.placesOf(hit.position, hit.count, budget);
        placesRead.set(hit.position, places);
      }
      keep(groupOf(hit, filter, places), hit.position);
    }
  }
  return [...best.values()];
}
