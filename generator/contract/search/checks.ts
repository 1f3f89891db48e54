/**
 * The document check (plan.ts): full-text candidates tested one by one against what their lists
 * cannot decide, the terms a plan does not read and phrases (adjacency). A bit of a term's bitmap
 * decides it (or rules out a phrase's candidate without the word); the rest is tested on the
 * candidate's name and place (its entry on a list read), each worked out once per name and per
 * place and kept per isolate, and only then on the whole document. A phrase's candidates on its
 * rarest lexeme's list are decided by their places where their names lack that lexeme: once per
 * place, does the phrase lie in the place, and which split of its terms between the name's end
 * and the place can the place take (`"Straße Berlin"` none: the postal code stands between).
 */
import { lexemesOf, streetLexemes } from "../postgres/lexize.ts";
import {
  matches,
  type LexemeMatch,
  type PhraseTerm,
  type SearchNode,
} from "../postgres/tsquery.ts";
import { isolateMemo } from "../isolate-state.ts";
import { termKey } from "./bitmaps.ts";
import { withBit } from "./kernels.ts";
import { placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";
import { entryAt, type Postings } from "./postings.ts";
import { byPlaces, NAMES_KEPT, PhraseOnStreets } from "./phrases.ts";
import type { ListEntry } from "./store.ts";

/** What a check reads: the lists holding the candidates, the places, the bitmaps of checked terms (by termKey). */
export interface CheckInputs {
  readonly postings: (term: LexemeMatch) => readonly Postings[];
  readonly places: PlaceTable | undefined;
  readonly bitmaps: ReadonlyMap<string, Uint32Array>;
}

/** The candidates whose documents match every check; `terms`: those whose lists hold every candidate; `driver`: a phrase's rarest. */
export function checked(
  candidates: Int32Array,
  terms: readonly LexemeMatch[],
  checks: readonly SearchNode[],
  inputs: CheckInputs,
  driver?: LexemeMatch,
): { readonly positions: Int32Array; readonly negated: false } {
  const rest: SearchNode[] = [];
  for (const check of checks) {
    // A phrase's words are each in its document: a candidate without one is out.
    if (check.op === "phrase")
      for (const t of check.terms) {
        const bits = inputs.bitmaps.get(termKey(t));
        if (bits !== undefined) candidates = withBit(candidates, bits, 1);
      }
    const leaf = check.op === "not" ? check.operand : check;
    const bits = leaf.op === "lexeme" ? inputs.bitmaps.get(termKey(leaf)) : undefined;
    if (bits === undefined) rest.push(check);
    else candidates = withBit(candidates, bits, check.op === "not" ? 0 : 1);
  }
  const places = inputs.places;
  if (rest.length === 0 || places === undefined || candidates.length === 0)
    return { positions: rest.length === 0 ? candidates : new Int32Array(), negated: false };
  const lists = terms.flatMap((term) => inputs.postings(term));
  const [phrase] = rest;
  const positional = rest.some(hasPhrase);
  const whole = (entry: ListEntry): boolean => {
    if (!positional) return rest.every((check) => streetMatches(check, entry, places));
    const doc = document(entry, places);
    return rest.every((root) => matches({ root }, doc));
  };
  const one = rest.length === 1 && phrase?.op === "phrase";
  const test = one ? new PhraseOnStreets(phrase, places, whole) : undefined;
  const passes = (entry: ListEntry): boolean => test?.passes(entry) ?? whole(entry);
  const [list] = lists;
  const at = !one || driver === undefined ? -1 : phrase.terms.indexOf(driver as PhraseTerm);
  if (at >= 0 && !driver?.prefix && lists.length === 1 && list !== undefined)
    return { positions: byPlaces(candidates, list, at, test as PhraseOnStreets), negated: false };
  const out = new Int32Array(candidates.length);
  let n = 0;
  for (const position of candidates)
    if (passes(entryAt(lists, position) as ListEntry)) out[n++] = position;
  return { positions: out.subarray(0, n), negated: false };
}

/** Does a query need positions (a phrase)? */
export const hasPhrase = (node: SearchNode): boolean =>
  node.op === "phrase" ||
  (node.op === "not"
    ? hasPhrase(node.operand)
    : node.op !== "lexeme" && (hasPhrase(node.left) || hasPhrase(node.right)));

/** A document's lexemes, to look up and to list. */
type Lexemes = { readonly set: ReadonlySet<string>; readonly list: readonly string[] };
const lexemesFrom = (text: string): Lexemes => {
  const list = [...lexemesOf(text).keys()];
  return { set: new Set(list), list };
};
const hasTerm = (field: Lexemes, term: LexemeMatch) =>
  term.prefix ? field.list.some((l) => l.startsWith(term.lexeme)) : field.set.has(term.lexeme);
const placeText = (places: PlaceTable, id: number) =>
  ` ${placePostalCode(places, id)} ${placeLocality(places, id)}`;
const document = (entry: ListEntry, places: PlaceTable) =>
  streetLexemes(
    entry.head.at(-1) ?? "",
    placePostalCode(places, entry.place),
    placeLocality(places, entry.place),
  );

/** Does a street match a query without phrases? Only which lexemes it has matters: its name's or its place's. */
function streetMatches(node: SearchNode, entry: ListEntry, places: PlaceTable): boolean {
  const name = entry.head[entry.head.length - 1] ?? "";
  if (name.includes("<")) return matches({ root: node }, document(entry, places));
  const [inName, inPlace] = [nameLexemes(name), placeLexemes(places, entry.place)];
  const evaluate = (n: SearchNode): boolean => {
    if (n.op === "lexeme") return hasTerm(inName, n) || hasTerm(inPlace, n);
    if (n.op === "not") return !evaluate(n.operand);
    if (n.op === "phrase") throw new Error("streetMatches: a phrase needs positions");
    return n.op === "and"
      ? evaluate(n.left) && evaluate(n.right)
      : evaluate(n.left) || evaluate(n.right);
  };
  return evaluate(node);
}

/** Names worked out per isolate (names repeat across queries), at most NAMES_KEPT; places per place table. */
const nameLexemes = isolateMemo(NAMES_KEPT, lexemesFrom);
const perPlace = new WeakMap<PlaceTable, (Lexemes | undefined)[]>();
const placeLexemes = (places: PlaceTable, id: number) => {
  let kept = perPlace.get(places);
  if (kept === undefined) perPlace.set(places, (kept = []));
  return (kept[id] ??= lexemesFrom(placeText(places, id)));
};
