/**
 * The document check (plan.ts, docs/SEARCH.md "Checks"): full-text candidates tested against what
 * their lists cannot decide (terms a plan does not read, phrases), on a term's bit where it has a
 * bitmap, else on the candidate's name and place, each worked out once, and only then on the
 * whole document. A phrase's candidates are decided by their places where a place can decide.
 */
import {
  foldings,
  lexemesOf,
  mayHold,
  streetLexemes,
  type DocumentLexemes,
} from "../postgres/lexize.ts";
import {
  lexemesOfQuery,
  matches,
  requiredLexemes,
  type LexemeMatch,
  type PhraseTerm,
  type SearchNode,
} from "../postgres/tsquery.ts";
import { isolateMemo } from "../isolate-state.ts";
import { termKey } from "./bitmaps.ts";
import { gallop, withBit, type Streets } from "./kernels.ts";
import { placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";
import { entryAt, type Postings } from "./postings.ts";
import { PLAIN_NAME_LENGTH, type ListEntry } from "./store.ts";

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
): Streets {
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
  const lexemes = rest.map((check) => lexemesOfQuery({ root: check }).map((t) => t.lexeme));
  const required = rest.flatMap(requiredLexemes);
  const whole = (entry: ListEntry): boolean => {
    if (lacksOne(entry, required, places)) return false;
    if (!positional)
      return rest.every((check, i) => streetMatches(check, entry, places, lexemes[i] ?? []));
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
const document = (entry: ListEntry, places: PlaceTable) =>
  streetLexemes(
    entry.head.at(-1) ?? "",
    placePostalCode(places, entry.place),
    placeLocality(places, entry.place),
  );

/** Does a street match a query without phrases (`terms`: its lexemes)? Only which its name or place has matters. */
function streetMatches(
  node: SearchNode,
  entry: ListEntry,
  places: PlaceTable,
  terms: readonly string[],
): boolean {
  const name = entry.head[entry.head.length - 1] ?? "";
  if (name.includes("<")) return matches({ root: node }, document(entry, places));
  const [inName, inPlace] = [nameLexemes(name), placeLexemes(places, entry.place, terms)];
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
const NAMES_KEPT = 100_000;
const nameLexemes = isolateMemo(NAMES_KEPT, lexemesFrom);
/** A plain name's lexemes alone, with their positions. */
const nameDocument = isolateMemo(NAMES_KEPT, (name: string) => streetLexemes(name, "", ""));
/** Per place table, each place's lexemes and its text's two folded forms (foldings), as worked out. */
type Kept = { lexemes: Lexemes[]; folded: string[][] };
const perPlace = new WeakMap<PlaceTable, Kept>();
const keptOf = (places: PlaceTable) =>
  perPlace.get(places) ?? (perPlace.set(places, { lexemes: [], folded: [] }).get(places) as Kept);
const placeText = (places: PlaceTable, id: number) =>
  ` ${placePostalCode(places, id)} ${placeLocality(places, id)}`;
const placeFoldings = (places: PlaceTable, id: number): readonly string[] =>
  (keptOf(places).folded[id] ??= foldings(placeText(places, id)));
const NO_LEXEMES: Lexemes = { set: new Set(), list: [] };
/** A place's lexemes, none when its text holds none of `terms`. */
const placeLexemes = (places: PlaceTable, id: number, terms: readonly string[]) => {
  const kept = keptOf(places);
  const folded = kept.lexemes[id] === undefined ? placeFoldings(places, id) : undefined;
  if (folded !== undefined && !terms.some((lexeme) => mayHold(folded, lexeme))) return NO_LEXEMES;
  return (kept.lexemes[id] ??= lexemesFrom(placeText(places, id)));
};
const nameFoldings = isolateMemo(NAMES_KEPT, foldings);

/**
 * Does a street's document lack one of `required` (lexemes, or starts of lexemes)? Told from the
 * folded texts of its name and place, which no token spans (lexize.ts streetLexemes), without
 * lexizing either; a name with `<` is lexized with its place, so it is never said to lack one.
 */
function lacksOne(entry: ListEntry, required: readonly string[], places: PlaceTable): boolean {
  if (required.length === 0) return false;
  const name = entry.head[entry.head.length - 1] ?? "";
  if (name.includes("<")) return false;
  const [inName, inPlace] = [nameFoldings(name), placeFoldings(places, entry.place)];
  return required.some((lexeme) => !mayHold(inName, lexeme) && !mayHold(inPlace, lexeme));
}

export type Phrase = SearchNode & { readonly op: "phrase" };

/**
 * A document of fewer characters has fewer than 255 tokens, so neither PostgreSQL's cap on a
 * lexeme's positions (255) nor on a position (16383) drops a place's positions from it.
 */
const SHORT_DOCUMENT = 250;

/** What a place says of a phrase: is every plain document of it short, does the phrase lie in it, the first split it takes. */
type PlaceVerdict = {
  readonly short: boolean;
  readonly inPlace: boolean;
  readonly firstSplit: number;
};

/**
 * A phrase tested on streets, decided without their whole documents where a name or a place
 * decides (`whole`: the test of a whole document, for the rest). Verdicts are kept per place for
 * one request, a name's lexemes per isolate.
 */
class PhraseOnStreets {
  private readonly verdicts = new Map<number, PlaceVerdict>();
  private readonly byKey = new Map<string, PlaceVerdict>();
  /** Per postal code's number in the place table, its key (postalCodeKey). */
  private readonly codeKeys = new Map<number, string>();

  constructor(
    readonly phrase: Phrase,
    private readonly places: PlaceTable,
    readonly whole: (entry: ListEntry) => boolean,
  ) {}

  /** What place p says of the phrase: places alike but for a mute postal code share it (keyed by their locality's number). */
  verdict(place: number): PlaceVerdict {
    let verdict = this.verdicts.get(place);
    if (verdict === undefined) {
      const { phrase, places } = this;
      const code = places.postalCodeOf[place] ?? 0;
      let codeKey = this.codeKeys.get(code);
      if (codeKey === undefined)
        this.codeKeys.set(code, (codeKey = postalCodeKey(phrase, placePostalCode(places, place))));
      const key = `${codeKey} ${places.localityOf[place] ?? 0}`;
      this.byKey.set(key, (verdict = this.byKey.get(key) ?? placeVerdict(phrase, places, place)));
      this.verdicts.set(place, verdict);
    }
    return verdict;
  }

  /**
   * Does the phrase match a street? A plain name's positions come first and are never dropped: a
   * match in the name alone is one in the document. Else, when the place keeps every position
   * (short) and takes no split of the terms, only the place alone can hold the phrase.
   */
  passes(entry: ListEntry): boolean {
    const name = entry.head.at(-1) ?? "";
    if (name.length >= PLAIN_NAME_LENGTH || name.includes("<")) return this.whole(entry);
    // In the name alone only when it may hold every term (a name that cannot is not lexized).
    const inName = nameFoldings(name);
    if (this.phrase.terms.every((t) => mayHold(inName, t.lexeme)))
      if (matches({ root: this.phrase }, nameDocument(name))) return true;
    const verdict = this.verdict(entry.place);
    return !verdict.short || verdict.firstSplit < this.phrase.terms.length
      ? this.whole(entry)
      : verdict.inPlace;
  }
}

/**
 * The candidates (increasing, each on `list`, the phrase's term `driver`'s, a lexeme) that match.
 * An entry whose name bit is clear has a plain name without the term, so the term is in the place:
 * the place decides unless it takes a split before the term. The others as `test.passes`.
 */
function byPlaces(
  candidates: Int32Array,
  list: Postings,
  driver: number,
  test: PhraseOnStreets,
): Int32Array {
  const decide = (i: number): boolean => {
    if (list.inName(i)) return test.passes(list.entry(i));
    const verdict = test.verdict(list.seconds[i] as number);
    if (!verdict.short) return test.whole(list.entry(i));
    return verdict.inPlace || (verdict.firstSplit <= driver && test.whole(list.entry(i)));
  };
  const out = new Int32Array(candidates.length);
  let n = 0;
  for (let i = 0, k = 0; k < candidates.length; k++) {
    i = gallop(list.positions, candidates[k] as number, i);
    if (list.positions[i] === candidates[k] && decide(i)) out[n++] = candidates[k] as number;
  }
  return out.subarray(0, n);
}

/** A postal code of digits that no term is (a mute one) only takes a position: `#` for each digit. */
const postalCodeKey = (phrase: Phrase, code: string) =>
  /^[0-9]+$/.test(code) &&
  !phrase.terms.some((t) => (t.prefix ? code.startsWith(t.lexeme) : code === t.lexeme))
    ? "#".repeat(code.length)
    : code;

function placeVerdict(phrase: Phrase, places: PlaceTable, place: number): PlaceVerdict {
  const [postalCode, locality] = [placePostalCode(places, place), placeLocality(places, place)];
  const short = PLAIN_NAME_LENGTH + postalCode.length + locality.length <= SHORT_DOCUMENT;
  const last = phrase.terms.at(-1)?.lexeme ?? "";
  // The phrase's last term is in the place in every case that a place decides: a text without it is not lexized.
  if (!mayHold(placeFoldings(places, place), last))
    return { short, inPlace: false, firstSplit: phrase.terms.length };
  const doc = lexemesOf(placeText(places, place));
  let firstSplit = 1;
  while (firstSplit < phrase.terms.length && !splitPossible(doc, phrase.terms, firstSplit))
    firstSplit++;
  return { short, inPlace: matches({ root: phrase }, doc), firstSplit };
}

/**
 * Can terms [split, …) lie in the place with terms [0, split) ending the name? With the first term
 * at the name's last position plus d, term i is at the place's position d + offset_i: the name's
 * terms need d + offset ≤ 0, the place's d + offset ≥ 1.
 */
function splitPossible(doc: DocumentLexemes, terms: readonly PhraseTerm[], split: number): boolean {
  const [first, last] = [terms[split], terms[split - 1]];
  if (first === undefined || last === undefined) return false;
  const positionsOf = (term: PhraseTerm) =>
    term.prefix
      ? [...doc].flatMap(([lexeme, at]) => (lexeme.startsWith(term.lexeme) ? at : []))
      : [...(doc.get(term.lexeme) ?? [])];
  const later = terms.slice(split + 1).map((term) => ({ term, at: positionsOf(term) }));
  return positionsOf(first).some((at) => {
    const d = at - first.offset;
    return (
      d + last.offset <= 0 &&
      later.every(({ term, at: positions }) => positions.includes(d + term.offset))
    );
  });
}
