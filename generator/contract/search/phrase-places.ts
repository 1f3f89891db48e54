/**
 * A phrase's candidates decided by their places and, where needed, their names alone, never by
 * their whole documents. The candidates are the entries of the phrase's rarest term's list (a
 * lexeme's). A street's document is its name's lexemes, then its place's (` PostalCode Locality`)
 * shifted by the name's last position, so a match lies in the name alone, in the place alone, or
 * runs from the name's end into the place: its terms before a split j at the name's end, the
 * others in the place at distances from the place's start that the place alone fixes. So, once
 * per postal code and locality: does the phrase lie in the place, and which is the first split
 * the place allows (`"Straße Berlin"` allows none: the postal code stands between a name and
 * Berlin)? An entry whose name bit is clear (store.ts PLAIN_NAME_LENGTH) has a plain name without
 * the rarest term, so the term is in the place: the place decides unless it allows a split before
 * that term. Another plain name without a split decides by its own lexemes, once per name. So
 * `"Berlin Straße"` lexizes Berlin's 246 places and the names of Berliner Straßen, not the names
 * of Berlin's 15,000 streets.
 */
import { lowerCase } from "../postgres/ctype.ts";
import { lexemesOf, streetLexemes, unaccent, type DocumentLexemes } from "../postgres/lexize.ts";
import { matches, type PhraseTerm, type SearchNode } from "../postgres/tsquery.ts";
import { placeLocality, type PlaceTable } from "./meta.ts";
import { lowerBound, type Postings } from "./postings.ts";
import { PLAIN_NAME_LENGTH, type ListEntry } from "./store.ts";

/**
 * A document of fewer characters has fewer than 255 tokens, so neither PostgreSQL's cap on a
 * lexeme's positions (255) nor on a position (16383) can drop a place's positions from it.
 */
export const SHORT_DOCUMENT = 250;

/** What a place says of a phrase: whether it lies in the place, the first split it allows (or none). */
interface PlaceVerdict {
  /** Is every document of this place with a plain name (shorter than PLAIN_NAME_LENGTH) short (SHORT_DOCUMENT)? */
  readonly short: boolean;
  readonly inPlace: boolean;
  readonly firstSplit: number;
}

type Phrase = SearchNode & { readonly op: "phrase" };

/**
 * The candidates (increasing, each on `list`: the list of the phrase's term `driver`, a lexeme)
 * that match the phrase; `passes` tests one on its whole document, for a name that is not plain.
 */
export function phraseByPlaces(
  candidates: Int32Array,
  list: Postings,
  phrase: Phrase,
  driver: number,
  places: PlaceTable,
  passes: (entry: ListEntry) => boolean,
): Int32Array {
  // Verdicts by place id (numbered as found), by locality and postal code length, and by text.
  const verdicts: PlaceVerdict[] = [];
  const verdictAt = new Int32Array(places.size);
  const muteCodes = new Int8Array(places.postalCodes.length);
  const byLocality = new Map<number, PlaceVerdict>();
  const byText = new Map<string, PlaceVerdict>();
  const byName = new Map<string, boolean>();
  const verdictOf = (place: number): PlaceVerdict => {
    const at = verdictAt[place] ?? 0;
    if (at > 0) return verdicts[at - 1] as PlaceVerdict;
    const code = places.postalCodeOf[place] ?? 0;
    const postalCode = places.postalCodes[code] ?? "";
    if (muteCodes[code] === 0) muteCodes[code] = isMute(postalCode, phrase) ? 1 : 2;
    // A mute postal code only takes a position: the locality decides (Berlin's 246 postal codes make one verdict).
    const key = (places.localityOf[place] ?? 0) * 64 + Math.min(postalCode.length, 63);
    let verdict = muteCodes[code] === 1 ? byLocality.get(key) : undefined;
    if (verdict === undefined) {
      verdict = placeVerdict(phrase, postalCode, placeLocality(places, place), byText);
      if (muteCodes[code] === 1) byLocality.set(key, verdict);
    }
    verdictAt[place] = verdicts.push(verdict);
    return verdict;
  };
  const out = new Int32Array(candidates.length);
  let n = 0;
  const decide = (i: number): boolean => {
    if (!list.inName(i)) {
      // The term is in the place: the match lies there, or splits before it, so the name decides.
      const verdict = verdictOf(list.seconds[i] as number);
      if (!verdict.short) return passes(list.entry(i));
      return verdict.inPlace || (verdict.firstSplit <= driver && passes(list.entry(i)));
    }
    const entry = list.entry(i);
    const name = entry.head.at(-1) ?? "";
    if (name.length >= PLAIN_NAME_LENGTH || name.includes("<")) return passes(entry);
    // A plain name's positions come first and are never dropped: a match in it is one in the document.
    if (inName(phrase, name, byName)) return true;
    const verdict = verdictOf(entry.place);
    if (!verdict.short || verdict.firstSplit < phrase.terms.length) return passes(entry);
    return verdict.inPlace;
  };
  const keep = (i: number) => {
    if (decide(i)) out[n++] = list.positions[i] as number;
  };
  const positions = list.positions;
  if (candidates.length * 16 <= positions.length)
    for (const position of candidates) keep(lowerBound(positions, position));
  else
    for (let i = 0, k = 0; i < positions.length && k < candidates.length; i++)
      if (positions[i] === candidates[k]) {
        keep(i);
        k++;
      }
  return out.subarray(0, n);
}

/** Does the phrase lie in a plain name alone (once per name)? */
function inName(phrase: Phrase, name: string, cache: Map<string, boolean>): boolean {
  let found = cache.get(name);
  if (found === undefined)
    cache.set(name, (found = matches({ root: phrase }, streetLexemes(name, "", ""))));
  return found;
}

/**
 * A postal code of digits is one token, its own lexeme: unless a term is that lexeme, it only
 * takes a position.
 */
const isMute = (postalCode: string, phrase: Phrase) =>
  /^[0-9]+$/.test(postalCode) &&
  !phrase.terms.some((t) => (t.prefix ? postalCode.startsWith(t.lexeme) : postalCode === t.lexeme));

function placeVerdict(
  phrase: Phrase,
  postalCode: string,
  locality: string,
  byText: Map<string, PlaceVerdict>,
): PlaceVerdict {
  const key = `${postalCode} ${locality}`;
  let verdict = byText.get(key);
  if (verdict !== undefined) return verdict;
  const short = PLAIN_NAME_LENGTH + postalCode.length + locality.length <= SHORT_DOCUMENT;
  const last = phrase.terms.at(-1);
  // The phrase's last term is in the place in every case that a place decides: a text without it is not lexized.
  if (last !== undefined && !mayHave(` ${key}`, last)) {
    verdict = { short, inPlace: false, firstSplit: phrase.terms.length };
    byText.set(key, verdict);
    return verdict;
  }
  const doc = lexemesOf(` ${key}`);
  let firstSplit = 1;
  while (firstSplit < phrase.terms.length && !splitPossible(doc, phrase.terms, firstSplit))
    firstSplit++;
  verdict = { short, inPlace: matches({ root: phrase }, doc), firstSplit };
  byText.set(key, verdict);
  return verdict;
}

/**
 * Can terms [split, …) lie in the place with terms [0, split) ending the name? With the first
 * term at the name's last position plus d, term i is at the place's position d + offset_i: the
 * name's terms need d + offset ≤ 0, the place's d + offset ≥ 1.
 */
function splitPossible(doc: DocumentLexemes, terms: readonly PhraseTerm[], split: number): boolean {
  const [first, last] = [terms[split], terms[split - 1]];
  if (first === undefined || last === undefined) return false;
  const later = terms.slice(split + 1).map((term) => ({ term, at: positionsOf(doc, term) }));
  return positionsOf(doc, first).some((at) => {
    const d = at - first.offset;
    return (
      d + last.offset <= 0 &&
      later.every(({ term, at: positions }) => positions.includes(d + term.offset))
    );
  });
}

/**
 * Can a text have a term's lexeme (false: it has not)? A lexeme is a piece of its token's
 * lower-cased text, unaccented for words (candidates.ts nameMayHave).
 */
const mayHave = (text: string, term: PhraseTerm) =>
  lowerCase(text).includes(term.lexeme) || lowerCase(unaccent(text)).includes(term.lexeme);

/** Where a term (a lexeme, or any lexeme with its prefix) is in a document. */
function positionsOf(doc: DocumentLexemes, term: PhraseTerm): number[] {
  if (!term.prefix) return [...(doc.get(term.lexeme) ?? [])];
  return [...doc].flatMap(([lexeme, at]) => (lexeme.startsWith(term.lexeme) ? at : []));
}
