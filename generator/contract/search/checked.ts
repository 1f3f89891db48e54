/**
 * Candidates checked one by one against what their lists cannot decide (fulltext.ts): terms
 * whose lists a plan does not read, and phrases (adjacency). Bitmaps decide what they can; a
 * phrase whose rarest term is a lexeme is decided by its candidates' places where their names
 * lack that term (phrase-places.ts); the rest is tested on the candidates' names and places,
 * each worked out once per name and per place, and only then on their whole documents.
 */
import { NOTHING, type PositionSet } from "./algebra.ts";
import { bitmapChecked } from "./bitmaps.ts";
import { phraseMayMatch, streetMatches } from "./candidates.ts";
import { streetLexemes } from "../postgres/lexize.ts";
import { placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";
import { phraseByPlaces, SHORT_DOCUMENT } from "./phrase-places.ts";
import { entryAt, type Postings } from "./postings.ts";
import { matches, type LexemeMatch, type SearchNode } from "../postgres/tsquery.ts";
import type { ListEntry } from "./store.ts";

/** What checking needs of a query's inputs (fulltext.ts QueryInputs). */
export interface CheckInputs {
  readonly postings: (term: LexemeMatch) => readonly Postings[];
  readonly places: PlaceTable | undefined;
  readonly bitmaps?: ReadonlyMap<string, Uint32Array>;
}

/**
 * The candidates whose documents match every check; `terms`: the terms whose lists hold every
 * candidate; `driver`: a phrase's rarest term, whose list is `terms`' (a phrase leaf's).
 */
export function checked(
  driven: Int32Array,
  terms: readonly LexemeMatch[],
  allChecks: readonly SearchNode[],
  inputs: CheckInputs,
  driver?: LexemeMatch,
): PositionSet {
  const { candidates, rest: checks } = bitmapChecked(driven, allChecks, inputs.bitmaps);
  if (checks.length === 0) return { positions: candidates, negated: false };
  const places = inputs.places;
  if (places === undefined || candidates.length === 0) return NOTHING;
  const lists = terms.flatMap((term) => inputs.postings(term));
  const queries = checks.map((root) => ({ root }));
  const positional = checks.some(hasPhrase);
  const byName = new Map<string, boolean>();
  const byPlace = new Map<number, boolean>();
  const passes = (entry: ListEntry): boolean => {
    const name = entry.head[entry.head.length - 1] ?? "";
    if (!positional)
      return checks.every((check) => streetMatches(check, name, entry.place, places));
    const [postalCode, locality] = [
      placePostalCode(places, entry.place),
      placeLocality(places, entry.place),
    ];
    const [query] = queries;
    if (queries.length === 1 && query?.root.op === "phrase") {
      // Only a phrase whose words are all in the name, all in the place, or first in the name and last in the place can match.
      if (
        !name.includes("<") &&
        name.length + postalCode.length + locality.length < SHORT_DOCUMENT &&
        !phraseMayMatch(query.root.terms, name, entry.place, places)
      )
        return false;
      // A phrase found in the name (or the place) alone is found in the document: it only adds positions.
      const alone =
        !name.includes("<") &&
        (cached(byName, name, () => matches(query, fieldLexemes(name))) ||
          (name.length + postalCode.length + locality.length < SHORT_DOCUMENT &&
            cached(byPlace, entry.place, () =>
              matches(query, fieldLexemes(` ${postalCode} ${locality}`)),
            )));
      if (alone) return true;
      return matches(query, streetLexemes(name, postalCode, locality));
    }
    const doc = streetLexemes(name, postalCode, locality);
    return queries.every((q) => matches(q, doc));
  };
  const [phrase] = checks;
  const [list] = lists;
  if (
    driver?.prefix === false &&
    lists.length === 1 &&
    list !== undefined &&
    checks.length === 1 &&
    phrase?.op === "phrase"
  ) {
    const at = phrase.terms.indexOf(driver as (typeof phrase.terms)[number]);
    if (at >= 0)
      return {
        positions: phraseByPlaces(candidates, list, phrase, at, places, passes),
        negated: false,
      };
  }
  // Each candidate's entry: looked up in every list when they are few, else found by one pass over the lists (a prefix has hundreds).
  const verdicts = new Int8Array(candidates.length);
  const entries = lists.reduce((sum, list) => sum + list.length, 0);
  if (candidates.length * lists.length * 16 <= entries)
    candidates.forEach(
      (position, k) => (verdicts[k] = passes(entryAt(lists, position) as ListEntry) ? 1 : -1),
    );
  else {
    // Both are in increasing order: one merge per list.
    for (const list of lists) {
      const positions = list.positions;
      for (let i = 0, k = 0; i < positions.length && k < candidates.length; i++) {
        const position = positions[i] as number;
        while (k < candidates.length && (candidates[k] as number) < position) k++;
        if (candidates[k] === position && verdicts[k] === 0)
          verdicts[k] = passes(list.entry(i)) ? 1 : -1;
      }
    }
  }
  return { positions: candidates.filter((_, k) => verdicts[k] === 1), negated: false };
}

const fieldLexemes = (text: string) => streetLexemes(text, "", "");

function cached<K>(cache: Map<K, boolean>, key: K, compute: () => boolean): boolean {
  let value = cache.get(key);
  if (value === undefined) cache.set(key, (value = compute()));
  return value;
}

const hasPhrase = (node: SearchNode): boolean =>
  node.op === "phrase" ||
  (node.op === "not"
    ? hasPhrase(node.operand)
    : node.op === "and" || node.op === "or"
      ? hasPhrase(node.left) || hasPhrase(node.right)
      : false);
