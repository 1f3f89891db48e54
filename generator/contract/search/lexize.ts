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
for (let i = 0; i + 1 < UNACCENT_RULES.length; i += 2) UNACCENT.set(UNACCENT_RULES[i]?.codePointAt(0) ?? 0, UNACCENT_RULES[i + 1] ?? "");

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
  const placeholder = [...Array(32).keys()].map((i) => String.fromCharCode(0xfdd0 + i)).find((ch) => !word.includes(ch));
  if (placeholder === undefined) return stemmer(word);
  const astral: string[] = [];
  const stemmed = stemmer(word.replace(/[\u{10000}-\u{10ffff}]/gu, (ch) => (astral.push(ch), placeholder)));
  let i = 0;
  return stemmed.replaceAll(placeholder, () => astral[i++] ?? "");
}

/** german_stem's lexize (`ts_lexize('german_stem', token)`): null for a stop word (or an empty token). */
export function germanStem(token: string): string | null {
  const lower = lowerCase(token);
  if (utf8Length(token) > MAX_STEM_BYTES) return lower;
  if (lower === "" || STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

/** The `simple` dictionary: lower-cased; empty is a stop word. */
const simple = (token: string): string | null => {
  const lower = lowerCase(token);
  return lower === "" ? null : lower;
};

const UNACCENT_STEM = new Set([T.WORD, T.HWORD, T.PARTHWORD]);
const STEM = new Set([T.ASCIIWORD, T.ASCIIHWORD, T.ASCIIPARTHWORD]);
const SIMPLE = new Set([T.NUMWORD, T.NUMHWORD, T.NUMPARTHWORD, T.EMAIL, T.URL, T.HOST, T.SCIENTIFIC, T.VERSION, T.URLPATH, T.FILEPATH, T.DECIMAL, T.SIGNEDINT, T.UNSIGNEDINT]);

/** One token through config_openplzapi's dictionaries; undefined if its type has none (no position). */
function lexize(type: number, token: string): string | null | undefined {
  if (UNACCENT_STEM.has(type)) return germanStem(unaccent(token));
  if (STEM.has(type)) return germanStem(token);
  if (SIMPLE.has(type)) return simple(token);
  return undefined;
}

/** parsetext: every token's lexeme (or stop word) with its position, in text order. */
export function positionedLexemes(text: string): PositionedLexeme[] {
  const out: PositionedLexeme[] = [];
  let position = 0;
  for (const token of parseTokens(text)) {
    if (utf8Length(token.text) >= MAX_WORD_BYTES) continue;
    const lexeme = lexize(token.type, token.text);
    if (lexeme === undefined) continue;
    position++;
    out.push({ lexeme: lexeme !== null && utf8Length(lexeme) > MAX_WORD_BYTES ? null : lexeme, position: Math.min(position, MAX_POSITION) });
  }
  return out;
}

/**
 * A document's lexemes with their positions, as `to_tsvector('config_openplzapi', text)`. For a
 * street, text is `Name PostalCode Locality` joined by single spaces (streetDocument), tokenised
 * as one string: positions run on across the three fields.
 */
export function lexemesOf(text: string): Map<string, number[]> {
  const lexemes = new Map<string, number[]>();
  for (const { lexeme, position } of positionedLexemes(text)) {
    if (lexeme === null) continue;
    const positions = lexemes.get(lexeme);
    if (positions === undefined) lexemes.set(lexeme, [position]);
    else if (positions.length < MAX_POSITIONS && positions.at(-1) !== position) positions.push(position);
  }
  return lexemes;
}

/** The text the original indexes for a street: `"Name" || ' ' || "PostalCode" || ' ' || "Locality"`. */
export const streetDocument = (name: string, postalCode: string, locality: string) => `${name} ${postalCode} ${locality}`;
