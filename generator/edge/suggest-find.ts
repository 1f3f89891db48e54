import type { ReadBudget } from "../contract/search/budget.ts";
import {
  findLocalities,
  findStreetNames,
  NO_PLACE,
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

/** Walks, memoised by part: the names of street parts, the places of a locality part. */
export class Finder {
  private readonly names = new Map<string, NameHit[]>();
  private readonly localities = new Map<string, ((place: number) => number) | undefined>();

  constructor(
    private readonly index: SuggestIndex,
    private readonly read: Awaited<ReturnType<typeof readFor>>,
  ) {}

  /** Finds the names of the street parts of readings at once (find.ts findStreetNames: passes over all of them). */
  findNames(parts: readonly Part[]): void {
    const distinct = [...new Map(parts.map((part) => [partKey(part), part])).values()].filter(
      (part) => !this.names.has(partKey(part)),
    );
    const found = findStreetNames(distinct, this.index.alphabet, this.read.shardOf);
    for (const [part, hits] of found) this.names.set(partKey(part), [...hits.values()]);
  }

  /** The names of a street part (found by findNames, or now). */
  namesOf(part: Part): NameHit[] {
    if (!this.names.has(partKey(part))) this.findNames([part]);
    return this.names.get(partKey(part)) ?? [];
  }

  /** Per place, the typos of the locality part that holds it (NO_PLACE: none); undefined when no locality is near. */
  localitiesOf(part: Part): ((place: number) => number) | undefined {
    const places = this.read.places;
    if (places === undefined) return undefined;
    const key = partKey(part);
    if (!this.localities.has(key)) {
      const near = findLocalities(part, this.index.alphabet, places.localities);
      this.localities.set(
        key,
        near === undefined ? undefined : (place) => near.get(places.localityOf(place)) ?? NO_PLACE,
      );
    }
    return this.localities.get(key);
  }

  /** What a reading says of places; undefined when its locality names none. */
  filterOf(reading: Reading): PlaceFilter | undefined {
    const places = this.read.places;
    let filter: PlaceFilter = {};
    if (reading.locality !== undefined) {
      const locality = this.localitiesOf(reading.locality);
      if (locality === undefined) return undefined;
      filter = { locality };
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
  // Readings whose locality names no locality are dropped before any name is looked for.
  const filtered = readings.flatMap((reading) => {
    const filter = finder.filterOf(reading);
    return filter === undefined ? [] : [{ reading, filter }];
  });
  finder.findNames(filtered.map(({ reading }) => reading.street));
  for (const { reading, filter } of filtered) {
    const hits = finder.namesOf(reading.street);
    if (filter.postal === undefined && filter.locality === undefined) {
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
