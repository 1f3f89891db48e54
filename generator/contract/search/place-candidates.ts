/**
 * The localities a `locality` pattern can match, found in the place table's text at once instead
 * of by the engine on each of them: the literals every match contains (regex/literals.ts, in
 * caseFoldKey's form, as the name patterns' n-gram keys) are searched as native regular
 * expressions over all the localities' text, each character of a literal a class of the
 * localities' characters that caseFoldKey maps to it. A value the pattern matches has a
 * case-folded form that holds the literals (literalQuery's guarantee), so it holds a string of
 * those classes: the candidates are a superset of the matches, and only they are tested.
 */
import { literalQuery, type LiteralQuery } from "../regex/literals.ts";
import type { Node } from "../regex/ast.ts";
import { caseFoldKey, type StreetFilter } from "./filter.ts";

/** The localities' text as the place table holds it: locality i is text[starts[i], starts[i + 1]). */
export interface LocalityText {
  readonly text: string;
  readonly starts: Int32Array;
}

/**
 * Per distinct locality, 1 when it may match the filter's pattern; undefined when every one may
 * (no literal every match contains). `characters`: every character of the localities.
 */
export function localityCandidates(
  filter: StreetFilter,
  localities: LocalityText,
  characters: string,
): Uint8Array | undefined {
  const tree = filter.pattern?.tree;
  if (tree === undefined || !filter.ignoreCase) return undefined;
  const query = literalQuery(tree, caseFoldKey);
  const prefix = anchoredPrefix(tree);
  if (query.op === "all" && prefix.length === 0) return undefined;
  const members = new Map<number, number[]>();
  for (const ch of characters) {
    const key = caseFoldKey(ch).codePointAt(0) ?? 0;
    const of = members.get(key);
    if (of === undefined) members.set(key, [ch.codePointAt(0) ?? 0]);
    else of.push(ch.codePointAt(0) ?? 0);
  }
  // A match starts with its anchored prefix (`ber` of `^Ber.*n$`): the localities that start so
  // are far fewer than those that hold it anywhere, and are found without a scan of the text.
  if (prefix.length >= STRONG_LITERAL) return startingWith(prefix, localities, members);
  return candidatesOf(query, localities, members);
}

/**
 * The case-folded characters that every match starts with, one per pattern position: the
 * positions after a leading `^` that each accept the characters of one caseFoldKey code point.
 */
function anchoredPrefix(tree: Node): number[] {
  const flat = (node: Node): readonly Node[] =>
    node.kind === "concat" ? node.parts.flatMap(flat) : [node];
  const parts = flat(tree);
  if (parts[0]?.kind !== "start") return [];
  const prefix: number[] = [];
  for (const part of parts.slice(1)) {
    const key = onlyKey(part);
    if (key === undefined) break;
    prefix.push(key);
  }
  return prefix;
}

/** The one caseFoldKey code point a character or small class folds to, if one. */
function onlyKey(node: Node): number | undefined {
  const codes =
    node.kind === "char"
      ? [node.code]
      : node.kind === "class" &&
          !node.negated &&
          node.ranges.every(([from, to]) => to - from < MAX_PREFIX_CLASS)
        ? node.ranges.flatMap(([from, to]) =>
            Array.from({ length: to - from + 1 }, (_, i) => from + i),
          )
        : [];
  const keys = new Set(codes.map((code) => caseFoldKey(String.fromCodePoint(code))));
  const [key] = keys;
  return keys.size === 1 && key !== undefined && [...key].length === 1
    ? key.codePointAt(0)
    : undefined;
}
const MAX_PREFIX_CLASS = 4;

/** The localities whose first characters are of the classes of `prefix`'s keys. */
function startingWith(
  prefix: readonly number[],
  { text, starts }: LocalityText,
  members: ReadonlyMap<number, readonly number[]>,
): Uint8Array {
  const count = starts.length - 1;
  const out = new Uint8Array(count);
  const classes = prefix.map((key) => new Set(members.get(key) ?? []));
  for (let i = 0; i < count; i++) {
    let at = starts[i] as number;
    const end = starts[i + 1] as number;
    let k = 0;
    for (; k < classes.length && at < end; k++) {
      const code = text.codePointAt(at) as number;
      if (!(classes[k] as Set<number>).has(code)) break;
      at += code > 0xffff ? 2 : 1;
    }
    if (k === classes.length) out[i] = 1;
  }
  return out;
}

function candidatesOf(
  query: LiteralQuery,
  localities: LocalityText,
  members: ReadonlyMap<number, readonly number[]>,
): Uint8Array | undefined {
  const count = localities.starts.length - 1;
  switch (query.op) {
    case "all":
      return undefined;
    case "literal":
      return containing(query.text, localities, members);
    case "and": {
      // Only the operands whose literals are long: a short one (`n` of `^Ber.*n$`) is found in
      // nearly every locality, so scanning for it costs more than the engine's test of the
      // candidates the long ones leave (every candidate is tested anyway).
      const strongest = Math.max(...query.of.map(strength));
      let out: Uint8Array | undefined;
      for (const operand of query.of) {
        if (strength(operand) < Math.min(strongest, STRONG_LITERAL)) continue;
        const set = candidatesOf(operand, localities, members);
        if (set === undefined) continue;
        if (out === undefined) out = set;
        else for (let i = 0; i < count; i++) out[i] = (out[i] as number) & (set[i] as number);
      }
      return out;
    }
    case "or": {
      const out = new Uint8Array(count);
      for (const operand of query.of) {
        const set = candidatesOf(operand, localities, members);
        if (set === undefined) return undefined;
        for (let i = 0; i < count; i++) out[i] = (out[i] as number) | (set[i] as number);
      }
      return out;
    }
  }
}

/** Characters a literal needs to narrow the localities enough to be worth a scan beside a longer one. */
const STRONG_LITERAL = 3;

/** How narrow a query's candidates are: the length of the shortest literal it must hold. */
function strength(query: LiteralQuery): number {
  switch (query.op) {
    case "all":
      return 0;
    case "literal":
      return [...query.text].length;
    case "and":
      return Math.max(0, ...query.of.map(strength));
    case "or":
      return Math.min(...query.of.map(strength));
  }
}

/** The localities that hold a string whose case-folded form is `key`. */
function containing(
  key: string,
  { text, starts }: LocalityText,
  members: ReadonlyMap<number, readonly number[]>,
): Uint8Array {
  const count = starts.length - 1;
  const out = new Uint8Array(count);
  if (key.length === 0) return out.fill(1);
  let source = "";
  for (const ch of key) {
    const of = members.get(ch.codePointAt(0) ?? 0);
    // No locality has a character of this class: none holds the literal.
    if (of === undefined) return out;
    source += `[${of.map((c) => `\\u{${c.toString(16)}}`).join("")}]`;
  }
  const search = new RegExp(source, "gu");
  search.lastIndex = starts[0] ?? 0;
  for (let found = search.exec(text), i = 0; found !== null; found = search.exec(text)) {
    const at = found.index;
    while (i < count && (starts[i + 1] as number) <= at) i++;
    if (i >= count) break;
    const end = starts[i + 1] as number;
    if (at + found[0].length <= end) {
      out[i] = 1;
      // The next locality's text: this one is a candidate already.
      search.lastIndex = end;
    } else search.lastIndex = at + 1;
  }
  return out;
}
