/**
 * The character sets of class shorthands and bracket expressions, as PostgreSQL 17 builds them on
 * a libc UTF-8 database: `\d` the ASCII digits (glibc's iswdigit), `\s` iswspace, `\w` iswalnum
 * and `_` (regc_locale.c), from the same ctype tables the street filters use.
 */
import { alphaRanges, casePairs, spaceRanges, toLower, toUpper } from "../postgres/ctype.ts";
import { mergeRanges, type Range } from "./ast.ts";

const DIGITS: readonly Range[] = [[0x30, 0x39]];

function beyondAscii(table: Uint32Array): Range[] {
  const ranges: Range[] = [];
  for (let i = 0; i + 1 < table.length; i += 2) {
    const from = Math.max(table[i] ?? 0, 0x80);
    const to = table[i + 1] ?? 0;
    if (from <= to) ranges.push([from, to]);
  }
  return ranges;
}

let word: readonly Range[] | undefined;
let space: readonly Range[] | undefined;

/** The ranges of a class shorthand letter (d, s or w). */
export function shorthandRanges(letter: "d" | "s" | "w"): readonly Range[] {
  if (letter === "d") return DIGITS;
  if (letter === "s")
    return (space ??= mergeRanges([[0x09, 0x0d], [0x20, 0x20], ...beyondAscii(spaceRanges())]));
  return (word ??= mergeRanges([
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
    ...beyondAscii(alphaRanges()),
  ]));
}

/** `~*`'s set for one pattern character: towlower(c) and towupper(c) (allcases; c itself only through them). */
export function caseVariants(code: number): Range[] {
  const lower = toLower(code);
  const upper = toUpper(code);
  return lower === upper
    ? [[lower, lower]]
    : [
        [lower, lower],
        [upper, upper],
      ];
}

/** Widest range whose members are looked up one by one; a wider one scans the case pairs instead. */
const SCANNED_RANGE = 1024;

/**
 * A bracket range under `~*`: the range itself and the case variants of its members that fall
 * outside it. A narrow range (`a-z`, the usual) looks up its own members, so a pattern of many
 * such brackets costs its brackets' widths rather than a pass over every case pair each.
 */
export function rangeWithCases(from: number, to: number): Range[] {
  const ranges: Range[] = [[from, to]];
  const add = (mapped: number) => {
    if (mapped < from || mapped > to) ranges.push([mapped, mapped]);
  };
  if (to - from < SCANNED_RANGE)
    for (let c = from; c <= to; c++) {
      add(toLower(c));
      add(toUpper(c));
    }
  else for (const [c, mapped] of casePairs()) if (c >= from && c <= to) add(mapped);
  return ranges;
}
