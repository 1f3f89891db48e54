import type { ReadBudget } from "../contract/search/budget.ts";
import type { StreetFilter } from "../contract/search/filter.ts";
import { cheapestCover, gramTree, treeKeys, type Cover } from "../contract/search/regex-plan.ts";
import type { SearchIndex } from "./search-index.ts";

/**
 * The lists a regular-expression name filter reads (contract/search/regex-plan.ts), from the
 * trigram shards alone: no list is read here.
 */
export async function patternCover(
  index: SearchIndex,
  filter: StreetFilter,
  budget: ReadBudget,
): Promise<Cover> {
  const tree = gramTree(filter);
  const keys = treeKeys(tree);
  const found = await index.trigramLists(keys, budget);
  const byKey = new Map(keys.map((key, i) => [key, found[i]]));
  return cheapestCover(tree, (key) => byKey.get(key));
}
