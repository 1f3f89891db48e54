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
import { lowerCase } from "../postgres/ctype.ts";
import { lexemesOf, streetLexemes, unaccent } from "../postgres/lexize.ts";
import {
  matches,
  type LexemeMatch,
  type PhraseTerm,
  type SearchNode,
} from "../postgres/tsquery.ts";
import { isolateMap } from "../isolate-state.ts";
import { termKey } from "./bitmaps.ts";
import { withBit } from "./kernels.ts";
import { placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";
import { entryAt, type Postings } from "./postings.ts";
import { byPlaces, SHORT_DOCUMENT } from "./phrases.ts";
import type { ListEntry } from "./store.ts";

type Phrase = SearchNode & { readonly op: "phrase" };

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
  const [inName, inPlace] = [new Map<string, boolean>(), new Map<number, boolean>()];
  const passes = (entry: ListEntry): boolean => {
    if (rest.length === 1 && phrase?.op === "phrase")
      return phrasePasses(phrase, entry, places, inName, inPlace);
    if (!positional) return rest.every((check) => streetMatches(check, entry, places));
    const doc = document(entry, places);
    return rest.every((root) => matches({ root }, doc));
  };
  const [list] = lists;
  const at =
    driver === undefined || phrase?.op !== "phrase"
      ? -1
      : phrase.terms.indexOf(driver as PhraseTerm);
  if (at >= 0 && !driver?.prefix && lists.length === 1 && rest.length === 1 && list !== undefined)
    return {
      positions: byPlaces(candidates, list, phrase as Phrase, at, places, passes),
      negated: false,
    };
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

/**
 * A phrase on a street: only all its words in the name, all in the place, or the first in the name
 * and the last in the place can match; found in the name (or the place) alone, it is found in the
 * document, which only adds positions (`inName`, `inPlace`: those verdicts, once per request).
 */
function phrasePasses(
  phrase: Phrase,
  entry: ListEntry,
  places: PlaceTable,
  inName: Map<string, boolean>,
  inPlace: Map<number, boolean>,
): boolean {
  const name = entry.head[entry.head.length - 1] ?? "";
  const plain =
    !name.includes("<") && name.length + placeText(places, entry.place).length - 2 < SHORT_DOCUMENT;
  if (plain && !phraseMayMatch(phrase.terms, name, entry.place, places)) return false;
  const alone = (text: string) => matches({ root: phrase }, streetLexemes(text, "", ""));
  if (!name.includes("<") && memo(inName, name, () => alone(name))) return true;
  if (plain && memo(inPlace, entry.place, () => alone(placeText(places, entry.place)))) return true;
  return matches({ root: phrase }, document(entry, places));
}

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

/**
 * Can a phrase (terms in offset order) match a short document of a name and a place? Decided on
 * the fields' texts first (a lexeme is a piece of its token's lower-cased text, unaccented for
 * words: a stem only drops a suffix), then on the lexemes of only the fields that may hold the
 * terms a case needs, so most candidates' names are never lexized.
 */
function phraseMayMatch(
  terms: readonly PhraseTerm[],
  name: string,
  place: number,
  places: PlaceTable,
): boolean {
  const [first, last] = [terms[0], terms.at(-1)];
  if (first === undefined || last === undefined) return false;
  const [nameText, inPlaceText] = [texts(name), placeTexts(places, place)];
  const mayHave = (t: readonly [string, string], term: LexemeMatch) =>
    t[0].includes(term.lexeme) || t[1].includes(term.lexeme);
  const allInName = terms.every((term) => mayHave(nameText, term));
  const allInPlace = terms.every((term) => mayHave(inPlaceText, term));
  const spans = mayHave(nameText, first) && mayHave(inPlaceText, last);
  if (allInPlace && terms.every((term) => hasTerm(placeLexemes(places, place), term))) return true;
  if (!allInName && !spans) return false;
  const ofName = nameLexemes(name);
  return (
    (allInName && terms.every((term) => hasTerm(ofName, term))) ||
    (spans && hasTerm(ofName, first) && hasTerm(placeLexemes(places, place), last))
  );
}

/** Names worked out per isolate (names repeat across queries), at most NAMES_KEPT; places per place table. */
const NAMES_KEPT = 100_000;
const byName = isolateMap<string, Lexemes>();
const textsByName = isolateMap<string, readonly [string, string]>();
function memo<K, V>(cache: Map<K, V>, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= NAMES_KEPT) cache.clear();
    cache.set(key, (value = make()));
  }
  return value;
}
const nameLexemes = (name: string) => memo(byName, name, () => lexemesFrom(name));
/** A text lower-cased after unaccent (words) and lower-cased alone (numbers): each of its lexemes is a piece of one. */
const textsOf = (text: string) => [lowerCase(unaccent(text)), lowerCase(text)] as const;
const texts = (name: string) => memo(textsByName, name, () => textsOf(name));
type PlaceKept = {
  lexemes: (Lexemes | undefined)[];
  texts: (readonly [string, string] | undefined)[];
};
const perPlace = new WeakMap<PlaceTable, PlaceKept>();
const ofPlace = (places: PlaceTable) =>
  perPlace.get(places) ??
  (perPlace.set(places, { lexemes: [], texts: [] }).get(places) as PlaceKept);
const placeLexemes = (places: PlaceTable, id: number) =>
  (ofPlace(places).lexemes[id] ??= lexemesFrom(placeText(places, id)));
const placeTexts = (places: PlaceTable, id: number) =>
  (ofPlace(places).texts[id] ??= textsOf(placeText(places, id)));
