/**
 * A phrase tested on streets without their whole documents where a name or a place decides
 * (checks.ts): once per place, does the phrase lie in the place, and which split of its terms
 * between the name's end and the place can the place take (`"Straße Berlin"` none: the postal
 * code stands between a name and its locality); once per plain name, does the phrase lie in it.
 * A phrase's candidates on its rarest lexeme's list are decided by their places where their names
 * lack that lexeme, so `"Berlin Straße"` reads the names of Berliner Straßen, not those of
 * Berlin's streets.
 */
import { lowerCase } from "../postgres/ctype.ts";
import { lexemesOf, streetLexemes, unaccent, type DocumentLexemes } from "../postgres/lexize.ts";
import { matches, type PhraseTerm, type SearchNode } from "../postgres/tsquery.ts";
import { isolateMemo } from "../isolate-state.ts";
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

/** Names whose lexemes an isolate keeps (names repeat across queries); past it the memos begin again. */
export const NAMES_KEPT = 100_000;
/** A plain name's lexemes alone, with their positions. */
const nameDocument = isolateMemo(NAMES_KEPT, (name: string) => streetLexemes(name, "", ""));

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
export class PhraseOnStreets {
  private readonly verdicts = new Map<number, PlaceVerdict>();
  private readonly byText = new Map<string, PlaceVerdict>();

  constructor(
    readonly phrase: Phrase,
    private readonly places: PlaceTable,
    readonly whole: (entry: ListEntry) => boolean,
  ) {}

  /** What place p says of the phrase: places alike but for a mute postal code share it. */
  verdict(place: number): PlaceVerdict {
    let verdict = this.verdicts.get(place);
    if (verdict === undefined) {
      const { phrase, places } = this;
      const postalCode = placePostalCode(places, place);
      // A postal code of digits that no term is (a mute one) only takes a position: the locality decides.
      const mute =
        /^[0-9]+$/.test(postalCode) &&
        !phrase.terms.some((t) =>
          t.prefix ? postalCode.startsWith(t.lexeme) : postalCode === t.lexeme,
        );
      const key = `${mute ? "#".repeat(postalCode.length) : postalCode} ${placeLocality(places, place)}`;
      verdict =
        this.byText.get(key) ?? placeVerdict(phrase, postalCode, placeLocality(places, place));
      this.byText.set(key, verdict);
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
export function byPlaces(
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
