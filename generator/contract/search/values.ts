/**
 * The value filter (docs/SEARCH.md, "Checks"): which distinct values of a column pass, each tested
 * once, a pattern only on the values holding its literals: the places of a `/Streets` search.
 */
import { literalQuery, type LiteralQuery } from "../regex/literals.ts";
import type { Node } from "../regex/ast.ts";
import {
  caseFoldKey,
  filterMatches,
  foldMembers,
  literalText,
  type StreetFilter,
} from "./filter.ts";
import { gallop } from "./kernels.ts";
import type { ColumnText, PlaceTable } from "./meta.ts";

/** The places whose postal code and locality pass (`pass[p]` 1; `list` in order), and their streets. */
export interface PlacePass {
  readonly pass: Uint8Array;
  readonly list: Int32Array;
  readonly streets: number;
}

/**
 * The places that pass the postal-code and locality filters: a postal-code prefix alone a range of
 * places (sorted by postal code), else each distinct value tested once (`characters`: every
 * character of the localities).
 */
export function passingPlaces(
  postalCode: StreetFilter | undefined,
  locality: StreetFilter | undefined,
  places: PlaceTable,
  characters: string,
): PlacePass {
  // Each column read only when used (meta.ts decodes them on first use).
  const { size, counts } = places;
  const prefix = locality === undefined && isPrefix(postalCode);
  const [from = 0, to = 0] = prefix
    ? places
        .postalCodesStartingWith(literalText(postalCode.literal))
        .map((code) => gallop(places.postalCodeOf, code))
    : [0, size];
  const codes = !prefix && postalCode ? postalCodesPassing(postalCode, places) : undefined;
  const some = locality && candidates(locality, places.localityText, characters);
  // A literal's candidates are its matches (the search tests what filterMatches does), but for `$`.
  const candidatesMatch =
    locality?.pattern === undefined
      ? !locality?.anchoredEnd
      : exactAlternation(locality.pattern.tree, characters);
  const localities =
    locality &&
    (some === undefined
      ? testEach(locality, places.localities.length, (i) => places.localities[i] ?? "")
      : candidatesMatch
        ? some
        : testEach(locality, some.length, places.locality, some));
  const postalCodeOf = codes === undefined ? undefined : places.postalCodeOf;
  const localityOf = localities === undefined ? undefined : places.localityOf;
  const pass = new Uint8Array(size);
  const list: number[] = [];
  let streets = 0;
  for (let p = from; p < to; p++) {
    if (codes !== undefined && codes[postalCodeOf?.[p] as number] !== 1) continue;
    if (localities !== undefined && localities[localityOf?.[p] as number] !== 1) continue;
    pass[p] = 1;
    list.push(p);
    streets += counts[p] as number;
  }
  return { pass, list: Int32Array.from(list), streets };
}

/**
 * Is a pattern plain text or an alternation of plain texts (`(a|e)`, `Berg|Tal`) whose candidates
 * are its matches? So when each character (under `~*` a class of its cases) takes every character
 * of the values that candidates() searches for in its place: those that fold with it (foldMembers).
 */
function exactAlternation(tree: Node, characters: string): boolean {
  const members = foldMembers(characters);
  const exact = (part: Node) => {
    const points =
      part.kind === "char"
        ? [part.code]
        : part.kind === "class" && !part.negated && part.ranges.every(([a, b]) => a === b)
          ? part.ranges.map(([a]) => a)
          : [];
    const keys = new Set(points.map((c) => caseFoldKey(String.fromCodePoint(c))));
    const [key = ""] = keys;
    return (
      keys.size === 1 &&
      Array.from(members.get(key) ?? "").every((m) => points.includes(m.codePointAt(0) ?? -1))
    );
  };
  return (tree.kind === "alternate" ? tree.branches : [tree]).every((branch) =>
    (branch.kind === "concat" ? branch.parts : [branch]).every(exact),
  );
}

/** Per distinct postal code, 1 when it passes: a literal on the codes' units (no string made), else each code tested. */
function postalCodesPassing(filter: StreetFilter, places: PlaceTable): Uint8Array {
  // `native` is a plain search of UTF-16 units (filter.ts nativeTest): what postalCodesHolding does.
  if (filter.pattern === undefined && !filter.ignoreCase && filter.native !== undefined)
    return places.postalCodesHolding(
      literalText(filter.literal),
      filter.anchoredStart,
      filter.anchoredEnd,
    );
  return testEach(filter, places.postalCodes.length, (i) => places.postalCodes[i] ?? "");
}

const isPrefix = (f: StreetFilter | undefined): f is StreetFilter =>
  f !== undefined && f.pattern === undefined && !f.ignoreCase && f.anchoredStart && !f.anchoredEnd;

/** Per value, 1 when it passes: each tested once, only the candidates when some are known. */
function testEach(
  filter: StreetFilter,
  count: number,
  at: (i: number) => string,
  candidates?: Uint8Array,
): Uint8Array {
  const out = candidates ?? new Uint8Array(count).fill(1);
  for (let i = 0; i < count; i++) if (out[i] === 1 && !filterMatches(filter, at(i))) out[i] = 0;
  return out;
}

/**
 * The values a `~*` pattern can match, found in the column's text at once: every literal each
 * match contains (in caseFoldKey's form) searched as a native regular expression whose characters
 * are the classes of the column's characters that fold to them. A value the pattern matches holds
 * them, so these are a superset of the matches. A pattern anchored at the start with three or more
 * such characters (`^Ber.*n$`) takes the values that start with them. Undefined: every value may.
 */
export function candidates(
  filter: StreetFilter,
  column: ColumnText,
  characters: string,
): Uint8Array | undefined {
  if (filter.pattern === undefined) return literalCandidates(filter, column);
  const tree = filter.pattern.tree;
  const members = foldMembers(characters);
  const classes = (key: string) => {
    let source = "";
    for (const ch of key) {
      const of = members.get(ch);
      if (of === undefined) return undefined;
      source += `[${Array.from(of, (c) => `\\u{${c.codePointAt(0)?.toString(16)}}`).join("")}]`;
    }
    return source;
  };
  const prefixes = anchoredPrefixes(tree);
  const [prefix = ""] = prefixes;
  // After `^`, three or more characters, or an alternation (`^(A|B|C)`): the values that start with
  // one of its branches' prefixes (the other literals may be in nearly every value).
  if (prefixes.length > 1 || [...prefix].length >= STRONG_LITERAL) {
    const sources = prefixes.flatMap((p) => classes(p) ?? []);
    return containing(column, sources.length > 0 ? `(?:${sources.join("|")})` : undefined, true);
  }
  return candidatesOf(literalQuery(tree, caseFoldKey), column, classes);
}

/**
 * The values a plain literal can match, found in the column's text at once: each of its characters
 * as the class of the two it accepts (filter.ts `accepts`), at the values' starts when anchored
 * there. Undefined (every value may) for a literal with a surrogate code point of its own.
 */
function literalCandidates(filter: StreetFilter, column: ColumnText): Uint8Array | undefined {
  const { accepts } = filter;
  let source = "";
  for (let k = 0; k < accepts.length; k += 2) {
    const [lower, upper] = [accepts[k] as number, accepts[k + 1] as number];
    if ((lower >= 0xd800 && lower <= 0xdfff) || (upper >= 0xd800 && upper <= 0xdfff))
      return undefined;
    source += `[\\u{${lower.toString(16)}}\\u{${upper.toString(16)}}]`;
  }
  return containing(column, source, filter.anchoredStart);
}

/** Characters a literal needs to narrow the values enough to be worth a search beside a longer one. */
const STRONG_LITERAL = 3;

/**
 * The caseFoldKey characters every match starts with: the positions after a leading `^` that each
 * fold to one; after `^` and an alternation, one such prefix per branch (none when one has none).
 */
function anchoredPrefixes(tree: Node): string[] {
  const flat = (node: Node): readonly Node[] =>
    node.kind === "concat" ? node.parts.flatMap(flat) : [node];
  const [first, next, ...rest] = flat(tree);
  if (first?.kind !== "start" || next === undefined) return [];
  const each =
    next.kind === "alternate"
      ? next.branches.map((b) => prefixOf(flat(b)))
      : [prefixOf([next, ...rest])];
  return each.includes("") ? [] : each;
}

function prefixOf(parts: readonly Node[]): string {
  let prefix = "";
  for (const part of parts) {
    const codes =
      part.kind === "char"
        ? [part.code]
        : part.kind === "class" && !part.negated && part.ranges.every(([a, b]) => b - a < 4)
          ? part.ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i))
          : [];
    const keys = new Set(codes.map((code) => caseFoldKey(String.fromCodePoint(code))));
    const [key] = keys;
    if (keys.size !== 1 || key === undefined || [...key].length !== 1) break;
    prefix += key;
  }
  return prefix;
}

function candidatesOf(
  query: LiteralQuery,
  column: ColumnText,
  classes: (key: string) => string | undefined,
): Uint8Array | undefined {
  const count = column.starts.length - 1;
  switch (query.op) {
    case "all":
      return undefined;
    case "literal":
      return containing(column, classes(query.text), false);
    case "and": {
      // Only long literals: a short one (`n` of `^Ber.*n$`) is in nearly every value.
      const strongest = Math.max(...query.of.map(strength));
      let out: Uint8Array | undefined;
      for (const operand of query.of) {
        if (strength(operand) < Math.min(strongest, STRONG_LITERAL)) continue;
        const set = candidatesOf(operand, column, classes);
        if (set === undefined) continue;
        if (out === undefined) out = set;
        else for (let i = 0; i < count; i++) out[i] = (out[i] as number) & (set[i] as number);
      }
      return out;
    }
    case "or": {
      // Its literals searched as one alternation (one pass over the text), the rest each.
      const out = new Uint8Array(count);
      const literals: string[] = [];
      for (const operand of query.of) {
        if (operand.op === "literal") {
          const source = classes(operand.text);
          if (source !== undefined) literals.push(source);
          continue;
        }
        const set = candidatesOf(operand, column, classes);
        if (set === undefined) return undefined;
        for (let i = 0; i < count; i++) out[i] = (out[i] as number) | (set[i] as number);
      }
      if (literals.length === 0) return out;
      return containing(column, `(?:${literals.join("|")})`, false, out);
    }
  }
}

/** How narrow a query's candidates are: the length of the shortest literal it must hold. */
function strength(query: LiteralQuery): number {
  if (query.op === "all") return 0;
  if (query.op === "literal") return [...query.text].length;
  const parts = query.of.map(strength);
  return query.op === "and" ? Math.max(0, ...parts) : Math.min(...parts);
}

/** The values that hold a match of `source` (at their start), found by one search of the text, set in `out`. */
function containing(
  { text, starts }: ColumnText,
  source: string | undefined,
  atStart: boolean,
  out = new Uint8Array(starts.length - 1),
): Uint8Array {
  const count = starts.length - 1;
  if (source === undefined) return out;
  if (source === "") return out.fill(1);
  // One search of the whole text, each value done at its first match inside it.
  const search = new RegExp(source, "gu");
  let within: RegExp | undefined;
  search.lastIndex = starts[0] ?? 0;
  for (let found = search.exec(text), i = 0; found !== null; found = search.exec(text)) {
    while (i < count && (starts[i + 1] as number) <= found.index) i++;
    if (i >= count) break;
    const end = starts[i + 1] as number;
    let inside = found.index + found[0].length <= end;
    // A match that runs into the next value may be an alternation's longer branch (`^(ka|k)$` on
    // `K` then `a`): a shorter one at the same place may end inside the value.
    if (!inside) {
      within ??= new RegExp(source, "yu");
      within.lastIndex = 0;
      inside = within.test(text.slice(found.index, end));
    }
    if (inside && (!atStart || found.index === starts[i])) out[i] = 1;
    // A match across two values is none: unanchored, look again from the next character (a
    // whole code point: a `u` search set inside a surrogate pair starts at the pair again).
    const next = found.index + ((text.codePointAt(found.index) ?? 0) > 0xffff ? 2 : 1);
    search.lastIndex = inside || atStart ? end : next;
  }
  return out;
}
