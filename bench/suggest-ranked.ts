/**
 * The street names Suggestions ranks first for a text, distinct, in order: the quality figures of
 * `npm run bench:suggest`. A name's streets are many records (nationally thousands for a common
 * name), so the first five names are read off the engine's ranked groups (edge/suggest-find.ts),
 * not off a page of records; the same code answers every request (edge/suggest.ts).
 */
import { compareGroups } from "../generator/contract/suggest/rank.ts";
import { readingsOf } from "../generator/contract/suggest/text.ts";
import type { AssetStore } from "../generator/edge/assets.ts";
import { Finder, readFor, suggestGroups } from "../generator/edge/suggest-find.ts";
import { SuggestIndex } from "../generator/edge/suggest-index.ts";
import { SuggestStreets } from "../generator/edge/suggest-streets.ts";

const ORIGIN = "http://bench";

/** The first `n` distinct street names suggested for `text` in `country`. */
export async function rankedNames(
  store: AssetStore,
  country: string,
  text: string,
  n = 5,
): Promise<string[]> {
  const [streets, index] = await Promise.all([
    SuggestStreets.open(store, ORIGIN, country),
    SuggestIndex.open(store, ORIGIN, country),
  ]);
  const budget = streets.budget();
  index.chargeMeta(budget);
  const readings = readingsOf(text.normalize("NFC"));
  const finder = new Finder(index, await readFor(index, readings, budget));
  const groups = (await suggestGroups(streets, finder, readings, budget)).sort(compareGroups);
  const firsts = groups.slice(0, 4 * n).map((group) => group.positions?.[0] ?? group.first);
  const records = await streets.records(firsts, streets.budget());
  const names = records.map((r) => (JSON.parse(r.json) as { name: string }).name);
  return [...new Set(names)].slice(0, n);
}
