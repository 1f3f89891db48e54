/**
 * A candidate street's lexemes, for the few queries whose plan checks candidates one by one
 * (fulltext.ts): without phrases only which lexemes a street has matters, not where, so its
 * name's and its place's lexemes, each worked out once per isolate, are looked up side by side.
 */
import { lexemesOf, streetLexemes, type DocumentLexemes } from "./lexize.ts";
import { placeLocality, placePostalCode, type PlaceTable } from "./meta.ts";

/** A document's lexemes, to look up and to list. */
interface Lexemes {
  readonly set: ReadonlySet<string>;
  readonly list: readonly string[];
}
const lexemesFrom = (text: string): Lexemes => {
  const list = [...lexemesOf(text).keys()];
  return { set: new Set(list), list };
};

/** The lexemes of two documents as one, for `matches` without phrases (which asks only `has` and `keys`). */
class LexemeUnion {
  constructor(
    private readonly first: Lexemes,
    private readonly second: Lexemes,
  ) {}
  has(lexeme: string): boolean {
    return this.first.set.has(lexeme) || this.second.set.has(lexeme);
  }
  keys(): readonly string[] {
    return this.first.list.concat(this.second.list);
  }
}

/** A street's lexemes without their positions (only for `matches` of a query without phrases). */
export function streetLexemeSet(name: string, place: number, places: PlaceTable): DocumentLexemes {
  if (name.includes("<")) return streetLexemes(name, placePostalCode(places, place), placeLocality(places, place));
  return new LexemeUnion(nameLexemes(name), placeLexemes(places, place)) as unknown as DocumentLexemes;
}

/** Lexemes per name and per place, kept per isolate (names repeat across queries; at most NAMES_KEPT). */
const NAMES_KEPT = 100_000;
const byName = new Map<string, Lexemes>();
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
  return (cache[id] ??= lexemesFrom(` ${placePostalCode(places, id)} ${placeLocality(places, id)}`));
}
