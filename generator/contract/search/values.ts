/**
 * The value filter: which distinct values of a column pass a filter (`~*` / `~`, docs/FILTERS.md),
 * each value tested at most once, and a regular expression only on the values that hold the
 * literals every match contains (regex/literals.ts), searched for at once over the column's text.
 * A Streets request's postal codes and localities pass through it (the places whose values pass),
 * as do a Localities request's columns.
 */
import { literalQuery, type LiteralQuery } from "../regex/literals.ts";
import type { Node } from "../regex/ast.ts";
import { caseFoldKey, filterMatches, literalText, type StreetFilter } from "./filter.ts";
import type { ColumnText, PlaceTable } from "./meta.ts";

/** The places whose postal code and locality pass, their streets, and where they lie when known. */
export interface PlacePass {
  readonly pass: Uint8Array;
  readonly streets: number;
  readonly from: number;
  readonly to: number;
}

/**
 * The places that pass the postal-code and locality filters. A postal-code prefix alone is a range
 * of places (they are sorted by postal code: its codes found in one pass over the front-coded
 * codes, its places by binary search); else each distinct value is tested once, a locality pattern
 * only on the localities that hold its literals (`characters`: every character of the localities).
 */
export function passingPlaces(
  postalCode: StreetFilter | undefined,
  locality: StreetFilter | undefined,
  places: PlaceTable,
  characters: string,
): PlacePass {
  const { size, postalCodeOf, localityOf, counts } = places;
  const pass = new Uint8Array(size);
  let [streets, from, to] = [0, 0, size];
  if (locality === undefined && isPrefix(postalCode)) {
    const [first, last] = places.postalCodesStartingWith(literalText(postalCode.literal));
    from = firstIndex(size, (p) => (postalCodeOf[p] as number) >= first);
    to = firstIndex(size, (p) => (postalCodeOf[p] as number) >= last);
    for (let p = from; p < to; p++) streets += counts[p] as number;
    return { pass: pass.fill(1, from, to), streets, from, to };
  }
  const codes =
    postalCode &&
    testEach(postalCode, places.postalCodes.length, (i) => places.postalCodes[i] ?? "");
  // A pattern's candidates are cut out one by one; a literal tests every locality (built once).
  const some = locality && candidates(locality, places.localityText, characters);
  const localities =
    locality &&
    (some === undefined
      ? testEach(locality, places.localities.length, (i) => places.localities[i] ?? "")
      : testEach(locality, some.length, places.locality, some));
  for (let p = 0; p < size; p++) {
    if (codes !== undefined && codes[postalCodeOf[p] as number] !== 1) continue;
    if (localities !== undefined && localities[localityOf[p] as number] !== 1) continue;
    pass[p] = 1;
    streets += counts[p] as number;
  }
  return { pass, streets, from, to };
}

const isPrefix = (f: StreetFilter | undefined): f is StreetFilter =>
  f !== undefined && f.pattern === undefined && !f.ignoreCase && f.anchoredStart && !f.anchoredEnd;

/** The first index in [0, length) where `past` holds (it holds from there on), or length. */
function firstIndex(length: number, past: (i: number) => boolean): number {
  let [low, high] = [0, length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (past(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

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
  const tree = filter.pattern?.tree;
  if (tree === undefined || !filter.ignoreCase) return undefined;
  const members = new Map<string, string>();
  for (const ch of characters)
    members.set(caseFoldKey(ch), (members.get(caseFoldKey(ch)) ?? "") + ch);
  const classes = (key: string) => {
    let source = "";
    for (const ch of key) {
      const of = members.get(ch);
      if (of === undefined) return undefined;
      source += `[${Array.from(of, (c) => `\\u{${c.codePointAt(0)?.toString(16)}}`).join("")}]`;
    }
    return source;
  };
  const prefix = anchoredPrefix(tree);
  if ([...prefix].length >= STRONG_LITERAL) return containing(column, classes(prefix), true);
  return candidatesOf(literalQuery(tree, caseFoldKey), column, classes);
}

/** Characters a literal needs to narrow the values enough to be worth a search beside a longer one. */
const STRONG_LITERAL = 3;

/** The caseFoldKey characters every match starts with: the positions after a leading `^` that each fold to one. */
function anchoredPrefix(tree: Node): string {
  const flat = (node: Node): readonly Node[] =>
    node.kind === "concat" ? node.parts.flatMap(flat) : [node];
  const [first, ...parts] = flat(tree);
  if (first?.kind !== "start") return "";
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
      const out = new Uint8Array(count);
      for (const operand of query.of) {
        const set = candidatesOf(operand, column, classes);
        if (set === undefined) return undefined;
        for (let i = 0; i < count; i++) out[i] = (out[i] as number) | (set[i] as number);
      }
      return out;
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

/** The values that hold a match of `source` (at their start), found by one search of the text. */
function containing(
  { text, starts }: ColumnText,
  source: string | undefined,
  atStart: boolean,
): Uint8Array {
  const count = starts.length - 1;
  const out = new Uint8Array(count);
  if (source === undefined) return out;
  if (source === "") return out.fill(1);
  const search = new RegExp(source, atStart ? "uy" : "gu");
  if (atStart) {
    for (let i = 0; i < count; i++) {
      search.lastIndex = starts[i] as number;
      if (search.exec(text) !== null && search.lastIndex <= (starts[i + 1] as number)) out[i] = 1;
    }
    return out;
  }
  search.lastIndex = starts[0] ?? 0;
  for (let found = search.exec(text), i = 0; found !== null; found = search.exec(text)) {
    while (i < count && (starts[i + 1] as number) <= found.index) i++;
    if (i >= count) break;
    const end = starts[i + 1] as number;
    // A match across two values is none: look again from the next character.
    if (found.index + found[0].length <= end) [out[i], search.lastIndex] = [1, end];
    else search.lastIndex = found.index + 1;
  }
  return out;
}
