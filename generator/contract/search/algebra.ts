/**
 * Set algebra on posting lists: increasing Int32Arrays of street positions. `and` intersects,
 * `or` unites, `not` complements, counting as it goes (a result's length is its exact count).
 * A complement is never materialised: a PositionSet may be `negated` (every position of the
 * universe [0, size) but its own), so `a & !b` is a difference and `-berlin` a count of
 * size - |berlin|. Sparse against dense is a galloping search (cost ~ the smaller list's length
 * times a log), a union of many lists a bitmap over the universe when they are dense.
 *
 * ListTree is a small and/or/not tree over list references, evaluated by evaluateTree with the
 * cheapest operand first: full-text queries are planned onto it, and so can a regular-expression
 * planner's and/or of trigram lists. treeCost is the cost model: list entries a tree touches,
 * from list sizes alone (metadata), before any list is read.
 */

export interface PositionSet {
  readonly positions: Int32Array;
  /** The universe's positions but these. */
  readonly negated: boolean;
}

export type ListTree<L> =
  | { readonly op: "list"; readonly list: L }
  | { readonly op: "and" | "or"; readonly operands: readonly ListTree<L>[] }
  | { readonly op: "not"; readonly operand: ListTree<L> };

const EMPTY = new Int32Array();
export const NOTHING: PositionSet = { positions: EMPTY, negated: false };
export const EVERYTHING: PositionSet = { positions: EMPTY, negated: true };

/** How many positions a set holds within a universe of `size`. */
export const setCount = (set: PositionSet, size: number) =>
  set.negated ? size - set.positions.length : set.positions.length;

/** a ∩ b. Galloping from the smaller: a rare word against a common one costs the rare one's length. */
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length > b.length) [a, b] = [b, a];
  const out = new Int32Array(a.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i++) {
    const value = a[i] as number;
    if ((b[j] as number) < value) j = gallop(b, value, j);
    if (b[j] === value) out[n++] = value;
  }
  return out.subarray(0, n);
}

/** a \ b. */
export function difference(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const value = a[i] as number;
    if (j < b.length && (b[j] as number) < value) j = gallop(b, value, j);
    if (b[j] !== value) out[n++] = value;
  }
  return out.subarray(0, n);
}

/** The union of increasing lists: merged for a few, a bitmap over [0, size) when they are many or dense. */
export function unite(lists: readonly Int32Array[], size: number): Int32Array {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return EMPTY;
  if (nonEmpty.length === 1) return nonEmpty[0] as Int32Array;
  const total = nonEmpty.reduce((sum, list) => sum + list.length, 0);
  if (nonEmpty.length === 2 && total * 8 < size)
    return merge(nonEmpty[0] as Int32Array, nonEmpty[1] as Int32Array);
  if (total * 4 < size / 32) {
    const all = new Int32Array(total);
    let at = 0;
    for (const list of nonEmpty) all.set(list, (at += list.length) - list.length);
    all.sort();
    let n = 0;
    for (let i = 0; i < all.length; i++)
      if (n === 0 || all[n - 1] !== all[i]) all[n++] = all[i] as number;
    return all.subarray(0, n);
  }
  const bits = new Uint32Array((size >>> 5) + 1);
  for (const list of nonEmpty)
    for (let i = 0; i < list.length; i++)
      bits[(list[i] as number) >>> 5]! |= 1 << ((list[i] as number) & 31);
  return positionsOf(bits, total);
}

/** The set bits of a bitmap as increasing positions (at most `atMost` of them). */
function positionsOf(bits: Uint32Array, atMost: number): Int32Array {
  const out = new Int32Array(atMost);
  let n = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w] as number;
    while (word !== 0) {
      const low = word & -word;
      out[n++] = w * 32 + 31 - Math.clz32(low);
      word ^= low;
    }
  }
  return out.subarray(0, n);
}

function merge(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let [i, j, n] = [0, 0, 0];
  while (i < a.length && j < b.length) {
    const [x, y] = [a[i] as number, b[j] as number];
    out[n++] = x <= y ? x : y;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  while (i < a.length) out[n++] = a[i++] as number;
  while (j < b.length) out[n++] = b[j++] as number;
  return out.subarray(0, n);
}

/** The first index at or after `from` whose value is not below `value`: doubling steps, then a binary search. */
function gallop(values: Int32Array, value: number, from: number): number {
  let step = 1;
  let high = from;
  while (high < values.length && (values[high] as number) < value) {
    from = high + 1;
    high += step;
    step *= 2;
  }
  high = Math.min(high, values.length);
  while (from < high) {
    const mid = (from + high) >>> 1;
    if ((values[mid] as number) < value) from = mid + 1;
    else high = mid;
  }
  return from;
}

export function and(a: PositionSet, b: PositionSet, size: number): PositionSet {
  if (!a.negated && !b.negated)
    return { positions: intersect(a.positions, b.positions), negated: false };
  if (a.negated && b.negated)
    return { positions: unite([a.positions, b.positions], size), negated: true };
  const [plain, negated] = a.negated ? [b, a] : [a, b];
  return { positions: difference(plain.positions, negated.positions), negated: false };
}

export function or(a: PositionSet, b: PositionSet, size: number): PositionSet {
  if (!a.negated && !b.negated)
    return { positions: unite([a.positions, b.positions], size), negated: false };
  if (a.negated && b.negated)
    return { positions: intersect(a.positions, b.positions), negated: true };
  const [plain, negated] = a.negated ? [b, a] : [a, b];
  return { positions: difference(negated.positions, plain.positions), negated: true };
}

export const not = (a: PositionSet): PositionSet => ({
  positions: a.positions,
  negated: !a.negated,
});

/**
 * A tree's set. `and` starts from its smallest operand (estimated by `cost`) and stops at the
 * first empty intersection; `leaf` gives a list's set.
 */
export function evaluateTree<L>(
  tree: ListTree<L>,
  leaf: (list: L) => PositionSet,
  size: number,
  cost: (tree: ListTree<L>) => number = () => 0,
): PositionSet {
  switch (tree.op) {
    case "list":
      return leaf(tree.list);
    case "not":
      return not(evaluateTree(tree.operand, leaf, size, cost));
    case "or": {
      const sets = tree.operands.map((operand) => evaluateTree(operand, leaf, size, cost));
      if (sets.every((set) => !set.negated))
        return {
          positions: unite(
            sets.map((set) => set.positions),
            size,
          ),
          negated: false,
        };
      return sets.reduce((a, b) => or(a, b, size), NOTHING);
    }
    case "and": {
      // Plain operands first (cheapest first), negated ones after: each only narrows what is left.
      const ordered = [...tree.operands].sort((x, y) => cost(x) - cost(y));
      let result = EVERYTHING;
      for (const operand of ordered) {
        result = and(result, evaluateTree(operand, leaf, size, cost), size);
        if (!result.negated && result.positions.length === 0) break;
      }
      return result;
    }
  }
}

/**
 * The cost model: list entries a tree touches (read, decoded, merged), from each list's size.
 * A `not` touches its operand's lists as they are.
 */
export function treeCost<L>(tree: ListTree<L>, entries: (list: L) => number): number {
  switch (tree.op) {
    case "list":
      return entries(tree.list);
    case "not":
      return treeCost(tree.operand, entries);
    default:
      return tree.operands.reduce((sum, operand) => sum + treeCost(operand, entries), 0);
  }
}

/**
 * Positions [start, end) (in order) of a set within [0, size): a select, not a walk, so a deep
 * page of `-berlin` costs a binary search over berlin's list.
 */
export function selectRange(
  set: PositionSet,
  size: number,
  start: number,
  end: number,
): Int32Array {
  const total = setCount(set, size);
  const to = Math.min(end, total);
  if (to <= start) return EMPTY;
  if (!set.negated) return set.positions.subarray(start, to);
  const out = new Int32Array(to - start);
  const members = set.positions;
  // The k-th non-member is k + i, where i is the number of members before it: the first i with members[i] - i > k.
  let low = 0;
  let high = members.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((members[mid] as number) - mid > start) high = mid;
    else low = mid + 1;
  }
  let i = low;
  for (let k = start, n = 0; k < to; k++) {
    while (i < members.length && (members[i] as number) - i <= k) i++;
    out[n++] = k + i;
  }
  return out;
}
