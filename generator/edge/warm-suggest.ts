/**
 * The warm-up's loops for suggestions beside a place (warm-up.ts): a town and a street's first
 * letters (`münchen str`) find hundreds of names, whose places are read and ranked by their
 * nearness to the town in loops the warm-up's own suggestions (a few names each) run too little
 * for V8 to compile at startup: `placesOfNames` and `groupOf` were compiled by Maglev inside such
 * first requests, 1.8 and 1.4 ms (`bench:fresh --deopts`, 2026-12-01; docs/SUGGESTIONS.md). Here
 * they run over made-up names of the warm-up build's streets, with filters of each shape that
 * suggest-find.ts Finder.filterOf makes (a locality, a postal code, both), made as it makes them.
 */
import type { NameHit } from "../contract/suggest/find.ts";
import {
  groupOf,
  localityFilter,
  postalFilter,
  proximities,
  type PlaceFilter,
} from "../contract/suggest/rank.ts";
import { AssetStore, type Assets } from "./assets.ts";
import { PAGE_RESERVE } from "./suggest-find.ts";
import { SuggestIndex } from "./suggest-index.ts";
import { SuggestStreets } from "./suggest-streets.ts";

/** Names placed each round: a short prefix's hundreds. */
const NAMES = 512;

/** Runs the loops over the warm-up build (`assets`) for `rounds` rounds; resolves to a checksum. */
export async function warmSuggestKernels(
  assets: Assets,
  origin: string,
  country: string,
  rounds: number,
): Promise<number> {
  const store = new AssetStore(assets);
  const streets = await SuggestStreets.open(store, origin, country);
  const budget = streets.budget();
  const places = await (await SuggestIndex.open(store, origin, country)).places(budget);
  const locality = localityFilter(places, new Map([[places.localityOf(0), 0]]));
  const postal = postalFilter(places, "10117");
  const filters: PlaceFilter[] = [{ locality }, { postal }, { locality, postal }];
  const names: NameHit[] = Array.from({ length: NAMES }, (_, i) => ({
    position: i % (streets.count - 2),
    count: 1 + (i % 3),
    typos: 0,
    tier: 0,
  }));
  let sum = 0;
  for (let round = 0; round < rounds; round++) {
    const read = await streets.placesOfNames(names, budget, PAGE_RESERVE);
    for (const filter of filters) {
      const known = proximities(streets.places);
      for (const [i, hit] of names.entries())
        sum += groupOf(hit, filter, read[i], known)?.count ?? 1;
    }
  }
  return sum;
}
