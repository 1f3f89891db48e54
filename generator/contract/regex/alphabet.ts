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

/**
 * The class's members in the alphabet, each range widened over the characters no value uses up to
 * the next character of the alphabet it does not hold: the same verdicts on the values, and the
 * fewest ranges. The engine (automaton.ts) gives every span between two range bounds of any class
 * its own column in each state's table and fills each column on first use; cut to the alphabet
 * alone, `\w` and `\W` would be dozens of one-letter ranges, and a new isolate's first request
 * would build the same step for each. Worked out range by range (a search of the alphabet at each
 * end), not character by character: a case-insensitive literal is a class a letter.
 */
function widened(members: readonly Range[], alphabet: readonly Range[]): Range[] {
  const out: [number, number][] = [];
  let joins = -1; // the alphabet's next character after the last member range, when it is a member
  for (const [from, to] of members) {
    const after = alphabetAfter(alphabet, to);
    const last = out[out.length - 1];
    if (last !== undefined && joins === from) last[1] = after - 1;
    else out.push([alphabetBefore(alphabet, from) + 1, after - 1]);
    joins = after;
  }
  return out;
}

/** The alphabet's last character below `code` (-1 if none). */
function alphabetBefore(alphabet: readonly Range[], code: number): number {
  let [low, high] = [0, alphabet.length]; // the first range reaching `code`
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((alphabet[mid]?.[1] ?? 0) < code) low = mid + 1;
    else high = mid;
  }
  const range = alphabet[low];
  if (range !== undefined && range[0] < code) return code - 1;
  return alphabet[low - 1]?.[1] ?? -1;
}

/** The alphabet's first character above `code` (past the last code point if none). */
function alphabetAfter(alphabet: readonly Range[], code: number): number {
  let [low, high] = [0, alphabet.length]; // the first range ending above `code`
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((alphabet[mid]?.[1] ?? 0) <= code) low = mid + 1;
    else high = mid;
  }
  const range = alphabet[low];
  return range === undefined ? MAX_CODE_POINT + 1 : Math.max(range[0], code + 1);
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
