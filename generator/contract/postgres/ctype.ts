/**
 * The character classes and case mappings PostgreSQL's text search and regular expressions use,
 * per code point: the C locale's for ASCII, the server libc's (iswalpha, iswspace, towlower,
 * towupper) and PostgreSQL's zero-width "special" characters beyond, from the generated tables.
 * Explicit tables rather than JS's Unicode properties, which follow the JS engine's Unicode version.
 */
import { ALPHA, LOWER, SPACE, SPECIAL, UPPER } from "./data/pg-ctype.ts";

/** "aa,c0-d6" → sorted [start, end, start, end, …]. */
function decodeRanges(encoded: string): Uint32Array {
  const bounds = encoded.split(",").flatMap((range) => {
    const [start = "", end = start] = range.split("-");
    return [parseInt(start, 16), parseInt(end, 16)];
  });
  return Uint32Array.from(bounds);
}

function inRanges(ranges: Uint32Array, c: number): boolean {
  let low = 0;
  let high = ranges.length / 2;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (c < (ranges[2 * mid] ?? 0)) high = mid;
    else if (c > (ranges[2 * mid + 1] ?? 0)) low = mid + 1;
    else return true;
  }
  return false;
}

/** "41:1a:20:1" (start:count:delta:stride) → a code point map. */
function decodeRuns(encoded: string): Map<number, number> {
  const map = new Map<number, number>();
  for (const run of encoded.split(",")) {
    const [start = 0, count = 0, delta = 0, stride = 1] = run
      .split(":")
      .map((n) => parseInt(n, 16));
    for (let i = 0; i < count; i++) map.set(start + i * stride, start + i * stride + delta);
  }
  return map;
}

const alpha = decodeRanges(ALPHA);
const special = decodeRanges(SPECIAL);
const space = decodeRanges(SPACE);
const lower = decodeRuns(LOWER);
const upper = decodeRuns(UPPER);

/** The inclusive code point ranges of the libc classes beyond what isAlpha/isSpace test one by one (regular-expression classes). */
export const alphaRanges = (): Uint32Array => alpha;
export const spaceRanges = (): Uint32Array => space;

export const isAsciiLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
export const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
export const isAlpha = (c: number) => (c < 0x80 ? isAsciiLetter(c) : inRanges(alpha, c));
export const isAlnum = (c: number) => isDigit(c) || isAlpha(c);
/** Extends a word although not a letter (zero display width, spacing marks); never ASCII. */
export const isSpecial = (c: number) => c >= 0x80 && inRanges(special, c);
export const isSpace = (c: number) =>
  c < 0x80 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) : inRanges(space, c);
export const isHexDigit = (c: number) =>
  isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
export const toLower = (c: number): number => lower.get(c) ?? c;
export const toUpper = (c: number): number => upper.get(c) ?? c;

/** Every case mapping c → towlower(c) or towupper(c) that changes c. */
export function* casePairs(): Generator<[number, number]> {
  yield* lower;
  yield* upper;
}

/** Lower-cases code point by code point (towlower), as lowerstr_with_len does: no special casing. */
export function lowerCase(text: string): string {
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    const l = lower.get(c);
    out += l === undefined ? ch : String.fromCodePoint(l);
  }
  return out;
}

/** The length of a string in UTF-8 bytes (PostgreSQL's limits count bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return bytes;
}
