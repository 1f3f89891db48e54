/**
 * A pattern cut down to the characters a set of values uses. A value made of those characters
 * matches the cut pattern exactly when it matches the pattern, so the verdicts stay; the engine's
 * classes become a few ranges instead of Unicode's hundreds (`\w`, `\W`, `\s`, `\S`): each
 * range reaches over the characters no value uses, to keep the ranges of all classes few,
 * which is most of what compiling them and building the engine's first states costs.
 */
import { complement, mergeRanges, type Node, type Range } from "./ast.ts";

/** The characters of the values, as sorted, merged ranges. */
export function alphabetOf(values: readonly string[]): Range[] {
  const codes = new Set<number>();
  for (const value of values) for (const char of value) codes.add(char.codePointAt(0) ?? 0);
  return mergeRanges([...codes].map((code): Range => [code, code]));
}

/** The pattern with every class and `.` reduced to the members of `alphabet`. */
export function restrictToAlphabet(node: Node, alphabet: readonly Range[]): Node {
  switch (node.kind) {
    case "class": {
      const ranges = node.negated ? complement(node.ranges) : mergeRanges(node.ranges);
      return fewer(node, ranges.length, widened(intersect(ranges, alphabet), alphabet));
    }
    case "any":
      return fewer(node, 2, widened(intersect(complement([]), alphabet), alphabet));
    case "concat":
      return {
        kind: "concat",
        parts: node.parts.map((part) => restrictToAlphabet(part, alphabet)),
      };
    case "alternate":
      return {
        kind: "alternate",
        branches: node.branches.map((branch) => restrictToAlphabet(branch, alphabet)),
      };
    case "repeat":
      return { ...node, node: restrictToAlphabet(node.node, alphabet) };
    default:
      return node;
  }
}

/**
 * The class cut down, when that leaves it fewer ranges: the engine's cost grows with the ranges
 * of all its classes together, so `[^x]` or `.` (two or three ranges) stay as they are.
 */
function fewer(node: Node, ranges: number, cut: Range[]): Node {
  return cut.length < ranges ? { kind: "class", negated: false, ranges: cut } : node;
}

/** A class (sorted, merged ranges) cut to the alphabet and widened, as restrictToAlphabet cuts it. */
export function cutToAlphabet(ranges: readonly Range[], alphabet: readonly Range[]): Range[] {
  return widened(intersect(ranges, alphabet), alphabet);
}

/**
 * The class's members in the alphabet, each range widened over the characters no value uses up to
 * the next character of the alphabet it does not hold: the same verdicts on the values, and the
 * fewest ranges. The engine (automaton.ts) gives every span between two range bounds of any class
 * its own column in each state's table and fills each column on first use; cut to the alphabet
 * alone, `\w` and `\W` would be dozens of one-letter ranges, and a new isolate's first request
 * would build the same step for each.
 */
function widened(members: readonly Range[], alphabet: readonly Range[]): Range[] {
  const out: Range[] = [];
  let open: number | undefined;
  let last = -1; // the last character of the alphabet outside the class
  let i = 0;
  for (const [from, to] of alphabet)
    for (let code = from; code <= to; code++) {
      while (i < members.length && (members[i]?.[1] ?? 0) < code) i++;
      const member = i < members.length && (members[i]?.[0] ?? 0) <= code;
      if (member) open ??= last + 1;
      else {
        if (open !== undefined) out.push([open, code - 1]);
        open = undefined;
        last = code;
      }
    }
  if (open !== undefined) out.push([open, MAX_CODE_POINT]);
  return out;
}

const MAX_CODE_POINT = 0x10ffff;

/** The intersection of two sorted, merged range lists; `b` (the alphabet) is entered by binary search, as `a` is often one short class. */
function intersect(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  let i = 0;
  let low = 0;
  let high = b.length;
  const first = a[0]?.[0] ?? 0;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((b[mid]?.[1] ?? 0) < first) low = mid + 1;
    else high = mid;
  }
  let j = low;
  while (i < a.length && j < b.length) {
    const [af, at] = a[i] as Range;
    const [bf, bt] = b[j] as Range;
    const from = Math.max(af, bf);
    const to = Math.min(at, bt);
    if (from <= to) out.push([from, to]);
    if (at < bt) i++;
    else j++;
  }
  return out;
}
