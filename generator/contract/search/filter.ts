/**
 * The `/Streets` filters `name`, `postalCode` and `locality`. The original matches them as
 * PostgreSQL regular expressions, found anywhere in the value: `"Name" ~* ('(?p)' || @name)`,
 * `"PostalCode" ~ ('(?p)' || @postalCode)`, `"Locality" ~* ('(?p)' || @locality)`.
 *
 * Plain text (found anywhere), `^` at the start and `$` at the end (anchors), and a backslash
 * before any character but an ASCII letter or digit (literal: `Str\.`) are read here and matched
 * by string search. `]` and `}` are literal as in PostgreSQL. Every other value is a regular
 * expression (`. [ ( | ? * + {`, `\d`, anchors in the middle, …): parsed and compiled by
 * regex/pattern.ts, its `pattern` tested by a linear-time engine, its name planned on the n-gram
 * lists by regex-plan.ts. A pattern the engine cannot evaluate as PostgreSQL would, or that is no
 * regular expression, is a FilterSyntaxError naming the construct, never a different answer.
 *
 * `~*` compares each pattern character c with the value's characters in {towlower(c),
 * towupper(c)} (regc_locale.c, allcases): per character, no multi-character folding (`STRASSE`
 * does not find `Straße`), and a titlecase `ǅ` does not even find itself.
 */
import { toLower, toUpper } from "../postgres/ctype.ts";
import { caseClass, representative } from "./filter-case.ts";
import type { Node } from "../regex/ast.ts";
import { alphabetOf } from "../regex/alphabet.ts";
import { compilePattern, patternErrorMessage, type PatternResult } from "../regex/pattern.ts";
import { isolateMap, isolateMemo } from "../isolate-state.ts";

export type FilterParameter = "name" | "postalCode" | "locality";

export interface StreetFilter {
  readonly parameter: FilterParameter;
  /** The literal characters to find, in order (code points; escapes resolved). */
  readonly literal: readonly number[];
  readonly anchoredStart: boolean;
  readonly anchoredEnd: boolean;
  /** `~*` (name, locality) rather than `~` (postalCode). */
  readonly ignoreCase: boolean;
  /** The value characters each literal character accepts, two per position: {towlower(c), towupper(c)}, or c twice. */
  readonly accepts: Int32Array;
  /** The same test by the engine's own string search, where that is exact (nativeTest). */
  readonly native?: (value: string) => boolean;
  /** A regular expression (`literal` then empty and unused): its parse and its test. */
  readonly pattern?: { readonly tree: Node; readonly test: (value: string) => boolean };
}

/** A filter value that is refused; `message` names the parameter and what is refused. */
export class FilterSyntaxError extends Error {
  readonly parameter: FilterParameter;
  readonly value: string;

  constructor(parameter: FilterParameter, value: string, message: string) {
    super(message);
    this.name = "FilterSyntaxError";
    this.parameter = parameter;
    this.value = value;
  }
}

/** A value outside the literal subset: read as a regular expression instead. */
class NotPlain extends Error {}

const SYNTAX = new Set([".", "[", "(", ")", "*", "+", "?", "{", "|", "^", "$"]);
const isAsciiAlnum = (ch: string) => /^[A-Za-z0-9]$/.test(ch);

/**
 * Reads a filter value: plain text, else a regular expression; throws FilterSyntaxError for one
 * that is refused. `characters`: every character of the values the filter will test (the
 * index's meta), to which a pattern's classes are cut (regex/alphabet.ts: the same verdicts on
 * those values, a smaller engine); without them the pattern is whole.
 */
export function parseStreetFilter(
  parameter: FilterParameter,
  value: string,
  characters?: string,
): StreetFilter {
  try {
    return parsePlainFilter(parameter, value);
  } catch (error) {
    if (!(error instanceof NotPlain)) throw error;
  }
  const ignoreCase = parameter !== "postalCode";
  const compiled = keptPattern(value, ignoreCase, characters);
  if (!compiled.ok)
    throw new FilterSyntaxError(parameter, value, patternErrorMessage(parameter, compiled.error));
  const { tree, test } = compiled.pattern;
  const base = { anchoredStart: false, anchoredEnd: false, ignoreCase };
  return { parameter, literal: [], ...base, accepts: new Int32Array(), pattern: { tree, test } };
}

/**
 * Patterns compiled per isolate: a pattern asked again (the next page, the same form) skips
 * compiling and starts from the engine's states built before.
 */
const KEPT_PATTERNS = 64;
const keptPatterns = isolateMap<string, PatternResult>();
function keptPattern(value: string, ignoreCase: boolean, characters?: string): PatternResult {
  const key = `${characters ?? ""}\n${ignoreCase ? "~*" : "~"}${value}`;
  const kept = keptPatterns.get(key);
  if (kept !== undefined) return kept;
  const alphabet = characters === undefined ? undefined : alphabetOf([characters]);
  const compiled = compilePattern(value, { ignoreCase }, alphabet);
  if (keptPatterns.size >= KEPT_PATTERNS)
    keptPatterns.delete(keptPatterns.keys().next().value ?? "");
  keptPatterns.set(key, compiled);
  return compiled;
}

/** The literal subset; throws NotPlain for anything else. */
function parsePlainFilter(parameter: FilterParameter, value: string): StreetFilter {
  const chars = Array.from(value);
  const fail = (reason: string): never => {
    throw new NotPlain(reason);
  };
  if (value.includes("\0")) fail("it contains the character U+0000");
  let anchoredStart = false;
  let anchoredEnd = false;
  const literal: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? "";
    if (ch === "\\") {
      const next = chars[++i];
      if (next === undefined) fail("it ends with a backslash");
      else if (isAsciiAlnum(next)) fail(`'\\${next}' is a regular-expression escape`);
      else literal.push(next.codePointAt(0) ?? 0);
    } else if (ch === "^" && i === 0) anchoredStart = true;
    else if (ch === "$" && i === chars.length - 1) anchoredEnd = true;
    else if (ch === "^" || ch === "$")
      fail(`'${ch}' anchors only at the ${ch === "^" ? "start" : "end"}`);
    else if (SYNTAX.has(ch)) fail(`'${ch}' is regular-expression syntax`);
    else literal.push(ch.codePointAt(0) ?? 0);
  }
  const ignoreCase = parameter !== "postalCode";
  const accepts = Int32Array.from(
    literal.flatMap((c) => (ignoreCase ? [toLower(c), toUpper(c)] : [c, c])),
  );
  const filter = { parameter, literal, anchoredStart, anchoredEnd, ignoreCase, accepts };
  const native = nativeTest(filter);
  return native === undefined ? filter : { ...filter, native };
}

/**
 * filterMatches by the engine's string search, for the literals where it gives the same answer:
 * without case, any literal of BMP characters that are not surrogates (so a match never starts
 * inside a pair); ignoring case, an ASCII literal whose characters accept exactly their ASCII
 * lower and upper case, as a RegExp with the `i` flag and without `u`, which never lets a
 * character beyond ASCII match an ASCII one (ECMA-262 Canonicalize).
 */
function nativeTest({
  literal,
  anchoredStart,
  anchoredEnd,
  ignoreCase,
  accepts,
}: StreetFilter): ((value: string) => boolean) | undefined {
  if (literal.some((c) => c > 0xffff || (c >= 0xd800 && c <= 0xdfff))) return undefined;
  const text = literalText(literal);
  if (!ignoreCase) {
    if (anchoredStart && anchoredEnd) return (value) => value === text;
    if (anchoredStart) return (value) => value.startsWith(text);
    if (anchoredEnd) return (value) => value.endsWith(text);
    return (value) => value.includes(text);
  }
  const asciiCase = literal.every(
    (c, k) =>
      c < 0x80 &&
      accepts[2 * k] === String.fromCharCode(c).toLowerCase().charCodeAt(0) &&
      accepts[2 * k + 1] === String.fromCharCode(c).toUpperCase().charCodeAt(0),
  );
  if (!asciiCase) return classTest(literal, accepts, anchoredStart, anchoredEnd);
  const pattern = new RegExp(
    `${anchoredStart ? "^" : ""}${text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")}${anchoredEnd ? "$" : ""}`,
    "i",
  );
  return (value) => pattern.test(value);
}

/**
 * Any other literal ignoring case as a RegExp of explicit classes, each literal character's two
 * accepted code points (`[\u{73}\u{53}]`), with `u` and without `i`: it compares code points as
 * matchesAt does and never starts a match inside a surrogate pair, as filterMatches steps over
 * them. A literal with a surrogate code point of its own keeps matchesAt.
 */
function classTest(
  literal: readonly number[],
  accepts: Int32Array,
  anchoredStart: boolean,
  anchoredEnd: boolean,
): ((value: string) => boolean) | undefined {
  const point = (c: number) => `\\u{${c.toString(16)}}`;
  if ([...literal, ...accepts].some((c) => c >= 0xd800 && c <= 0xdfff)) return undefined;
  let source = "";
  for (let k = 0; k < literal.length; k++)
    source += `[${point(accepts[2 * k] ?? 0)}${point(accepts[2 * k + 1] ?? 0)}]`;
  const pattern = new RegExp(`${anchoredStart ? "^" : ""}${source}${anchoredEnd ? "$" : ""}`, "u");
  return (value) => pattern.test(value);
}

/** Does a value (a street's name, its postal code or its locality) match, as PostgreSQL's `~*` / `~` would? */
/** A filter's literal as text. Not String.fromCodePoint(...literal): a spread passes every character as an argument, and a long literal overflows the stack. */
export function literalText(literal: readonly number[]): string {
  return literal.map((c) => String.fromCodePoint(c)).join("");
}

export function filterMatches(filter: StreetFilter, value: string): boolean {
  if (filter.pattern !== undefined) return filter.pattern.test(value);
  if (filter.native !== undefined) return filter.native(value);
  if (filter.anchoredStart) return matchesAt(filter, value, 0);
  for (
    let start = 0;
    start < value.length;
    start += (value.codePointAt(start) ?? 0) > 0xffff ? 2 : 1
  )
    if (matchesAt(filter, value, start)) return true;
  return filter.literal.length === 0;
}

/** The literal at UTF-16 offset start of the value (and, if anchored, ending at its end). */
function matchesAt(filter: StreetFilter, value: string, start: number): boolean {
  const { accepts } = filter;
  let i = start;
  for (let k = 0; k < accepts.length; k += 2) {
    if (i >= value.length) return false;
    const c = value.codePointAt(i) ?? 0;
    if (c !== accepts[k] && c !== accepts[k + 1]) return false;
    i += c > 0xffff ? 2 : 1;
  }
  return !filter.anchoredEnd || i === value.length;
}

/**
 * A case-insensitive key for candidate lookups (e.g. trigrams): characters that `~*` may match to
 * each other map to one representative (the smallest code point of their {c, towlower(c),
 * towupper(c)} closure). Sound, not exact: confirm candidates with filterMatches.
 */
export function caseFoldKey(text: string): string {
  let out = "";
  for (const ch of text) out += String.fromCodePoint(representative(ch.codePointAt(0) ?? 0));
  return out;
}

/** Per caseFoldKey character, the characters of `characters` (a column's) that fold to it; kept per isolate. */
export const foldMembers = isolateMemo(4, (characters: string): ReadonlyMap<string, string> => {
  const members = new Map<string, string>();
  for (const ch of characters)
    members.set(caseFoldKey(ch), (members.get(caseFoldKey(ch)) ?? "") + ch);
  return members;
});

/**
 * Does every value whose case-folded form contains the literal's own key (caseFoldKey) match the
 * filter (`atStart`: every value whose folded form starts with it, `atEnd`: ends with it)? So when
 * the filter is anchored where the list is (nowhere, at the start, at the end), ignores case and
 * each literal character's case class (the characters caseFoldKey maps with it, of those
 * `occurring` in the values) is no more than what `~*` accepts for it: then the runs on the list
 * of its n-gram are exactly those that pass, and none needs testing.
 */
export function foldIsExact(
  filter: StreetFilter,
  occurring: ReadonlySet<number>,
  atStart = false,
  atEnd = false,
): boolean {
  if (filter.anchoredStart !== atStart || filter.anchoredEnd !== atEnd || !filter.ignoreCase)
    return false;
  return filter.literal.every((c, k) =>
    caseClass(c).every(
      (d) => d === filter.accepts[2 * k] || d === filter.accepts[2 * k + 1] || !occurring.has(d),
    ),
  );
}
