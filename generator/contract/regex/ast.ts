/**
 * A parsed filter pattern: PostgreSQL's advanced regular expressions (ARE) as users write them,
 * reduced to what decides whether a value matches. Groups are not kept (nothing is captured) and
 * greediness is dropped (it changes which match is found, never whether one is).
 */
export type Node =
  | { readonly kind: "empty" }
  /** One pattern character; under `~*` it matches {towlower(c), towupper(c)}, as PostgreSQL's allcases. */
  | { readonly kind: "char"; readonly code: number }
  /** A bracket expression or class shorthand, case variants already added where PostgreSQL adds them. */
  | { readonly kind: "class"; readonly negated: boolean; readonly ranges: readonly Range[] }
  /** `.`: any character but a newline (the original prepends `(?p)`). */
  | { readonly kind: "any" }
  | { readonly kind: "start" }
  | { readonly kind: "end" }
  | { readonly kind: "concat"; readonly parts: readonly Node[] }
  | { readonly kind: "alternate"; readonly branches: readonly Node[] }
  | {
      readonly kind: "repeat";
      readonly node: Node;
      readonly min: number;
      readonly max: number | undefined;
    };

/** An inclusive range of code points. */
export type Range = readonly [from: number, to: number];

/** Sorted, merged ranges: adjacent and overlapping ones joined. */
export function mergeRanges(ranges: readonly Range[]): Range[] {
  // Most lists come merged already (`\w`'s 700 ranges, a column's alphabet): a check, no sort.
  let inOrder = true;
  for (let i = 1; i < ranges.length && inOrder; i++)
    inOrder = (ranges[i]?.[0] ?? 0) > (ranges[i - 1]?.[1] ?? 0) + 1;
  if (inOrder && ranges.every(([from, to]) => from <= to)) return ranges.slice();
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

const NEWLINE = 0x0a;
const MAX_CODE_POINT = 0x10ffff;

/** Complements of the ranges arrays asked for more than once (`\W`'s, shared by every pattern). */
const complements = new WeakMap<readonly Range[], readonly Range[]>();

/** Whether sorted, merged ranges hold the code point (binary search). */
export function inRanges(ranges: readonly Range[], code: number): boolean {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const [from, to] = ranges[mid] as Range;
    if (code < from) high = mid;
    else if (code > to) low = mid + 1;
    else return true;
  }
  return false;
}

/** A negated bracket or `.`: everything but the ranges and (the original's `(?p)`) a newline. */
export function complement(ranges: readonly Range[]): readonly Range[] {
  const kept = complements.get(ranges);
  if (kept !== undefined) return kept;
  const out = complementOf(ranges);
  complements.set(ranges, out);
  return out;
}

function complementOf(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [from, to] of mergeRanges([...ranges, [NEWLINE, NEWLINE]])) {
    if (from > next) out.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Why a pattern is refused: not a regular expression at all, or one the linear-time engine cannot evaluate as PostgreSQL would. */
export type PatternError =
  | { readonly kind: "invalid"; readonly reason: string }
  | { readonly kind: "unsupported"; readonly construct: string };

export class PatternRefused extends Error {
  constructor(readonly refusal: PatternError) {
    super(refusal.kind === "invalid" ? refusal.reason : refusal.construct);
    this.name = "PatternRefused";
  }
}

export const invalid = (reason: string): never => {
  throw new PatternRefused({ kind: "invalid", reason });
};
export const unsupported = (construct: string): never => {
  throw new PatternRefused({ kind: "unsupported", construct });
};
