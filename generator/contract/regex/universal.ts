/**
 * Whether a pattern matches every value of a column, known from the column's shape alone: the
 * characters its values use and their shortest and longest length. Over that alphabet a class
 * that holds every character of it is `.`; a pattern that is then only such classes, repeated,
 * matches a value exactly when the value is long enough (and, anchored at both ends, short
 * enough). `postalCode=[0-9]{5}` on five-digit postal codes, `name=.` or `name=^` on names that
 * are never empty are such patterns: the filter is answered as if it were not given, without
 * testing a value.
 */
import { complement, mergeRanges, type Node, type Range } from "./ast.ts";
import { alphabetOf } from "./alphabet.ts";

export interface ColumnShape {
  /** Every character the values use, once, in code point order. */
  readonly characters: string;
  /** Shortest and longest value, in characters (code points). */
  readonly shortest: number;
  readonly longest: number;
}

/** The shape of a column's values (distinct values suffice). */
export function columnShape(values: readonly string[]): ColumnShape {
  let shortest = Infinity;
  let longest = 0;
  for (const value of values) {
    let length = 0;
    for (const _ of value) length++;
    shortest = Math.min(shortest, length);
    longest = Math.max(longest, length);
  }
  const codes = new Set<number>();
  for (const value of values) for (const char of value) codes.add(char.codePointAt(0) ?? 0);
  return {
    characters: [...codes]
      .sort((a, b) => a - b)
      .map((code) => String.fromCodePoint(code))
      .join(""),
    shortest: values.length === 0 ? 0 : shortest,
    longest,
  };
}

/** Does the pattern (found anywhere in the value, as the filters match) match every value of the shape? */
export function matchesEvery(tree: Node, shape: ColumnShape): boolean {
  return matchesEveryOf(tree, { ...shape, alphabet: alphabetOf([shape.characters]) });
}

/** matchesEvery, the alphabet given as ranges (a match table's columns hold it so). */
export function matchesEveryOf(
  tree: Node,
  shape: {
    readonly alphabet: readonly Range[];
    readonly shortest: number;
    readonly longest: number;
  },
): boolean {
  const { parts, anchoredStart, anchoredEnd } = withoutOuterAnchors(tree);
  const span = spanOf({ kind: "concat", parts }, shape.alphabet);
  if (span === undefined) return false;
  return shape.shortest >= span[0] && (!(anchoredStart && anchoredEnd) || shape.longest <= span[1]);
}

/**
 * [min, max] when the node matches exactly the strings of the alphabet of min to max characters,
 * else undefined (it may still, but that is not recognised).
 */
function spanOf(node: Node, alphabet: readonly Range[]): readonly [number, number] | undefined {
  switch (node.kind) {
    case "empty":
      return [0, 0];
    case "char":
      return covers([[node.code, node.code]], alphabet) ? [1, 1] : undefined;
    case "class":
      return covers(node.negated ? complement(node.ranges) : node.ranges, alphabet)
        ? [1, 1]
        : undefined;
    case "any":
      return covers(complement([]), alphabet) ? [1, 1] : undefined;
    case "concat": {
      let min = 0;
      let max = 0;
      for (const part of node.parts) {
        const span = spanOf(part, alphabet);
        if (span === undefined) return undefined;
        min += span[0];
        max += span[1];
      }
      return [min, max];
    }
    case "alternate": {
      const spans = node.branches.map((branch) => spanOf(branch, alphabet));
      if (spans.some((span) => span === undefined)) return undefined;
      const sorted = (spans as [number, number][]).sort((a, b) => a[0] - b[0]);
      const min = sorted[0]?.[0] ?? 0;
      let max = sorted[0]?.[1] ?? 0;
      for (const [from, to] of sorted) {
        if (from > max + 1) return undefined;
        max = Math.max(max, to);
      }
      return [min, max];
    }
    case "repeat": {
      const inner = spanOf(node.node, alphabet);
      if (inner === undefined) return undefined;
      if (inner[1] === 0) return [0, 0];
      const times = node.max ?? Infinity;
      // Σ{a..b} repeated k times is Σ{ka..kb}; the union over k is contiguous when a ≤ 1.
      if (inner[0] === 0) return [0, inner[1] * times];
      if (inner[0] === 1) return [node.min, inner[1] * times];
      return node.min === times ? [inner[0] * times, inner[1] * times] : undefined;
    }
    case "start":
    case "end":
      return undefined;
  }
}

/** Does the set hold every character of the alphabet? */
function covers(set: readonly Range[], alphabet: readonly Range[]): boolean {
  const merged = mergeRanges(set);
  let i = 0;
  for (const [from, to] of alphabet) {
    while (i < merged.length && (merged[i]?.[1] ?? 0) < from) i++;
    const range = merged[i];
    if (range === undefined || range[0] > from || range[1] < to) return false;
  }
  return true;
}

/**
 * Whether the pattern matches the empty string where every value has one: at its start (`x*`,
 * `^(a|)`, `x{0,255}y{0,255}`) or its end (`a?$`); anchored at both ends it matches only an empty
 * value. A sure answer only for patterns without `^` or `$` inside them.
 */
export function matchesEmpty(tree: Node): boolean {
  const { parts, anchoredStart, anchoredEnd } = withoutOuterAnchors(tree);
  return !(anchoredStart && anchoredEnd) && parts.every(emptyWithoutAnchors);
}

/** Whether the node matches the empty string and holds no anchor. */
function emptyWithoutAnchors(node: Node): boolean {
  switch (node.kind) {
    case "empty":
      return true;
    case "concat":
      return node.parts.every(emptyWithoutAnchors);
    case "alternate":
      return node.branches.some(emptyWithoutAnchors) && node.branches.every((b) => !holdsAnchor(b));
    case "repeat":
      return !holdsAnchor(node.node) && (node.min === 0 || emptyWithoutAnchors(node.node));
    default:
      return false;
  }
}

function holdsAnchor(node: Node): boolean {
  switch (node.kind) {
    case "start":
    case "end":
      return true;
    case "concat":
      return node.parts.some(holdsAnchor);
    case "alternate":
      return node.branches.some(holdsAnchor);
    case "repeat":
      return holdsAnchor(node.node);
    default:
      return false;
  }
}

/** The pattern's top-level parts without its leading `^`s and trailing `$`s, and whether it had them. */
function withoutOuterAnchors(tree: Node) {
  const parts = tree.kind === "concat" ? [...tree.parts] : [tree];
  let anchoredStart = false;
  let anchoredEnd = false;
  while (parts[0]?.kind === "start") {
    anchoredStart = true;
    parts.shift();
  }
  while (parts.at(-1)?.kind === "end") {
    anchoredEnd = true;
    parts.pop();
  }
  return { parts, anchoredStart, anchoredEnd };
}
