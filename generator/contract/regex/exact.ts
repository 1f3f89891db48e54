/**
 * A pattern that is only a few literal strings, perhaps anchored (`Frankfurt`, `(Berlin|Hamburg)`,
 * `^8033`, `^(Berlin|Köln)$`): a value matches it exactly when the value's folded form contains
 * one of the folded strings (at its start, at its end). That is decided by searching the column's
 * joined values (joined.ts), without compiling the pattern or running the engine, which for an
 * alternation of city names is most of a first request's work.
 *
 * Exact only over a column's alphabet: under `~*`, each character the pattern names must match
 * precisely the characters of the alphabet that fold as it does (search/filter.ts caseFoldKey
 * joins more case variants than PostgreSQL's towlower/towupper pairs; where it joins one that the
 * pattern does not accept, as the Kelvin sign for `k` would be, the engine decides as before).
 */
import { inRanges, mergeRanges, type Node, type Range } from "./ast.ts";

export interface ExactLiterals {
  /** The folded strings, none empty. */
  readonly texts: readonly string[];
  /** Whether a string must start the value, end it (both: be the value). */
  readonly start: boolean;
  readonly end: boolean;
}

/** Most strings searched for: each is one pass over the joined values. */
export const MAX_EXACT_TEXTS = 40;
/** Widest alphabet checked character by character (names use a few hundred). */
const MAX_ALPHABET = 4096;

/**
 * The strings the pattern is made of, when it is only those over the alphabet (`fold` is the
 * column's case-folding, the identity for `~`); else undefined.
 */
export function exactLiterals(
  tree: Node,
  fold: (text: string) => string,
  alphabet: readonly Range[],
): ExactLiterals | undefined {
  const parts = tree.kind === "concat" ? [...tree.parts] : [tree];
  let start = false;
  let end = false;
  while (parts[0]?.kind === "start") {
    parts.shift();
    start = true;
  }
  while (parts[parts.length - 1]?.kind === "end") {
    parts.pop();
    end = true;
  }
  const size = alphabet.reduce((n, [from, to]) => n + to - from + 1, 0);
  if (parts.length === 0 || size > MAX_ALPHABET || !parts.every(stringShaped)) return undefined;
  const node: Node = { kind: "concat", parts };
  // Folding the whole alphabet may build the case tables in a new isolate: only once the pattern
  // is known to be few strings (`(a|e|i|o|u){3}` is 125) is each class checked against it.
  if (stringsOf(node, fold, alphabet, undefined) === undefined) return undefined;
  const texts = stringsOf(node, fold, alphabet, foldGroups(alphabet, fold));
  if (texts === undefined || texts.some((text) => text === "")) return undefined;
  return { texts, start, end };
}

/** Whether the node is made only of what stringsOf turns into strings (before any folding). */
function stringShaped(node: Node): boolean {
  switch (node.kind) {
    case "empty":
    case "char":
      return true;
    case "class":
      return !node.negated;
    case "concat":
      return node.parts.every(stringShaped);
    case "alternate":
      return node.branches.every(stringShaped);
    default:
      return false;
  }
}

type Groups = ReadonlyMap<string, readonly number[]>;

/** The alphabet's characters by their folded form. */
function foldGroups(alphabet: readonly Range[], fold: (text: string) => string): Groups {
  const groups = new Map<string, number[]>();
  for (const [from, to] of alphabet)
    for (let code = from; code <= to; code++) {
      const key = fold(String.fromCodePoint(code));
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [code]);
      else group.push(code);
    }
  return groups;
}

function stringsOf(
  node: Node,
  fold: (text: string) => string,
  alphabet: readonly Range[],
  groups: Groups | undefined,
): string[] | undefined {
  switch (node.kind) {
    case "empty":
      return [""];
    case "char":
      return charsOf([[node.code, node.code]], fold, alphabet, groups);
    case "class":
      return node.negated ? undefined : charsOf(node.ranges, fold, alphabet, groups);
    case "concat": {
      let out = [""];
      for (const part of node.parts) {
        const next = stringsOf(part, fold, alphabet, groups);
        if (next === undefined || out.length * next.length > MAX_EXACT_TEXTS) return undefined;
        const product: string[] = [];
        for (const a of out) for (const b of next) product.push(a + b);
        out = product;
      }
      return out;
    }
    case "alternate": {
      const out = new Set<string>();
      for (const branch of node.branches) {
        const strings = stringsOf(branch, fold, alphabet, groups);
        if (strings === undefined) return undefined;
        for (const text of strings) out.add(text);
        if (out.size > MAX_EXACT_TEXTS) return undefined;
      }
      return [...out];
    }
    default:
      return undefined;
  }
}

/**
 * The folded forms of a class's members within the alphabet, when every character of the
 * alphabet that folds to one of them is a member (not checked without `groups`); else undefined. A class without members in the
 * alphabet matches no value: no string.
 */
function charsOf(
  unsorted: readonly Range[],
  fold: (text: string) => string,
  alphabet: readonly Range[],
  groups: Groups | undefined,
): string[] | undefined {
  // A character's case variants come unsorted (`a`, `A`).
  const ranges = mergeRanges(unsorted);
  const keys = new Set<string>();
  let width = 0;
  for (const [from, to] of ranges) width += to - from + 1;
  // A character's case variants (the usual class) are looked up; a wide class scans the alphabet.
  const [scanned, within] = width <= NARROW_CLASS ? [ranges, alphabet] : [alphabet, ranges];
  for (const [from, to] of scanned)
    for (let code = from; code <= to; code++)
      if (inRanges(within, code)) keys.add(fold(String.fromCodePoint(code)));
  if (groups !== undefined)
    for (const key of keys)
      for (const code of groups.get(key) ?? []) if (!inRanges(ranges, code)) return undefined;
  return [...keys];
}

const NARROW_CLASS = 64;
