import {
  findLocalities,
  findNames,
  pairsToRead,
  queriesOf,
  wantsTypos,
  type NameHit,
  type Pass,
} from "../contract/suggest/find.ts";
import { MAX_TYPOS } from "../contract/suggest/fold.ts";
import type { SuggestPlaces } from "../contract/suggest/places.ts";
import {
  compareGroups,
  groupOf,
  localityFilter,
  postalFilter,
  proximities,
  type Group,
  type PlaceFilter,
} from "../contract/suggest/rank.ts";
import type { Part, Reading } from "../contract/suggest/text.ts";
import type { SuggestIndex } from "./suggest-index.ts";
import type { ReadBudget, SuggestStreets } from "./suggest-streets.ts";

/** The share of the read budget kept for the page (its record, head and tail files) while names are narrowed by place. */
export const PAGE_RESERVE = 0.25;

const partKey = (part: Part) =>
  `${part.skeleton}\u0000${part.raw ?? ""}\u0000${part.k}\u0000${part.prefix}`;

/**
 * What the readings of a text need read: the name shards of their street parts, the locality
 * shards of their locality parts as typed (`localityTypos`: within their typos too; otherwise
 * Finder.readLocalityTypos reads those when a pass needs them), and the places when one has a
 * postal code or locality.
 */
export async function readFor(
  index: SuggestIndex,
  readings: readonly Reading[],
  budget: ReadBudget,
  needPlaces = readings.some((r) => r.locality !== undefined || r.postalCode !== undefined),
  localityTypos = false,
): Promise<Read> {
  const [shardOf, localityOf, places] = await Promise.all([
    index.nameShards(
      pairsOfParts(
        index,
        readings.map((r) => r.street),
      ),
      budget,
    ),
    index.localityShards(
      pairsOfParts(
        index,
        readings.map((r) => r.locality),
        !localityTypos,
      ),
      budget,
    ),
    needPlaces ? index.places(budget) : undefined,
  ]);
  return { shardOf, localityOf, places };
}

interface Read {
  shardOf: (pair: string) => Uint8Array | undefined;
  localityOf: (pair: string) => Uint8Array | undefined;
  readonly places: SuggestPlaces | undefined;
}

/**
 * The pair keys of some parts within their typos, at most `upTo` (a name's pairs within two are
 * read only for the pass that needs them: Finder.readNameTypos); `asTyped`: of those only the
 * ones a walk as typed reads (find.ts findLocalities walks a locality's own pairs).
 */
function pairsOfParts(
  index: SuggestIndex,
  parts: readonly (Part | undefined)[],
  asTyped = false,
  upTo = 1,
): Set<string> {
  return new Set(
    parts.flatMap((part) =>
      part === undefined
        ? []
        : queriesOf(part, index.alphabet).flatMap((query) => {
            const all = pairsToRead(query, Math.min(part.k, upTo), part.lead);
            return asTyped ? pairsToRead(query, 0).filter((pair) => all.includes(pair)) : all;
          }),
    ),
  );
}

/** Walks, memoised by part: the names of street parts, pass by pass, and the localities of locality parts. */
export class Finder {
  private readonly names = new Map<string, Map<number, NameHit>>();
  private readonly localities = new Map<string, PlaceFilter["locality"]>();

  constructor(
    private readonly index: SuggestIndex,
    private readonly read: Read,
  ) {}

  /** Reads the locality shards of some locality parts within their typos (readFor read them as typed). */
  async readLocalityTypos(parts: readonly Part[], budget: ReadBudget): Promise<void> {
    if (parts.length === 0) return;
    const [asTyped, added] = [
      this.read.localityOf,
      await this.index.localityShards(pairsOfParts(this.index, parts), budget),
    ];
    this.read.localityOf = (pair) => added(pair) ?? asTyped(pair);
  }

  /**
   * Reads the name shards of some street parts' pairs within two typos, as many as fit the budget
   * with the page's share left (readFor read those within one); a part whose shards do not all
   * fit finds fewer names with two typos.
   */
  async readNameTypos(parts: readonly Part[], budget: ReadBudget): Promise<void> {
    if (parts.length === 0) return;
    const [read, added] = [
      this.read.shardOf,
      await this.index.nameShardsThatFit(
        pairsOfParts(this.index, parts, false, MAX_TYPOS),
        budget,
        PAGE_RESERVE,
      ),
    ];
    this.read.shardOf = (pair) => read(pair) ?? added(pair);
  }

  /** Adds a pass over some street parts (find.ts findNames). */
  pass(parts: readonly Part[], pass: Pass): void {
    const found = (part: Part) => {
      const key = partKey(part);
      let names = this.names.get(key);
      if (names === undefined) this.names.set(key, (names = new Map()));
      return names;
    };
    const named = parts.map((part) => ({ part, found: found(part) }));
    findNames(named, this.index.alphabet, this.read.shardOf, pass);
  }

  /** The names a street part has found so far. */
  namesOf(part: Part): NameHit[] {
    return [...(this.names.get(partKey(part))?.values() ?? [])];
  }

  /** The localities near a locality part within `upTo` typos, as a filter's; undefined when none is near. */
  localitiesOf(part: Part, upTo = MAX_TYPOS): PlaceFilter["locality"] {
    const places = this.read.places;
    if (places === undefined) return undefined;
    const key = `${partKey(part)}\u0000${upTo}`;
    if (!this.localities.has(key)) {
      const near = findLocalities(part, this.index.alphabet, this.read.localityOf, upTo);
      this.localities.set(key, near === undefined ? undefined : localityFilter(places, near));
    }
    return this.localities.get(key);
  }

  /** What a reading says of places, its locality within `upTo` typos; undefined when its locality names none. */
  filterOf(reading: Reading, upTo = MAX_TYPOS): PlaceFilter | undefined {
    const places = this.read.places;
    const locality =
      reading.locality === undefined ? undefined : this.localitiesOf(reading.locality, upTo);
    if (reading.locality !== undefined && locality === undefined) return undefined;
    const postal =
      reading.postalCode === undefined || places === undefined
        ? undefined
        : postalFilter(places, reading.postalCode);
    return { locality, postal };
  }
}

/**
 * Every name the readings suggest, each as the group of the reading that ranks it best, in passes,
 * each only when those before left room (docs/SUGGESTIONS.md): every street part as typed, each
 * locality as typed; then the street parts that found few names within one typo, those that found
 * none within two (find.ts wantsTypos), unless a reading with a postal code or locality found a
 * street as typed in it as typed; then the localities with typos, of the readings whose street
 * found a name; then the streets as typed without abbreviations written out, when no name within
 * one typo was found. A reading with a postal code or locality reads its names' places (the
 * record table), best names first, while they fit the budget with PAGE_RESERVE left; a name that
 * does not fit is left out.
 */
export async function suggestGroups(
  streets: SuggestStreets,
  finder: Finder,
  readings: readonly Reading[],
  budget: ReadBudget,
): Promise<Group[]> {
  const best = new Map<number, Group>();
  const placesRead = new Map<number, Int32Array>();
  const nearness = new Map<PlaceFilter, Float64Array>();
  const parts = [...new Map(readings.map(({ street }) => [partKey(street), street])).values()];
  /** The groups of the readings (with their filters) whose street part is among `which`. */
  const group = async (
    which: readonly Part[],
    filtered: readonly { reading: Reading; filter: PlaceFilter }[],
  ) => {
    const walked = new Set(which.map(partKey));
    for (const { reading, filter } of filtered) {
      if (!walked.has(partKey(reading.street))) continue;
      const hits = ordered(finder.namesOf(reading.street));
      const placed = filter.postal !== undefined || filter.locality !== undefined;
      if (placed) {
        const unread = hits.filter((hit) => !placesRead.has(hit.position));
        const read = await streets.placesOfNames(unread, budget, PAGE_RESERVE);
        unread.forEach((hit, i) => read[i] && placesRead.set(hit.position, read[i]));
      }
      // One per reading's filter and request, made only when it has names to place.
      let near = nearness.get(filter) ?? UNPLACED;
      if (placed && near === UNPLACED && hits.length > 0)
        nearness.set(filter, (near = proximities(streets.places)));
      for (const hit of hits) {
        const places = placed ? placesRead.get(hit.position) : undefined;
        if (placed && places === undefined) continue;
        const found = groupOf(hit, filter, places, near);
        const known = best.get(hit.position);
        if (found !== undefined && (known === undefined || compareGroups(found, known) < 0))
          best.set(hit.position, found);
      }
    }
  };
  // Localities as typed first: a street part of a reading whose locality names none is not walked.
  const asTyped = readings.flatMap((reading) => {
    const filter = finder.filterOf(reading, 0);
    return filter === undefined ? [] : [{ reading, filter }];
  });
  const live = (filtered: typeof asTyped) => {
    const keys = new Set(filtered.map(({ reading }) => partKey(reading.street)));
    return parts.filter((part) => keys.has(partKey(part)));
  };
  const pass = async (
    which: readonly Part[],
    raw: boolean,
    typos: number,
    filtered: typeof asTyped,
  ) => {
    finder.pass(which, { typos, raw });
    await group(which, filtered);
  };
  const escalate = async (which: readonly Part[], raw: boolean, filtered: typeof asTyped) => {
    for (let typos = 1; typos <= MAX_TYPOS; typos++) {
      const room = which.filter((part) => wantsTypos(part, typos, finder.namesOf(part).length));
      if (room.length === 0) continue;
      if (typos === MAX_TYPOS) await finder.readNameTypos(room, budget);
      await pass(room, raw, typos, filtered);
    }
  };
  await pass(live(asTyped), false, 0, asTyped);
  if (![...best.values()].some((g) => g.typos === 0 && g.placed))
    await escalate(live(asTyped), false, asTyped);
  // Localities with typos, for the readings whose street found names.
  const unknown = readings.filter(
    ({ street, locality }) =>
      locality !== undefined &&
      finder.localitiesOf(locality, 0) === undefined &&
      finder.namesOf(street).length > 0,
  );
  await finder.readLocalityTypos(
    unknown.flatMap(({ locality }) => (locality === undefined ? [] : [locality])),
    budget,
  );
  const withTypos = unknown.flatMap((reading) => {
    const filter = finder.filterOf(reading, MAX_TYPOS);
    return filter === undefined ? [] : [{ reading, filter }];
  });
  await group(live(withTypos), withTypos);
  if ([...best.values()].some((g) => g.typos <= 1)) return [...best.values()];
  const known = [...asTyped, ...withTypos];
  const raw = live(known).filter((part) => part.raw !== undefined);
  await pass(raw, true, 0, known);
  await escalate(raw, true, known);
  return [...best.values()];
}

/** The proximities of a reading without a place: none are asked for. */
const UNPLACED = proximities(0);

/** Names best first (their places are read in this order while the budget allows). */
const ordered = (hits: readonly NameHit[]) =>
  [...hits].sort((a, b) => a.typos - b.typos || a.tier - b.tier || a.position - b.position);
