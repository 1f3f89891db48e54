/**
 * A phrase's candidates on its rarest lexeme's list decided by their places where their names
 * lack that lexeme (checks.ts): once per place, does the phrase lie in the place, and which split
 * of its terms between the name's end and the place can the place take (`"Straße Berlin"` none:
 * the postal code stands between a name and its locality). So `"Berlin Straße"` reads the names of
 * Berliner Straßen, not those of Berlin's streets.
 */
import { lowerCase } from "../postgres/ctype.ts";
import { lexemesOf, streetLexemes, unaccent, type DocumentLexemes } from "../postgres/lexize.ts";
import { matches, type PhraseTerm, type SearchNode } from "../postgres/tsquery.ts";
import { gallop } from "./kernels.ts";
import { placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";
import type { Postings } from "./postings.ts";
import { PLAIN_NAME_LENGTH, type ListEntry } from "./store.ts";

type Phrase = SearchNode & { readonly op: "phrase" };

/**
 * A document of fewer characters has fewer than 255 tokens, so neither PostgreSQL's cap on a
 * lexeme's positions (255) nor on a position (16383) drops a place's positions from it.
 */
export const SHORT_DOCUMENT = 250;

/** What a place says of a phrase: is every plain document of it short, does the phrase lie in it, the first split it takes. */
type PlaceVerdict = {
  readonly short: boolean;
  readonly inPlace: boolean;
  readonly firstSplit: number;
};

/**
 * The candidates (increasing, each on `list`, the phrase's term `driver`'s, a lexeme) that match.
 * An entry whose name bit is clear has a plain name without the term, so the term is in the place:
 * the place decides unless it takes a split before the term. Another plain name decides by its own
 * lexemes when the place takes no split; `passes` tests the rest on their whole documents.
 */
export function byPlaces(
  candidates: Int32Array,
  list: Postings,
  phrase: Phrase,
  driver: number,
  places: PlaceTable,
  passes: (entry: ListEntry) => boolean,
): Int32Array {
  const verdicts = new Map<number, PlaceVerdict>();
  const byText = new Map<string, PlaceVerdict>();
  const verdictOf = (place: number): PlaceVerdict => {
    let verdict = verdicts.get(place);
    if (verdict === undefined) {
      const postalCode = placePostalCode(places, place);
      // A postal code of digits that no term is (a mute one) only takes a position: the locality decides.
      const mute =
        /^[0-9]+$/.test(postalCode) &&
        !phrase.terms.some((t) =>
          t.prefix ? postalCode.startsWith(t.lexeme) : postalCode === t.lexeme,
        );
      const key = `${mute ? "#".repeat(postalCode.length) : postalCode} ${placeLocality(places, place)}`;
      verdict = byText.get(key) ?? placeVerdict(phrase, postalCode, placeLocality(places, place));
      byText.set(key, verdict);
      verdicts.set(place, verdict);
    }
    return verdict;
  };
  const inNames = new Map<string, boolean>();
  const decide = (i: number): boolean => {
    if (!list.inName(i)) {
      const verdict = verdictOf(list.seconds[i] as number);
      if (!verdict.short) return passes(list.entry(i));
      return verdict.inPlace || (verdict.firstSplit <= driver && passes(list.entry(i)));
    }
    const entry = list.entry(i);
    const name = entry.head.at(-1) ?? "";
    if (name.length >= PLAIN_NAME_LENGTH || name.includes("<")) return passes(entry);
    // A plain name's positions come first and are never dropped: a match in it is one in the document.
    let alone = inNames.get(name);
    if (alone === undefined)
      inNames.set(name, (alone = matches({ root: phrase }, streetLexemes(name, "", ""))));
    if (alone) return true;
    const verdict = verdictOf(entry.place);
    return !verdict.short || verdict.firstSplit < phrase.terms.length
      ? passes(entry)
      : verdict.inPlace;
  };
  const out = new Int32Array(candidates.length);
  let n = 0;
  for (let i = 0, k = 0; k < candidates.length; k++) {
    i = gallop(list.positions, candidates[k] as number, i);
    if (list.positions[i] === candidates[k] && decide(i)) out[n++] = candidates[k] as number;
  }
  return out.subarray(0, n);
}

function placeVerdict(phrase: Phrase, postalCode: string, locality: string): PlaceVerdict {
  const text = ` ${postalCode} ${locality}`;
  const short = PLAIN_NAME_LENGTH + postalCode.length + locality.length <= SHORT_DOCUMENT;
  const last = phrase.terms.at(-1)?.lexeme ?? "";
  // The phrase's last term is in the place in every case that a place decides: a text without it is not lexized.
  if (![lowerCase(text), lowerCase(unaccent(text))].some((t) => t.includes(last)))
    return { short, inPlace: false, firstSplit: phrase.terms.length };
  const doc = lexemesOf(text);
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
