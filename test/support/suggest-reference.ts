import { isDigit, isFree } from "../../generator/contract/suggest/trie.ts";
import { FAR } from "../../generator/contract/suggest/walk.ts";

/**
 * The reference: optimal string alignment distance of query q to skeleton s [0, n), every edit
 * costing `cost(i)` at skeleton position i (insertions before position i the least of their
 * neighbours'), an e after a, o or u and an s after s free to add or leave out, a neighbour
 * swapped with such a pair one swap, a digit never substituted for a letter nor a letter for a
 * digit; returns the whole table.
 */
export function table(
  q: Uint8Array,
  s: Uint8Array,
  cost: (i: number) => number = () => 1,
): number[][] {
  const n = s.length;
  const m = q.length;
  const insertCost = (i: number) =>
    n === 0 ? 1 : Math.min(cost(Math.max(0, i - 1)), cost(Math.min(n - 1, i)));
  const free = (x: Uint8Array, i: number) => i >= 1 && isFree(x[i] ?? 0, x[i - 1] ?? 0);
  const d = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(FAR));
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= m; j++) {
      if (i === 0 && j === 0) {
        d[0]![0] = 0;
        continue;
      }
      let v = FAR;
      if (i > 0) v = Math.min(v, d[i - 1]![j]! + (free(s, i - 1) ? 0 : cost(i - 1)));
      if (j > 0) v = Math.min(v, d[i]![j - 1]! + (free(q, j - 1) ? 0 : insertCost(i)));
      if (i > 0 && j > 0 && isDigit(q[j - 1] ?? 0) === isDigit(s[i - 1] ?? 0))
        v = Math.min(v, d[i - 1]![j - 1]! + (q[j - 1] === s[i - 1] ? 0 : cost(i - 1)));
      if (i > 1 && j > 1 && q[j - 1] === s[i - 2] && q[j - 2] === s[i - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + Math.max(cost(i - 1), cost(i - 2)));
      if (i > 2 && j > 2) {
        const [a, b, c] = [s[i - 3], s[i - 2], s[i - 1]];
        const [x, y, z] = [q[j - 3], q[j - 2], q[j - 1]];
        const pairFirst = isFree(b ?? 0, a ?? 0) && x === c && y === a && z === b;
        const pairLast = isFree(c ?? 0, b ?? 0) && x === b && y === c && z === a;
        if (pairFirst || pairLast)
          v = Math.min(v, d[i - 3]![j - 3]! + Math.max(cost(i - 1), cost(i - 3)));
      }
      d[i]![j] = v;
    }
  return d;
}
