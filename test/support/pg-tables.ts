/**
 * Derives the search module's vendored tables from PostgreSQL itself (PGlite 0.4.6 = PostgreSQL
 * 17.5) and renders them as the TypeScript modules under generator/contract/postgres/data/.
 * `npm run search-tables` writes them; test/unit/search-tables.test.ts proves the committed files
 * equal to what PostgreSQL says today.
 *
 * - character classes of the default text-search parser (iswalpha/iswspace of the server's libc,
 *   and PostgreSQL's zero-width "special" characters), read off the parser's own tokens;
 * - towlower/towupper per code point (to_tsvector lower-cases with towlower; `~*` folds a pattern
 *   character to {towlower, towupper});
 * - unaccent.rules and german.stop as shipped in PostgreSQL's share directory.
 */
import type { PGlite } from "@electric-sql/pglite";
import { column, shareFile } from "./pglite.ts";

const MAX = 0x10ffff;
const CHUNK = 0x8000;
const isSurrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;

function* chunks(from: number): Generator<number[]> {
  for (let start = from; start <= MAX; start += CHUNK) {
    const points: number[] = [];
    for (let c = start; c < Math.min(start + CHUNK, MAX + 1); c++)
      if (!isSurrogate(c)) points.push(c);
    yield points;
  }
}

const codePoints = (text: string) => [...text].map((ch) => ch.codePointAt(0) ?? 0);

export interface CtypeTables {
  readonly alpha: number[];
  readonly special: number[];
  readonly space: number[];
  readonly lower: [number, number][];
  readonly upper: [number, number][];
}

/**
 * Non-ASCII code points only (ASCII is the C locale's, hard-coded). The parser sees a lone
 * non-ASCII character as `word` when it is alpha; after an ASCII letter it continues the word when
 * it is alpha or special; inside `<a…b>` it keeps the tag when it is space or alnum. None of these
 * characters can start any other parser state, so long strings of them parse item by item.
 */
export async function deriveCtype(db: PGlite): Promise<CtypeTables> {
  // The tokens of one type joined in PostgreSQL, one row per chunk: a row per token (about 27,000
  // per chunk, over a hundred chunks) cost most of the test's time in passing rows out of wasm.
  // Only which code points occur is read, so joining them loses nothing.
  const tokens = async (text: string, type: number) =>
    codePoints(
      (
        await column<string | null>(
          db,
          "SELECT string_agg(token, '') FROM ts_parse('default', $1) WHERE tokid = $2",
          [text, type],
        )
      )[0] ?? "",
    );
  const alpha = new Set<number>();
  const wordy = new Set<number>();
  const tagged = new Set<number>();
  for (const points of chunks(0x80)) {
    const chars = points.map((c) => String.fromCodePoint(c));
    for (const c of await tokens(chars.map((ch) => ` ${ch}`).join(""), 2)) alpha.add(c);
    for (const c of await tokens(chars.map((ch) => ` a${ch}`).join(""), 2)) wordy.add(c);
    for (const c of await tokens(chars.map((ch) => `<a${ch}b> `).join(""), 13)) tagged.add(c);
  }
  const lower: [number, number][] = [];
  const upper: [number, number][] = [];
  for (const points of chunks(1)) {
    const text = String.fromCodePoint(...points);
    const [lowered, uppered, lexized] = await column<string[]>(
      db,
      "SELECT ARRAY[lower($1), upper($1), (ts_lexize('simple', $1))[1]]",
      [text],
    ).then((rows) => rows[0] ?? []);
    const [l, u, s] = [lowered, uppered, lexized].map((t) => codePoints(t ?? ""));
    if (l?.length !== points.length || u?.length !== points.length || s?.length !== points.length)
      throw new Error("case mapping is not one code point to one");
    points.forEach((c, i) => {
      if (s[i] !== l[i])
        throw new Error(`to_tsvector's lower-casing differs from lower() at U+${c.toString(16)}`);
      if (l[i] !== c) lower.push([c, l[i] ?? c]);
      if (u[i] !== c) upper.push([c, u[i] ?? c]);
    });
  }
  const sorted = (set: Iterable<number>) => [...set].filter((c) => c >= 0x80).sort((a, b) => a - b);
  return {
    alpha: sorted(alpha),
    special: sorted([...wordy].filter((c) => !alpha.has(c))),
    space: sorted([...tagged].filter((c) => !alpha.has(c) && !wordy.has(c))),
    lower,
    upper,
  };
}

/** unaccent.rules as unaccent.c's initTrie reads it: `SRC<white>DST`, a quoted DST with `""`, no DST deletes. */
export function parseUnaccentRules(text: string): [string, string][] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const match = /^(\S+)(?:[ \t]+(?:"((?:[^"]|"")*)"|(\S+)))?\s*$/u.exec(line);
      if (match === null) throw new Error(`unreadable unaccent rule: ${JSON.stringify(line)}`);
      const source = match[1] ?? "";
      if ([...source].length !== 1)
        throw new Error(`unaccent rule with a multi-character source: ${JSON.stringify(line)}`);
      return [source, match[2] !== undefined ? match[2].replaceAll('""', '"') : (match[3] ?? "")];
    });
}

export interface VendoredFiles {
  readonly unaccent: [string, string][];
  readonly stopWords: string[];
}

export async function readVendoredFiles(db: PGlite): Promise<VendoredFiles> {
  const unaccent = parseUnaccentRules(await shareFile(db, "tsearch_data/unaccent.rules"));
  const stopWords = (await shareFile(db, "tsearch_data/german.stop"))
    .split("\n")
    .map((w) => w.trim())
    .filter((w) => w !== "");
  return { unaccent, stopWords };
}

// ---- rendering -------------------------------------------------------------------------------

const hex = (n: number) => n.toString(16);
const HEADER = (what: string) =>
  `// GENERATED by \`npm run search-tables\` (test/support/pg-tables.ts) from PostgreSQL 17.5 as
// PGlite 0.4.6 ships it; test/unit/search-tables.test.ts proves it unchanged. Do not edit.
// ${what}
`;

/** Sorted code points as hex ranges: "aa,b5,c0-d6". */
export function encodeRanges(points: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < points.length;) {
    let j = i;
    while (j + 1 < points.length && points[j + 1] === (points[j] ?? 0) + 1) j++;
    out.push(i === j ? hex(points[i] ?? 0) : `${hex(points[i] ?? 0)}-${hex(points[j] ?? 0)}`);
    i = j + 1;
  }
  return out.join(",");
}

/** Case pairs as runs "start:count:delta:stride" (hex, delta signed): A-Z is "41:1a:20:1". */
export function encodeRuns(pairs: readonly [number, number][]): string {
  const out: string[] = [];
  for (let i = 0; i < pairs.length;) {
    const [start, to] = pairs[i] ?? [0, 0];
    const delta = to - start;
    const next = pairs[i + 1];
    const stride =
      next !== undefined && next[1] - next[0] === delta && next[0] - start <= 2
        ? next[0] - start
        : 1;
    let count = 1;
    while (true) {
      const p = pairs[i + count];
      if (p === undefined || p[0] !== start + count * stride || p[1] - p[0] !== delta) break;
      count++;
    }
    out.push(
      `${hex(start)}:${hex(count)}:${delta < 0 ? "-" : ""}${hex(Math.abs(delta))}:${stride}`,
    );
    i += count;
  }
  return out.join(",");
}

/** A long string as string literals of at most `width` characters, joined with `+`. */
function literal(text: string, width = 110): string {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += width) parts.push(JSON.stringify(text.slice(i, i + width)));
  return parts.join(" +\n  ");
}

export function renderCtypeModule(t: CtypeTables): string {
  return `${HEADER("Character classes and case mappings of PostgreSQL's server (libc: musl in PGlite), non-ASCII only.")}
/** iswalpha: the parser's letters. */
export const ALPHA =
  ${literal(encodeRanges(t.alpha))};

/** Zero display width or a spacing mark (wparser_def.c, p_isspecial), and not alpha: extends a word, cannot start one. */
export const SPECIAL =
  ${literal(encodeRanges(t.special))};

/** iswspace. */
export const SPACE = ${JSON.stringify(encodeRanges(t.space))};

/** towlower, as runs start:count:delta:stride. */
export const LOWER =
  ${literal(encodeRuns(t.lower))};

/** towupper, as runs start:count:delta:stride. */
export const UPPER =
  ${literal(encodeRuns(t.upper))};
`;
}

/** Readable where the character is; escaped where it would be invisible or confusing in an editor. */
const quote = (s: string) =>
  JSON.stringify(s).replace(/[\p{M}\p{C}\p{Z}]/gu, (ch) =>
    ch === " " ? ch : `\\u${hex(ch.charCodeAt(0)).padStart(4, "0")}`,
  );

export function renderVendoredModule(files: VendoredFiles): string {
  const rules: string[] = [];
  for (let i = 0; i < files.unaccent.length; i += 8) {
    rules.push(
      files.unaccent
        .slice(i, i + 8)
        .map(([s, d]) => `${quote(s)}, ${quote(d)}`)
        .join(", "),
    );
  }
  const words: string[] = [];
  for (let i = 0; i < files.stopWords.length; i += 16)
    words.push(
      files.stopWords
        .slice(i, i + 16)
        .map((w) => JSON.stringify(w))
        .join(", "),
    );
  return `${HEADER("unaccent.rules and german.stop from PostgreSQL's share/tsearch_data.")}//
// unaccent.rules: PostgreSQL's contrib/unaccent, PostgreSQL License (Portions Copyright (c)
// 1996-2024, PostgreSQL Global Development Group; Portions Copyright (c) 1994, The Regents of the
// University of California).
// german.stop: the Snowball project's German stop-word list (snowballstem.org, BSD-style licence,
// see PostgreSQL's src/backend/snowball/README), as PostgreSQL ships it.

/** unaccent.rules in file order: source character, replacement (empty: the character is deleted). */
export const UNACCENT_RULES: readonly string[] = [
  ${rules.join(",\n  ")},
];

/** german.stop in file order. */
export const GERMAN_STOP_WORDS: readonly string[] = [
  ${words.join(",\n  ")},
];
`;
}
