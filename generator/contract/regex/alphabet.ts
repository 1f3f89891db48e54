/**
 * A pattern cut down to the characters a set of values uses. A value made of those characters
 * matches the cut pattern exactly when it matches the pattern, so the verdicts stay; the engine's
 * classes become a few ranges instead of Unicode's hundreds (`\w`, `\W`, `\s`, `\S`),
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
      return fewer(node, ranges.length, intersect(ranges, alphabet));
    }
    case "any":
      return fewer(node, 2, intersect(complement([]), alphabet));
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
