/**
 * Text to lexemes with positions as PostgreSQL's `to_tsvector('config_openplzapi', text)` makes
 * them (src/backend/tsearch/ts_parse.c, parsetext; to_tsany.c, uniqueWORD). config_openplzapi is
 * the original's copy of `german` with its word types sent through unaccent first:
 *
 * - word, hword, hword_part: unaccent → lower-case → stop word? → Snowball German stem;
 * - asciiword, asciihword, hword_asciipart: lower-case → stop word? → stem;
 * - numbers, hosts, e-mails, URLs, files, numword…: lower-case only (the `simple` dictionary);
 * - blanks, tags, entities, protocols: dropped without a position.
 *
 * A stop word takes a position but gives no lexeme. Positions start at 1.
 */
import { stemmer } from "@orama/stemmers/german";
import { lowerCase, utf8Length } from "./ctype.ts";
import { GERMAN_STOP_WORDS, UNACCENT_RULES } from "./data/pg-tsearch.ts";
import { parseTokens } from "./parser.ts";
import * as T from "./parser-tables.ts";
import { isolateMemo } from "../isolate-state.ts";

/** A lexeme at a position; `lexeme` is null for a stop word, which only takes its position. */
export interface PositionedLexeme {
  readonly lexeme: string | null;
  readonly position: number;
}

/** A document's lexemes, each with its positions in increasing order (a tsvector). */
export type DocumentLexemes = ReadonlyMap<string, readonly number[]>;

/** PostgreSQL's limits: longer tokens and lexemes are dropped (ts_type.h, MAXSTRLEN). */
const MAX_WORD_BYTES = 2047;
/** german_stem only lower-cases inputs longer than this (dict_snowball.c). */
const MAX_STEM_BYTES = 1000;
/** Positions above this are stored as this (LIMITPOS); at most 255 positions per lexeme (MAXNUMPOS). */
const MAX_POSITION = 16383;
const MAX_POSITIONS = 255;

const STOP_WORDS = new Set(GERMAN_STOP_WORDS.map(lowerCase));
const UNACCENT = new Map<number, string>();
for (let i = 0; i + 1 < UNACCENT_RULES.length; i += 2)
  UNACCENT.set(UNACCENT_RULES[i]?.codePointAt(0) ?? 0, UNACCENT_RULES[i + 1] ?? "");

/** unaccent per code point (every rule's source is one code point, so the trie's longest match is the map). */
export function unaccent(text: string): string {
  let out = "";
  for (const ch of text) out += UNACCENT.get(ch.codePointAt(0) ?? 0) ?? ch;
  return out;
}

/**
 * Snowball German (PostgreSQL ≤ 17's german_stem) on a lower-cased word. The package counts UTF-16
 * units where Snowball's C counts characters, so characters beyond the BMP (never vowels, never in
 * a suffix) stand in as one BMP noncharacter while stemming.
 */
export function stem(word: string): string {
  if (!/[\u{10000}-\u{10ffff}]/u.test(word)) return stemmer(word);
  const placeholder = [...Array(32).keys()]
    .map((i) => String.fromCharCode(0xfdd0 + i))
    .find((ch) => !word.includes(ch));
  if (placeholder === undefined) return stemmer(word);
  const astral: string[] = [];
  const stemmed = stemmer(
    word.replace(/[\u{10000}-\u{10ffff}]/gu, (ch) => (astral.push(ch), placeholder)),
  );
  let i = 0;
  return stemmed.replaceAll(placeholder, () => astral[i++] ?? "");
}

/** More than `bytes` UTF-8 bytes? (A UTF-16 unit is at most 3 bytes, so short strings need no count.) */
const tooLong = (text: string, bytes: number) =>
  text.length * 3 > bytes && utf8Length(text) > bytes;

/** german_stem's lexize (`ts_lexize('german_stem', token)`): null for a stop word (or an empty token). */
export function germanStem(token: string): string | null {
  const lower = lowerCase(token);
  if (tooLong(token, MAX_STEM_BYTES)) return lower;
  if (lower === "" || STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

/** The `simple` dictionary: lower-cased; empty is a stop word. */
const simple = (token: string): string | null => {
  const lower = lowerCase(token);
  return lower === "" ? null : lower;
};

/**
 * config_openplzapi's dictionaries per token type (blank, tag, entity, protocol: none). Street data
 * repeats its words (every street of a town names the town): each is computed once per isolate.
 */
const unaccentStem = isolateMemo(50_000, (token: string) => germanStem(unaccent(token)));
const stemOnly = isolateMemo(50_000, germanStem);
const simpleOnly = isolateMemo(50_000, simple);
const DICTIONARIES: ReadonlyMap<number, (token: string) => string | null> = new Map([
  ...[T.WORD, T.HWORD, T.PARTHWORD].map((type) => [type, unaccentStem] as const),
  ...[T.ASCIIWORD, T.ASCIIHWORD, T.ASCIIPARTHWORD].map((type) => [type, stemOnly] as const),
  ...[
    T.NUMWORD,
    T.NUMHWORD,
    T.NUMPARTHWORD,
    T.EMAIL,
    T.URL,
    T.HOST,
    T.SCIENTIFIC,
    T.VERSION,
    T.URLPATH,
    T.FILEPATH,
    T.DECIMAL,
    T.SIGNEDINT,
    T.UNSIGNEDINT,
  ].map((type) => [type, simpleOnly] as const),
]);
const hasDictionary = (type: number) => DICTIONARIES.has(type);

/** parsetext: every token's lexeme (or stop word) with its position, in text order. */
export function positionedLexemes(text: string): PositionedLexeme[] {
  const out: PositionedLexeme[] = [];
  let position = 0;
  for (const token of parseTokens(text, hasDictionary)) {
    if (tooLong(token.text, MAX_WORD_BYTES - 1)) continue;
    const lexeme = DICTIONARIES.get(token.type)?.(token.text) ?? null;
    position++;
    out.push({
      lexeme: lexeme !== null && tooLong(lexeme, MAX_WORD_BYTES) ? null : lexeme,
      position: Math.min(position, MAX_POSITION),
    });
  }
  return out;
}

/**
 * A document's lexemes with their positions, as `to_tsvector('config_openplzapi', text)`. For a
 * street, text is `Name PostalCode Locality` joined by single spaces (streetDocument), tokenised
 * as one string: positions run on across the three fields (see streetLexemes).
 */
export function lexemesOf(text: string): Map<string, number[]> {
  return collect(positionedLexemes(text));
}

/** uniqueWORD: each lexeme's positions in order, without repeats, at most MAX_POSITIONS. */
function collect(words: Iterable<PositionedLexeme>): Map<string, number[]> {
  const lexemes = new Map<string, number[]>();
  for (const { lexeme, position } of words) {
    if (lexeme === null) continue;
    const positions = lexemes.get(lexeme);
    if (positions === undefined) lexemes.set(lexeme, [position]);
    else if (positions.length < MAX_POSITIONS && positions.at(-1) !== position)
      positions.push(position);
  }
  return lexemes;
}

/** The text the original indexes for a street: `"Name" || ' ' || "PostalCode" || ' ' || "Locality"`. */
export const streetDocument = (name: string, postalCode: string, locality: string) =>
  `${name} ${postalCode} ${locality}`;

const fieldLexemes = isolateMemo(200_000, positionedLexemes);

/**
 * lexemesOf(streetDocument(name, postalCode, locality)), fast for a build: the name and
 * ` PostalCode Locality` are lexized once per distinct value and joined, the second's positions
 * shifted by the name's. Exact because no token of the default parser spans a space, except XML
 * tags and what a <script> or <style> tag hides: a name with `<` is lexized whole.
 */
export function streetLexemes(
  name: string,
  postalCode: string,
  locality: string,
): Map<string, number[]> {
  if (name.includes("<")) return lexemesOf(streetDocument(name, postalCode, locality));
  const head = fieldLexemes(name);
  const shift = head.at(-1)?.position ?? 0;
  if (shift >= MAX_POSITION) return lexemesOf(streetDocument(name, postalCode, locality));
  const tail = fieldLexemes(` ${postalCode} ${locality}`).map(({ lexeme, position }) => ({
    lexeme,
    position: Math.min(position + shift, MAX_POSITION),
  }));
  return collect([...head, ...tail]);
}

/**
 * A text lower-cased, and unaccented and lower-cased: every lexeme of the text lies in one of the
 * two, for a lexeme is its token so folded (unaccented for a word with letters beyond ASCII), then
 * stemmed, which only cuts a suffix (the dictionaries above).
 */
export function foldings(text: string): string[] {
  return [lowerCase(text), lowerCase(unaccent(text))];
}

/** Can a text (its foldings) have `lexeme`, or a lexeme that starts with it? Never false when it can. */
export const mayHold = (folded: readonly string[], lexeme: string): boolean =>
  folded.some((form) => form.includes(lexeme));
