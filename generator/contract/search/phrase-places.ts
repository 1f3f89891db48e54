/**
 * A phrase's candidates decided by their places, without reading their names. The candidates are
 * the entries of the phrase's rarest term's list (a lexeme's); an entry whose name bit is clear
 * (store.ts PLAIN_NAME_LENGTH) has a plain name without that lexeme, so the street has it in its
 * place. Its document is the name's lexemes, then the place's (` PostalCode Locality`) shifted by
 * the name's last position, so a match with that term in the place either lies in the place alone
 * (decided by the place) or runs from the name's end into the place: its terms before a split j
 * at the name's end, its others in the place at fixed distances from the place's start. A place
 * with neither (`"Straße Berlin"`: the postal code stands between the name and Berlin) rules out
 * its streets at once; only a place that allows a split sends its streets' names to be tested.
 * `"Berlin Straße"` tests the names of Berliner Straßen only, not those of every street in Berlin.
 */
import { lexemesOf, type DocumentLexemes } from "../postgres/lexize.ts";
import { matches, type PhraseTerm, type SearchNode } from "../postgres/tsquery.ts";
import { placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";
import { lowerBound, type Postings } from "./postings.ts";
import { PLAIN_NAME_LENGTH, type ListEntry } from "./store.ts";

/**
 * A document of fewer characters has fewer than 255 tokens, so neither PostgreSQL's cap on a
 * lexeme's positions (255) nor on a position (16383) can drop a place's positions from it.
 */
export const SHORT_DOCUMENT = 250;

/**
 * What a place says of a phrase through its streets whose names lack the rarest term: none
 * matches, every one does (the phrase is in the place), or each one's name decides (a split at
 * the name's end is possible, or the document may be long).
 */
const Verdict = { No: 0, Yes: 1, Name: 2 } as const;
type Verdict = (typeof Verdict)[keyof typeof Verdict];

/**
 * The candidates (increasing, each on `list`: the list of the phrase's term `driver`, a lexeme)
 * that match the phrase; `passes` tests one on its whole document, for those the place leaves open.
 */
export function phraseByPlaces(
  candidates: Int32Array,
  list: Postings,
  phrase: SearchNode & { readonly op: "phrase" },
  driver: number,
  places: PlaceTable,
  passes: (entry: ListEntry) => boolean,
): Int32Array {
  const verdicts = new Map<number, Verdict>();
  const out = new Int32Array(candidates.length);
  let n = 0;
  const decide = (i: number) => {
    const place = list.seconds[i] as number;
    let verdict = list.inName(i) ? Verdict.Name : verdicts.get(place);
    if (verdict === undefined)
      verdicts.set(place, (verdict = placeVerdict(phrase, driver, places, place)));
    if (verdict === Verdict.Yes || (verdict === Verdict.Name && passes(list.entry(i))))
      out[n++] = list.positions[i] as number;
  };
  const positions = list.positions;
  if (candidates.length * 16 <= positions.length)
    for (const position of candidates) decide(lowerBound(positions, position));
  else
    for (let i = 0, k = 0; i < positions.length && k < candidates.length; i++)
      if (positions[i] === candidates[k]) {
        decide(i);
        k++;
      }
  return out.subarray(0, n);
}

function placeVerdict(
  phrase: SearchNode & { readonly op: "phrase" },
  driver: number,
  places: PlaceTable,
  place: number,
): Verdict {
  const [postalCode, locality] = [placePostalCode(places, place), placeLocality(places, place)];
  // A clear name bit bounds the name's length, so this bounds the document's.
  if (PLAIN_NAME_LENGTH + postalCode.length + locality.length > SHORT_DOCUMENT) return Verdict.Name;
  const doc = lexemesOf(` ${postalCode} ${locality}`);
  if (matches({ root: phrase }, doc)) return Verdict.Yes;
  // The rarest term is in the place, so a split comes before it.
  for (let split = 1; split <= driver; split++)
    if (splitPossible(doc, phrase.terms, split)) return Verdict.Name;
  return Verdict.No;
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

/** Where a term (a lexeme, or any lexeme with its prefix) is in a document. */
function positionsOf(doc: DocumentLexemes, term: PhraseTerm): number[] {
  if (!term.prefix) return [...(doc.get(term.lexeme) ?? [])];
  return [...doc].flatMap(([lexeme, at]) => (lexeme.startsWith(term.lexeme) ? at : []));
}
