/**
 * The typos a candidate found by a walk (walk.ts) really has, word by word: the walk counts every
 * edit alike, over the skeleton; here an edit in a word that tolerates no typo (fewer than five
 * letters) costs more than any allowance, and a name tolerates what the words the text reaches
 * tolerate together (fold.ts typoAllowance), at most MAX_TYPOS. So `Karl Marx Alee` finds
 * Karl-Marx-Allee (one typo, in a word of five letters) and `Karl Mark Allee` does not.
 */
import { MAX_TYPOS } from "./fold.ts";
import { isDigit, isFree } from "./trie.ts";
import { FAR } from "./walk.ts";

/** A word of a skeleton: its length in skeleton characters and the typos it tolerates. */
export interface WordShape {
  readonly length: number;
  readonly allowance: number;
}

/** An edit in a word that tolerates none: more than any allowance, so never accepted. */
const FORBIDDEN = MAX_TYPOS + 1;

/** The typos of a candidate: to the whole skeleton, and (prefix walks) to its best prefix; FAR when not tolerated. */
export interface Typos {
  readonly full: number;
  readonly prefix: number;
}

/**
 * Query and skeleton lengths the scratch tables hold from the start. A longer one grows them, in a
 * branch the warm-up (edge/warm-up.ts) never runs after V8 has begun to record type feedback; an
 * optimised typosOf taking it in a first request was thrown away there (6 of 15 costly first
 * requests).
 */
const SCRATCH_LENGTH = 96;

const scratch = {
  rows: new Int32Array((SCRATCH_LENGTH + 1) * (SCRATCH_LENGTH + 1)),
  weights: new Int32Array(SCRATCH_LENGTH + 1),
  caps: new Int32Array(SCRATCH_LENGTH + 1),
  free: new Uint8Array(SCRATCH_LENGTH + 1),
  digits: new Uint8Array(SCRATCH_LENGTH + 1),
  lo: new Int32Array(SCRATCH_LENGTH + 1),
  hi: new Int32Array(SCRATCH_LENGTH + 1),
};

/** The cost of inserting a character at skeleton position i: the cheaper of the words beside it. */
const insertCost = (weights: Int32Array, n: number, i: number): number =>
  n === 0 ? 1 : Math.min(weights[Math.max(0, i - 1)] ?? 1, weights[Math.min(n - 1, i)] ?? 1);

/**
 * The weighted distances of `query` to `skeleton` [0, length) (whole when `complete`, the walk's
 * path otherwise) whose words are `words`: an edit costs FORBIDDEN in a word that tolerates no
 * typo, 1 elsewhere; a distance counts only within the allowance of the words it reaches.
 */
export function typosOf(
  query: Uint8Array,
  skeleton: Uint8Array,
  length: number,
  words: readonly WordShape[],
  complete: boolean,
  prefix: boolean,
): Typos {
  const m = query.length;
  const n = length;
  if (scratch.weights.length < n + 1) {
    scratch.weights = new Int32Array(2 * n + 2);
    scratch.caps = new Int32Array(2 * n + 2);
    scratch.lo = new Int32Array(2 * n + 2);
    scratch.hi = new Int32Array(2 * n + 2);
  }
  const { weights, caps } = scratch;
  // caps[i]: the allowance of the words that skeleton positions [0, i) reach, at most MAX_TYPOS.
  // Index loops and no closure: this runs per name found, in a fresh isolate's lower tiers, where
  // for-of allocates an iterator result per word.
  let at = 0;
  let allowed = 0;
  caps[0] = 0;
  for (let w = 0; w < words.length; w++) {
    const word = words[w] as WordShape;
    allowed += word.allowance;
    for (let i = 0; i < word.length && at < n; i++, at++) {
      weights[at] = word.allowance > 0 ? 1 : FORBIDDEN;
      caps[at + 1] = Math.min(MAX_TYPOS, allowed);
    }
  }
  for (; at < n; at++) {
    weights[at] = 1;
    caps[at + 1] = Math.min(MAX_TYPOS, allowed);
  }
  const width = m + 1;
  if (scratch.rows.length < width * (n + 1)) scratch.rows = new Int32Array(2 * width * (n + 1));
  if (scratch.free.length < width) {
    scratch.free = new Uint8Array(2 * width);
    scratch.digits = new Uint8Array(2 * width);
  }
  const { rows, free, digits, lo, hi } = scratch;
  // Only cells that can be within MAX_TYPOS are computed (Ukkonen's cut-off, as walk.ts): a cell
  // within it has a neighbour above, before or across a swap within it, so row i's are beside the
  // cells within it of rows i-1 to i-3 (lo..hi), or follow one before them in the row. Every other
  // cell stays FAR, which every distance over MAX_TYPOS is as far as the answer goes.
  rows.fill(FAR, 0, width * (n + 1));
  // The query's free letters (an insertion of them costs nothing) and digits, once.
  for (let j = 1; j <= m; j++) {
    free[j] = isFree(query[j - 1] ?? 0, query[j - 2] ?? 0) ? 1 : 0;
    digits[j] = isDigit(query[j - 1] ?? 0) ? 1 : 0;
  }
  rows[0] = 0;
  lo[0] = 0;
  hi[0] = 0;
  const first = insertCost(weights, n, 0);
  for (let j = 1; j <= m; j++) {
    const v = (rows[j - 1] ?? 0) + (free[j] === 1 ? 0 : first);
    rows[j] = v;
    if (v <= MAX_TYPOS) hi[0] = j;
  }
  let best = prefix && (rows[m] ?? FAR) <= (caps[0] ?? 0) ? (rows[m] ?? FAR) : FAR;
  for (let i = 1; i <= n; i++) {
    let from = m + 1;
    let to = -1;
    // Row i-1 reaches cells j (a deletion) and j + 1; rows i-2 and i-3 j + 2 and j + 3 (swaps).
    for (let back = 1; back <= 3 && back <= i; back++) {
      if ((hi[i - back] ?? -1) < 0) continue;
      from = Math.min(from, (lo[i - back] ?? 0) + (back === 1 ? 0 : back));
      to = Math.max(to, (hi[i - back] ?? 0) + back);
    }
    const w = weights[i - 1] ?? 1;
    const code = skeleton[i - 1] ?? 0;
    const before = i >= 2 ? (skeleton[i - 2] ?? 0) : 0;
    const remove = isFree(code, before) ? 0 : w;
    const cur = i * width;
    const prev = cur - width;
    const column = (rows[prev] ?? FAR) + remove;
    rows[cur] = column;
    let rowLo = column <= MAX_TYPOS ? 0 : m + 1;
    let rowHi = column <= MAX_TYPOS ? 0 : -1;
    if (rowHi < 0 && to < 0) {
      // No cell of this row or any below can be within MAX_TYPOS.
      break;
    }
    const insert = insertCost(weights, n, i);
    const swapWeight = Math.max(w, weights[i - 2] ?? 1);
    // A letter swapped with a transliteration's pair (walk.ts): query [j-3, j) is `c a b` where
    // the skeleton's [i-3, i) is `a b c` with `a b` a pair, or `b c a` with `b c` one.
    const third = i >= 3 ? (skeleton[i - 3] ?? 0) : 0;
    const pairFirst = i >= 3 && isFree(before, third);
    const pairLast = i >= 3 && isFree(code, before);
    const codeIsDigit = isDigit(code) ? 1 : 0;
    const start = rowHi === 0 ? 1 : Math.max(1, from);
    let left = start === 1 ? column : FAR;
    for (let j = start; j <= m; j++) {
      const insertion = left + (free[j] === 1 ? 0 : insert);
      if (j > to && insertion > MAX_TYPOS) break;
      const q = query[j - 1] ?? 0;
      const substitute = q === code ? 0 : digits[j] === codeIsDigit ? w : FAR;
      let v = (rows[prev + j - 1] ?? FAR) + substitute;
      const deletion = (rows[prev + j] ?? FAR) + remove;
      if (deletion < v) v = deletion;
      if (insertion < v) v = insertion;
      if (i >= 2 && j >= 2 && q === before && query[j - 2] === code) {
        const swap = (rows[prev - width + j - 2] ?? FAR) + swapWeight;
        if (swap < v) v = swap;
      }
      if (
        j >= 3 &&
        ((pairFirst && query[j - 3] === code && query[j - 2] === third && q === before) ||
          (pairLast && query[j - 3] === before && query[j - 2] === code && q === third))
      ) {
        const swap = (rows[prev - 2 * width + j - 3] ?? FAR) + Math.max(w, weights[i - 3] ?? 1);
        if (swap < v) v = swap;
      }
      rows[cur + j] = v;
      left = v;
      if (v <= MAX_TYPOS) {
        if (rowLo > j) rowLo = j;
        rowHi = j;
      }
    }
    lo[i] = rowLo;
    hi[i] = rowHi;
    const reached = rows[cur + m] ?? FAR;
    if (prefix && reached <= (caps[i] ?? 0)) best = Math.min(best, reached);
  }
  const whole = rows[n * width + m] ?? FAR;
  return {
    full: complete && whole <= (caps[n] ?? 0) ? whole : FAR,
    prefix: best,
  };
}

/**
 * typosOf's answers in the collected subtree being read (walk.ts `subtree`): its names share the
 * path, the depth and the prefix distance, so names of the same word shapes have the same typos. A
 * short prefix beside a number collects thousands of names (`Straeß 223 3`) of a few shapes, and
 * names.ts readShapes gives names of the same few words one shared array: the key.
 */
const subtreeTypos = new Map<readonly WordShape[], Typos>();
let subtreeRead = -1;

/** typosOf, once per word shapes in a collected subtree (`subtree`, -1: not in one; the numbers of find.ts's one walker). */
export function typosIn(
  query: Uint8Array,
  path: Uint8Array,
  depth: number,
  words: readonly WordShape[],
  complete: boolean,
  prefix: boolean,
  subtree: number,
): Typos {
  if (subtree < 0) return typosOf(query, path, depth, words, complete, prefix);
  if (subtree !== subtreeRead) {
    subtreeTypos.clear();
    subtreeRead = subtree;
  }
  let typos = subtreeTypos.get(words);
  if (typos === undefined) {
    typos = typosOf(query, path, depth, words, complete, prefix);
    subtreeTypos.set(words, typos);
  }
  return typos;
}

/** Names (skeleton and word shapes) and near misses of them for warmTyposOf: a word that tolerates no typo, a pair swapped, a digit, a prefix. */
const shape = (length: number, allowance: number): WordShape => ({ length, allowance });
export const WARM_CASES: readonly (readonly [
  name: string,
  shapes: readonly WordShape[],
  text: string,
])[] = [
  ["amkupfergraben", [shape(2, 0), shape(12, 2)], "amkupfergarben"],
  ["anderkolonnade", [shape(2, 0), shape(3, 0), shape(9, 2)], "anderkolonade"],
  ["schuetzenstrasse", [shape(16, 2)], "schtuezenstrase"],
  ["kielerstrasse", [shape(13, 2)], "kielerstraess6"],
  ["unterdenlinden", [shape(5, 1), shape(3, 0), shape(6, 1)], "unterdenlinen1"],
  ["amfestungsgraben", [shape(2, 0), shape(14, 2)], "amfestugsgr"],
];

/**
 * Runs typosOf until V8 has optimised it, at startup (edge/warm-up.ts). The warm-up's requests on
 * their small build call it a few dozen times, which left it to be compiled (or thrown away for
 * want of type feedback) inside a first request that checks hundreds of names.
 */
export function warmTyposOf(rounds: number, encode: (skeleton: string) => Uint8Array): number {
  const cases = WARM_CASES.map(([name, shapes, text]) => ({
    skeleton: encode(name),
    shapes,
    query: encode(text),
  }));
  let sum = 0;
  for (let round = 0; round < rounds; round++)
    for (const { skeleton, shapes, query } of cases) {
      const typos = typosOf(query, skeleton, skeleton.length, shapes, true, round % 2 === 0);
      sum += typos.full + typos.prefix;
    }
  return sum;
}
