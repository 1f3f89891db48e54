/** Short `name` filters beside place filters, answered from per-place n-gram counts and a scan. */
import type { ReadBudget } from "../contract/search/budget.ts";
import {
  caseFoldKey,
  filterMatches,
  foldIsExact,
  literalText,
  type StreetFilter,
} from "../contract/search/filter.ts";
import { RECORD_CHUNK_STREETS } from "../contract/search/store.ts";
import { passingInOrder } from "../contract/search/filter-merge.ts";
import type { PlacePass } from "../contract/search/filtering.ts";
import type { NameCover } from "./search-name-grams.ts";
import type { Cover } from "../contract/search/regex-plan.ts";
import type { Found } from "./search-filters.ts";
import type { SearchIndex } from "./search-index.ts";
import type { PlaceLists } from "./search-place-lists.ts";

/** A street scanned costs about this share of a list entry read and tested. */
const SCAN_WEIGHT = 0.25;

/** Is the name's one n-gram list (a literal of at most three characters is its own key) exactly the runs that pass? */
export const gramIsLiteral = (filter: StreetFilter, occurring: ReadonlySet<number>) =>
  filter.literal.length <= 3 && foldIsExact(filter, occurring);

/** Has the name per-place counts that gramCounted may use? */
export const gramCountable = (index: SearchIndex, filter: StreetFilter) =>
  gramIsLiteral(filter, index.nameCharacters) &&
  index.gramCounts.has(caseFoldKey(literalText(filter.literal)));

/**
 * A short name's count from its n-gram's per-place counts (gram-counts.ts), summed over the
 * passing places, and its page found by scanning the record and head tables from the first
 * street: when the name's n-gram list is exactly its passing runs, has counts, and the scan is
 * expected to touch fewer streets than the cheaper side of the lists would (planned from the
 * place table's and the shard's counts, assuming names and places independent).
 */
export async function gramCounted(
  index: SearchIndex,
  filter: StreetFilter,
  placePass: PlacePass,
  name: Cover,
  budget: ReadBudget,
  start: number,
  end: number,
): Promise<Found | undefined> {
  const gram = caseFoldKey(literalText(filter.literal));
  if (!gramCountable(index, filter)) return undefined;
  const { pass, streets } = placePass;
  const count = index.meta.count;
  const expected = Math.max(1, (streets * name.streets) / Math.max(1, count));
  const scanned = Math.min(count, (end * count) / expected);
  if (
    scanned * SCAN_WEIGHT >= Math.min(streets, name.streets) ||
    Math.ceil(scanned / RECORD_CHUNK_STREETS) * RECORD_CHUNK_STREETS * index.meta.placeWidth * 2 >
      index.meta.readBudget / 2
  )
    return undefined;
  const total = await countOverPlaces(index, gram, pass, budget);
  if (start >= total) return { total, page: [] };
  const byName = new Map<string, boolean>();
  const passName = (value: string) => {
    let passed = byName.get(value);
    if (passed === undefined) byName.set(value, (passed = filterMatches(filter, value)));
    return passed;
  };
  return {
    total,
    page: await index.streets.scanMatching(pass, passName, start, Math.min(end, total), budget),
  };
}

/**
 * A name whose own list is exact and has place counts (a common n-gram: `straße`) beside places
 * with fewer streets than the name, whose lists the budget allows: counted from the counts over
 * the passing places, its page merged from the places' lists in street order, names tested only
 * up to the page's last street (not every street of the places, as the place side would).
 */
export async function countedOnPlaceLists(
  index: SearchIndex,
  filter: StreetFilter,
  placePass: PlacePass,
  placeLists: PlaceLists,
  name: NameCover,
  budget: ReadBudget,
  start: number,
  end: number,
): Promise<Found | undefined> {
  const gram = caseFoldKey(literalText(filter.literal));
  if (
    name.exact !== true ||
    filter.anchoredStart ||
    filter.literal.length <= 3 ||
    !index.gramCounts.has(gram) ||
    placePass.streets >= name.streets ||
    !placeLists.fit(budget)
  )
    return undefined;
  const total = await countOverPlaces(index, gram, placePass.pass, budget);
  if (start >= total) return { total, page: [] };
  const lists = await index.postings(placeLists.refs(), budget);
  return { total, page: passingInOrder(lists, filter, start, Math.min(end, total)) };
}

/** The n-gram's streets in the passing places: its per-place counts summed over them. */
async function countOverPlaces(
  index: SearchIndex,
  gram: string,
  pass: Uint8Array,
  budget: ReadBudget,
): Promise<number> {
  const counts = (await index.gramCounts.of(gram, pass.length, budget)) as Int32Array;
  let total = 0;
  for (let p = 0; p < pass.length; p++) if (pass[p] === 1) total += counts[p] ?? 0;
  return total;
}
