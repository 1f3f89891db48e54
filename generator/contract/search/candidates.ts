/**
 * A candidate street's lexemes, for the few queries whose plan checks candidates one by one
 * (fulltext.ts): without phrases only which lexemes a street has matters, not where, so its
 * name's and its place's lexemes, each worked out once per isolate, are looked up side by side.
 */
import { lowerCase } from "../postgres/ctype.ts";
import { lexemesOf, streetLexemes, unaccent } from "../postgres/lexize.ts";
import { placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";
import { matches, type LexemeMatch, type SearchNode } from "../postgres/tsquery.ts";
import { isolateMap } from "../isolate-state.ts";

/** A document's lexemes, to look up and to list. */
interface Lexemes {
  readonly set: ReadonlySet<string>;
  readonly list: readonly string[];
}
const lexemesFrom = (text: string): Lexemes => {
  const list = [...lexemesOf(text).keys()];
  return { set: new Set(list), list };
};

/**
 * Does a street match a query without phrases? Only which lexemes it has matters: its name's or
 * its place's (a name with `<` is lexized whole, as the build does).
 */
export function streetMatches(
  node: SearchNode,
  name: string,
  place: number,
  places: PlaceTable,
): boolean {
  if (name.includes("<"))
    return matches(
      { root: node },
      streetLexemes(name, placePostalCode(places, place), placeLocality(places, place)),
    );
  return evaluate(node, nameLexemes(name), placeLexemes(places, place));
}

/** Has a field a lexeme the term matches? */
const hasTerm = (field: Lexemes, term: LexemeMatch) =>
  term.prefix ? field.list.some((l) => l.startsWith(term.lexeme)) : field.set.has(term.lexeme);

/**
 * Can a phrase (terms in offset order) match a street's document of a name and a place (not
 * clamped: a short document, no `<`)? Only when every term is in the name, or every term in the
 * place, or it spans them: its first term in the name and its last in the place. Decided on the
 * fields' texts first (mayHaveTerm), then on the lexemes (kept per isolate) of only the fields
 * whose texts hold the terms a case needs, so most candidates' names are never lexized.
 */
export function phraseMayMatch(
  terms: readonly LexemeMatch[],
  name: string,
  place: number,
  places: PlaceTable,
): boolean {
  const [first, last] = [terms[0], terms.at(-1)];
  if (first === undefined || last === undefined) return false;
  const [keptName, keptPlace] = [byName.get(name), byPlace.get(places)?.[place]];
  if (keptName !== undefined && keptPlace !== undefined)
    return (
      terms.every((term) => hasTerm(keptName, term)) ||
      terms.every((term) => hasTerm(keptPlace, term)) ||
      (hasTerm(keptName, first) && hasTerm(keptPlace, last))
    );
  // Which cases the fields' texts allow; only those are decided on lexemes.
  const [nameText, placeText] = [nameTexts(name), placeTexts(places, place)];
  const allInName = terms.every((term) => mayHaveTerm(nameText, term));
  const allInPlace = terms.every((term) => mayHaveTerm(placeText, term));
  const spans = mayHaveTerm(nameText, first) && mayHaveTerm(placeText, last);
  if (allInPlace && terms.every((term) => hasTerm(placeLexemes(places, place), term))) return true;
  if (!allInName && !spans) return false;
  const inName = nameLexemes(name);
  return (
    (allInName && terms.every((term) => hasTerm(inName, term))) ||
    (spans && hasTerm(inName, first) && hasTerm(placeLexemes(places, place), last))
  );
}

/**
 * A name's text as its lexemes are cut from it: lower-cased after unaccent (words) and lower-cased
 * alone (numbers, hosts: the `simple` dictionary). A stem only drops a suffix of its token's
 * lower-cased unaccented text (ß, already `ss`, and umlauts, already plain vowels, are all that
 * Snowball German rewrites), so each of the name's lexemes is found in one of the two.
 */
function nameTexts(name: string): readonly [string, string] {
  let texts = textsByName.get(name);
  if (texts === undefined) {
    if (textsByName.size >= NAMES_KEPT) textsByName.clear();
    textsByName.set(name, (texts = [lowerCase(unaccent(name)), lowerCase(name)]));
  }
  return texts;
}
const textsByName = isolateMap<string, readonly [string, string]>();
const textsByPlace = new WeakMap<PlaceTable, (readonly [string, string] | undefined)[]>();
function placeTexts(places: PlaceTable, id: number): readonly [string, string] {
  let cache = textsByPlace.get(places);
  if (cache === undefined) textsByPlace.set(places, (cache = []));
  let texts = cache[id];
  if (texts === undefined) {
    const text = ` ${placePostalCode(places, id)} ${placeLocality(places, id)}`;
    cache[id] = texts = [lowerCase(unaccent(text)), lowerCase(text)];
  }
  return texts;
}

/** Can the name have the term (false: it has not)? A lexeme, or a prefix's lexemes, lie in its text. */
const mayHaveTerm = (texts: readonly [string, string], term: LexemeMatch) =>
  texts[0].includes(term.lexeme) || texts[1].includes(term.lexeme);

/** Can a name have a lexeme (or a lexeme with this prefix)? False: it has not (lexemesOf). */
export const nameMayHave = (name: string, lexeme: string) =>
  mayHaveTerm(nameTexts(name), { lexeme, prefix: false });

function evaluate(node: SearchNode, name: Lexemes, place: Lexemes): boolean {
  switch (node.op) {
    case "lexeme":
      return hasTerm(name, node) || hasTerm(place, node);
    case "not":
      return !evaluate(node.operand, name, place);
    case "and":
      return evaluate(node.left, name, place) && evaluate(node.right, name, place);
    case "or":
      return evaluate(node.left, name, place) || evaluate(node.right, name, place);
    case "phrase":
      throw new Error("streetMatches: a phrase needs positions");
  }
}

/** Lexemes per name and per place, kept per isolate (names repeat across queries; at most NAMES_KEPT). */
const NAMES_KEPT = 100_000;
const byName = isolateMap<string, Lexemes>();
function nameLexemes(name: string): Lexemes {
  let lexemes = byName.get(name);
  if (lexemes === undefined) {
    if (byName.size >= NAMES_KEPT) byName.clear();
    byName.set(name, (lexemes = lexemesFrom(name)));
  }
  return lexemes;
}
const byPlace = new WeakMap<PlaceTable, (Lexemes | undefined)[]>();
function placeLexemes(places: PlaceTable, id: number): Lexemes {
  let cache = byPlace.get(places);
  if (cache === undefined) byPlace.set(places, (cache = []));
  return (cache[id] ??= lexemesFrom(
    ` ${placePostalCode(places, id)} ${placeLocality(places, id)}`,
  ));
}
