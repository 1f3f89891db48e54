import type { ReadBudget } from "../contract/search/budget.ts";
import {
  caseFoldKey,
  foldIsExact,
  literalText,
  type StreetFilter,
} from "../contract/search/filter.ts";
import type { Cover } from "../contract/search/regex-plan.ts";
import { BLOCK_ENTRIES, listCount, NAME_START, runStreetsOf } from "../contract/search/store.ts";
import type { SearchIndex } from "./search-index.ts";

/** A name filter's lists; `exact`: one list whose runs all pass, so no name is tested. */
export interface NameCover extends Cover {
  readonly exact?: boolean;
}

/**
 * The list of a literal's own case-folded text, when the index has one (every n-gram of four and
 * more characters in many runs: build/search-keys.ts COMMON_GRAM_RUNS). It holds exactly the runs
 * whose folded name contains the literal, so it is the smallest list that holds every passing run,
 * and when the fold is exact (foldIsExact) every run on it passes. A literal anchored at the start
 * (`^Stra`) looks for NAME_START and its text: the runs whose folded name starts with it, listed
 * for every name's first one and two characters (so a missing one means no name passes) and for
 * common longer prefixes. Undefined: a rarer literal, whose trigrams' lists are short enough.
 */
export async function ownGram(
  index: SearchIndex,
  filter: StreetFilter,
  budget: ReadBudget,
): Promise<NameCover | undefined> {
  if (filter.pattern !== undefined) return undefined;
  const anchored = filter.anchoredStart && filter.ignoreCase && filter.literal.length > 0;
  if (!anchored && filter.literal.length < 4) return undefined;
  const key = (anchored ? NAME_START : "") + caseFoldKey(literalText(filter.literal));
  const [found] = await index.trigramLists([key], budget);
  if (found === undefined)
    return anchored && filter.literal.length <= 2 ? { refs: [], runs: 0, streets: 0 } : undefined;
  const [streets, ref] = found;
  return {
    refs: [ref],
    runs: listCount(ref),
    streets,
    exact: foldIsExact(filter, index.nameCharacters, anchored),
  };
}

/**
 * The page of a name filter alone whose one list is exact: its count is the shard's, its streets
 * are in the list's first blocks (only the page's runs give heads).
 */
export async function exactNamePage(
  index: SearchIndex,
  name: NameCover,
  budget: ReadBudget,
  start: number,
  end: number,
): Promise<{ readonly positions: number[]; readonly heads: (readonly string[])[] } | undefined> {
  const [ref] = name.refs;
  if (name.exact !== true || name.refs.length !== 1 || ref === undefined) return undefined;
  // Blocks read from the first, as many at a time as the page is expected to need (runs of average length).
  const positions: number[] = [];
  const heads: (readonly string[])[] = [];
  const blocks = ref.length - 2;
  const perBlock = (BLOCK_ENTRIES * name.streets) / Math.max(1, listCount(ref));
  for (let block = 0, seen = 0; block < blocks && seen < end && seen < name.streets;) {
    const next = Math.min(blocks, block + Math.max(1, Math.ceil((end - seen) / perBlock)));
    const bytes = await index.streamBytes(ref[1 + block] ?? 0, ref[1 + next] ?? 0, budget);
    seen = runStreetsOf(bytes, seen, start, end, positions, heads);
    block = next;
  }
  return { positions, heads };
}
