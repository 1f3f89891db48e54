import { SearchTooBroad, type ReadBudget } from "../contract/search/budget.ts";
import type { StreetFilters } from "../contract/search/evaluate.ts";
import { caseFoldKey, literalText, type StreetFilter } from "../contract/search/filter.ts";
import {
  allRunStreets,
  passingEntries,
  passingPlaces,
  passingRuns,
  runOf,
  runStreets,
  type Runs,
} from "../contract/search/filtering.ts";
import { entryAt } from "../contract/search/fulltext.ts";
import { lowerBound } from "../contract/search/postings.ts";
import { unite } from "../contract/search/algebra.ts";
import { passingInOrder } from "../contract/search/filter-merge.ts";
import {
  listCount,
  literalKeys,
  NAME_START,
  RECORD_CHUNK_STREETS,
  type ListEntry,
  type ListRef,
} from "../contract/search/store.ts";
import {
  refuseBroadPattern,
  unitedPassingRuns,
  type Cover,
} from "../contract/search/regex-plan.ts";
import type { SearchIndex } from "./search-index.ts";
import { patternCover } from "./search-patterns.ts";
import {
  countedOnPlaceLists,
  gramCountable,
  gramCounted,
  gramIsLiteral,
} from "./search-short-names.ts";
import { exactNamePage, ownGram, type NameCover } from "./search-name-grams.ts";
import { PlaceLists } from "./search-place-lists.ts";
import { pageOnPlaceBitmaps, placeBitmapKeys, runsOnPlaceBitmaps } from "./search-place-bitmaps.ts";
/** What a search found: the number of matches and the page's entries. */
export interface Found {
  readonly total: number;
  readonly page: readonly ListEntry[];
}

/**
 * The streets that pass `/Streets` filters, counted exactly, and page [start, end) of them. Of
 * the name's runs and the passing places' lists, the side with fewer streets (known from the
 * trigram shards and the place table, before any list is read) is read and the other is a test:
 * a run's range, or a street's place from the record table.
 */
export async function findStreets(
  index: SearchIndex,
  filters: StreetFilters,
  budget: ReadBudget,
  start: number,
  end: number,
): Promise<Found> {
  if (
    filters.name === undefined &&
    filters.postalCode === undefined &&
    filters.locality === undefined
  ) {
    // Every street matches (each pattern given matches every value): the page is streets [start, end).
    const positions = Array.from(
      { length: Math.max(0, Math.min(end, index.meta.count) - start) },
      (_, i) => start + i,
    );
    return { total: index.meta.count, page: await index.streets.streetsAt(positions, budget) };
  }
  const name =
    filters.name === undefined
      ? undefined
      : filters.name.pattern !== undefined
        ? await patternCover(index, filters.name, budget)
        : ((await ownGram(index, filters.name, budget)) ??
          (await rarestGram(index, filters.name, budget)));
  if (name !== undefined && name.refs.length === 0) return { total: 0, page: [] };
  // One list whose runs all pass: the literal's own n-gram, when the fold is exact.
  const exact =
    name === undefined || filters.name?.pattern !== undefined
      ? undefined
      : ((name as NameCover).exact ??
        gramIsLiteral(filters.name as StreetFilter, index.nameCharacters));
  const readRuns = async (
    onPass?: (start: number, length: number) => void,
    keep?: (start: number, length: number) => boolean,
  ) => {
    const lists = await index.postings(name?.refs ?? [], budget);
    const filter = filters.name as StreetFilter;
    return filter.pattern === undefined
      ? passingRuns(
          filter,
          lists,
          exact ?? gramIsLiteral(filter, index.nameCharacters),
          onPass,
          keep,
        )
      : unitedPassingRuns(filter, lists, onPass);
  };
  if (name !== undefined && filters.postalCode === undefined && filters.locality === undefined) {
    refuseBroadPattern(filters.name as StreetFilter, name, Infinity);
    const exactPage = await exactNamePage(
      index,
      { ...name, exact: exact === true },
      budget,
      start,
      end,
    );
    const runs = exactPage === undefined ? await readRuns() : undefined;
    const { positions, heads } = exactPage ?? runStreets(runs as Runs, start, end);
    const places = await index.streets.placesAt(positions, budget);
    return {
      total: runs?.streets ?? name.streets,
      page: positions.map((position, i) => ({
        position,
        place: places[i] ?? 0,
        head: heads[i] ?? [],
      })),
    };
  }
  const placeFilters = [filters.postalCode, filters.locality];
  // A long name beside one-character place filters: their bitmaps, not the place table, when they
  // hold more streets than the name has runs (the name side costs a test per run, the places' a
  // list entry per street). A short name may be counted per place instead (below).
  const placeKeys =
    name !== undefined && filters.name?.pattern === undefined
      ? placeBitmapKeys(index, placeFilters)
      : undefined;
  if (placeKeys !== undefined && !gramCountable(index, filters.name as StreetFilter)) {
    const found = await runsOnPlaceBitmaps(
      index,
      placeKeys,
      name?.refs ?? [],
      (keep) => readRuns(undefined, keep),
      budget,
      start,
      end,
      name?.runs,
    );
    if (found !== undefined) return found;
  }
  const places = await index.places(budget);
  const placePass = passingPlaces(filters, places, index.meta.columns.locality.characters);
  const { pass, streets, range } = placePass;
  if (name !== undefined) refuseBroadPattern(filters.name as StreetFilter, name, streets);
  if (name !== undefined && filters.name?.pattern === undefined) {
    const counted = await gramCounted(
      index,
      filters.name as StreetFilter,
      placePass,
      name,
      budget,
      start,
      end,
    );
    if (counted !== undefined) return counted;
  }
  const placeLists = new PlaceLists(index, places, pass, range);
  if (name !== undefined && filters.name?.pattern === undefined) {
    const counted = await countedOnPlaceLists(
      index,
      filters.name as StreetFilter,
      placePass,
      placeLists,
      { ...name, exact: exact === true },
      budget,
      start,
      end,
    );
    if (counted !== undefined) return counted;
  }
  if (name === undefined) {
    // Every street of a passing place matches: the count is the places'; the page is read from their lists, or found by scanning the record table when they hold many.
    const scanned = (end * index.meta.count) / Math.max(1, streets);
    // Also when the places are few but their lists lie in too many chunks to read, and the scan's
    // record chunks are expected to take at most half the budget (else refused from these counts).
    const scanFits = scanned * index.meta.placeWidth <= index.meta.readBudget / 2;
    if (scanned < streets || (scanFits && !placeLists.fit(budget))) {
      const positions =
        (await pageOnPlaceBitmaps(index, placeFilters, scanned, budget, start, end)) ??
        (await index.streets.scanPlaces(pass, start, end, budget));
      return { total: streets, page: await index.streets.streetsAt(positions, budget) };
    }
    const lists = await placeLists.read(budget);
    return { total: streets, page: passingInOrder(lists, undefined, start, end) };
  }
  if (placeKeys !== undefined && (streets > name.streets || !placeLists.fit(budget))) {
    // One-character place filters: their streets are a bitmap, each name run counted by a popcount.
    const found = await runsOnPlaceBitmaps(
      index,
      placeKeys,
      name.refs,
      (keep) => readRuns(undefined, keep),
      budget,
      start,
      end,
    );
    if (found !== undefined) return found;
  }
  if (streets <= name.streets) {
    // The places' lists, each street's name tested (once per distinct name).
    const lists = await placeLists.read(budget);
    const matched = unite(passingEntries(filters.name as StreetFilter, lists), index.meta.count);
    return {
      total: matched.length,
      page: Array.from(
        matched.subarray(start, end),
        (position) => entryAt(lists, position) ?? { position, place: 0, head: [] },
      ),
    };
  }
  // The name's runs, each street's place tested (from the record table, charged run by run: a search too broad stops early).
  refuseSpreadRuns(index, filters.name as StreetFilter, name, budget);
  const runs = await readRuns((first, length) =>
    index.streets.chargeStreets(first, length, budget),
  );
  const positions = allRunStreets(runs);
  const placeOf = await index.streets.placesAt(positions, budget);
  const matched = positions.filter((_, i) => pass[placeOf[i] ?? 0] === 1);
  const page = Array.from(matched.subarray(start, end), (position) => ({
    position,
    place: placeOf[lowerBound(positions, position)] ?? 0,
    head: runs.head(runOf(runs, position)),
  }));
  return { total: matched.length, page };
}

/**
 * Refuses, before any list is read, a name whose runs would charge more record-table chunks than
 * the budget by far: its rarest n-gram's runs (the shard's counts) spread over the street order
 * (names not anchored at the start fall anywhere in it) touch about chunks * (1 - e^(-runs/chunks))
 * chunks; when those are 1.5 budgets, the test run by run would refuse it too, only later.
 */
function refuseSpreadRuns(
  index: SearchIndex,
  filter: StreetFilter,
  name: Cover,
  budget: ReadBudget,
): void {
  if (filter.pattern !== undefined || filter.anchoredStart) return;
  const chunks = Math.ceil(index.meta.count / RECORD_CHUNK_STREETS);
  const touched = chunks * (1 - Math.exp(-name.runs / chunks));
  const bytes = touched * RECORD_CHUNK_STREETS * index.meta.placeWidth;
  if (bytes > 1.5 * index.meta.readBudget)
    budget.charge("(record chunks of the name's runs)", bytes);
}

/**
 * The rarest n-gram list of a name filter's literal and the streets in its runs (from the shard:
 * nothing read of the list), with the rarest of the trigrams that do not overlap it when its
 * list is at most SECOND_LIST_FACTOR times longer: their runs' intersection holds every street
 * that can pass, and each run's name is then checked (decoding a list's positions costs a
 * fraction of testing as many names, whose heads are rebuilt one by one). No list: some n-gram
 * is in no name, so nothing passes.
 */
async function rarestGram(
  index: SearchIndex,
  filter: StreetFilter,
  budget: ReadBudget,
): Promise<Cover> {
  // Anchored at the start: the name's first trigram is NAME_START and two characters, rarer.
  const marked = filter.anchoredStart && filter.ignoreCase && filter.literal.length > 0;
  const keys = literalKeys((marked ? NAME_START : "") + caseFoldKey(literalText(filter.literal)));
  const found = await index.trigramLists(keys, budget);
  let best: { ref: ListRef; streets: number; at: number } | undefined;
  for (const [at, list] of found.entries()) {
    if (list === undefined) return { refs: [], runs: 0, streets: 0 };
    if (best === undefined || listCount(list[1]) < listCount(best.ref))
      best = { ref: list[1], streets: list[0], at };
  }
  if (best === undefined) return { refs: [], runs: 0, streets: 0 };
  const cover = { refs: [best.ref], runs: listCount(best.ref), streets: best.streets };
  const first = best;
  let second: ListRef | undefined;
  for (const [at, list] of found.entries())
    if (
      Math.abs(at - first.at) >= 3 &&
      list !== undefined &&
      listCount(list[1]) <= SECOND_LIST_FACTOR * cover.runs &&
      (second === undefined || listCount(list[1]) < listCount(second))
    )
      second = list[1];
  return second !== undefined &&
    cover.runs >= SECOND_LIST_MIN &&
    index.listsFit([first.ref, second], budget, SECOND_LIST_RESERVE)
    ? { ...cover, refs: [first.ref, second] }
    : cover;
}

/** A second list: when the first has this many runs, it at most FACTOR times more, both in half the budget. */
const [SECOND_LIST_MIN, SECOND_LIST_FACTOR, SECOND_LIST_RESERVE] = [256, 4, 0.5];
