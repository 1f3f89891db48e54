/**
 * The typed-array kernels every search plan runs on (plan.ts): sets of streets as increasing
 * Int32Arrays of positions or as bitmaps over [0, size) (bit p of word p >>> 5), and the few loops
 * that combine them. Each takes and returns one kind of array, so V8 keeps each call site
 * monomorphic, also in a fresh isolate's lower tiers.
 */

const EMPTY = new Int32Array();

/** The first index at or after `from` whose value is not below `value`: doubling steps, then a binary search. */
export function gallop(values: Int32Array, value: number, from = 0): number {
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

/**
 * The streets (increasing) that lie in runs [starts[i], starts[i] + lengths[i]) (increasing,
 * disjoint): for each, its index in `streets` and its run's, back to back in `out` (room for two
 * per street); returns how many numbers it wrote.
 */
export function inRuns(
  streets: Int32Array,
  starts: Int32Array,
  lengths: Int32Array,
  out: Int32Array,
): number {
  let n = 0;
  for (let k = 0, i = 0; k < streets.length && starts.length > 0; k++) {
    const street = streets[k] as number;
    // The last run starting at or before the street, searched for from the previous one's.
    i = Math.max(0, gallop(starts, street + 1, i) - 1);
    const from = starts[i] as number;
    if (street >= from && street < from + (lengths[i] as number)) {
      out[n++] = k;
      out[n++] = i;
    }
  }
  return n;
}

/** Into `sums` (one longer than `counts`): where each count's span starts when the spans lie back to back, the total last. */
export function runningSums(counts: Int32Array, sums: Int32Array): Int32Array {
  sums[0] = 0;
  for (let i = 0; i < counts.length; i++) sums[i + 1] = (sums[i] as number) + (counts[i] as number);
  return sums;
}

/** Little-endian values of `width` bytes (2 or 3) from bytes[at], into out[from, to). */
export function readUints(
  bytes: Uint8Array,
  at: number,
  width: number,
  out: Int32Array,
  from: number,
  to: number,
): void {
  for (let k = from; k < to; k++, at += width)
    out[k] =
      (bytes[at] as number) |
      ((bytes[at + 1] as number) << 8) |
      (width === 3 ? (bytes[at + 2] as number) << 16 : 0);
}

/** a ∩ b, galloping from the smaller: a rare word against a common one costs the rare one's length. */
export const intersect = (a: Int32Array, b: Int32Array): Int32Array =>
  a.length > b.length ? sieve(b, a, true) : sieve(a, b, true);

export const difference = (a: Int32Array, b: Int32Array): Int32Array => sieve(a, b, false);

/** The values of a that are in b (`inB`) or not, b galloped through. */
function sieve(a: Int32Array, b: Int32Array, inB: boolean): Int32Array {
  const out = new Int32Array(a.length);
  let n = 0;
  for (let i = 0, j = 0; i < a.length && (j < b.length || !inB); i++) {
    const value = a[i] as number;
    if (j < b.length && (b[j] as number) < value) j = gallop(b, value, j);
    if ((b[j] === value) === inB) out[n++] = value;
  }
  return out.subarray(0, n);
}

/** The union of increasing lists: merged for two short ones, else through a bitmap over [0, size). */
export function unite(lists: readonly Int32Array[], size: number): Int32Array {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? EMPTY;
  const [a, b] = nonEmpty as [Int32Array, Int32Array];
  if (nonEmpty.length === 2 && (a.length + b.length) * 8 < size) return merge(a, b);
  const bits = new Uint32Array((size + 31) >>> 5);
  for (const list of nonEmpty) fillPositions(bits, list);
  return selectBits(bits, 0, countBits(bits));
}

/** a ∪ b merged. No destructuring per entry: a first request runs this loop in V8's lower tiers. */
export function merge(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    out[n++] = x <= y ? x : y;
    if (x <= y) i++;
    if (y <= x) j++;
  }
  while (i < a.length) out[n++] = a[i++] as number;
  while (j < b.length) out[n++] = b[j++] as number;
  return out.subarray(0, n);
}

export function fillPositions(bits: Uint32Array, positions: Int32Array): void {
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i] as number;
    bits[p >>> 5]! |= 1 << (p & 31);
  }
}

/** The positions whose bit is `want` (1 or 0). */
export function withBit(positions: Int32Array, bits: Uint32Array, want: number): Int32Array {
  const out = new Int32Array(positions.length);
  let n = 0;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i] as number;
    if ((((bits[p >>> 5] as number) >>> (p & 31)) & 1) === want) out[n++] = p;
  }
  return out.subarray(0, n);
}

/** Word by word into `into`: a & b (op 0), a | b (1), ~a within [0, size) (2). */
export function combineBits(
  into: Uint32Array,
  a: Uint32Array,
  b: Uint32Array,
  op: number,
  size = 0,
): void {
  const words = into.length;
  if (op === 0) for (let w = 0; w < words; w++) into[w] = a[w]! & b[w]!;
  else if (op === 1) for (let w = 0; w < words; w++) into[w] = a[w]! | b[w]!;
  else for (let w = 0; w < words; w++) into[w] = ~a[w]!;
  // A complement ends with the universe: no bit at or after size.
  if (op === 2 && size % 32 !== 0) into[size >>> 5]! &= (1 << (size % 32)) - 1;
}

/** A set of streets as increasing positions, perhaps as its complement within all streets (`-berlin`). */
export interface Streets {
  readonly positions: Int32Array;
  readonly negated: boolean;
}

export const negate = (a: Streets): Streets => ({ positions: a.positions, negated: !a.negated });

/** a ∩ b (`and`) or a ∪ b, either perhaps a complement: a difference where one is. */
export function combine(a: Streets, b: Streets, size: number, and: boolean): Streets {
  if (a.negated === b.negated) {
    const both =
      and === a.negated
        ? unite([a.positions, b.positions], size)
        : intersect(a.positions, b.positions);
    return { positions: both, negated: a.negated };
  }
  const [plain, negated] = a.negated ? [b, a] : [a, b];
  const positions = and
    ? difference(plain.positions, negated.positions)
    : difference(negated.positions, plain.positions);
  return { positions, negated: !and };
}

export function popcount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export const countBits = (bits: Uint32Array): number => countRange(bits, 0, bits.length * 32);

/** The number of set bits of positions [from, to). */
export function countRange(bits: Uint32Array, from: number, to: number): number {
  if (to <= from) return 0;
  const [first, last] = [from >>> 5, (to - 1) >>> 5];
  const head = (bits[first] as number) & (-1 << (from & 31));
  const tailMask = (to & 31) === 0 ? -1 : (1 << (to & 31)) - 1;
  if (first === last) return popcount(head & tailMask);
  let count = popcount(head) + popcount((bits[last] as number) & tailMask);
  for (let w = first + 1; w < last; w++) count += popcount(bits[w] as number);
  return count;
}

/** The positions of set bits [start, end) in order: words counted up to the start, then read. */
export function selectBits(bits: Uint32Array, start: number, end: number): Int32Array {
  const out = new Int32Array(Math.max(0, Math.min(end, bits.length * 32) - start));
  let [seen, n] = [0, 0];
  for (let w = 0; w < bits.length && seen < end; w++) {
    let word = bits[w] as number;
    const count = popcount(word);
    if (seen + count <= start) {
      seen += count;
      continue;
    }
    for (; word !== 0 && seen < end; word &= word - 1)
      if (seen++ >= start) out[n++] = w * 32 + 31 - Math.clz32(word & -word);
  }
  return out.subarray(0, n);
}

/**
 * Positions [start, end) of the complement of `members` within [0, size): the k-th non-member is
 * k + i, i the members before it, so a deep page of `-berlin` is a binary search over Berlin's list.
 */
export function selectComplement(
  members: Int32Array,
  size: number,
  start: number,
  end: number,
): Int32Array {
  const to = Math.min(end, size - members.length);
  if (to <= start) return EMPTY;
  const out = new Int32Array(to - start);
  let [low, high] = [0, members.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((members[mid] as number) - mid > start) high = mid;
    else low = mid + 1;
  }
  for (let k = start, i = low, n = 0; k < to; k++) {
    while (i < members.length && (members[i] as number) - i <= k) i++;
    out[n++] = k + i;
  }
  return out;
}

/**
 * Entries [start, end) of the union of disjoint increasing lists (places' streets: a street has
 * one place), in order: a binary heap on each list's next position, stopping at `end`. Writes each
 * entry's list number to `from`; returns the positions.
 */
export function mergeFirst(
  lists: readonly Int32Array[],
  start: number,
  end: number,
  from: number[],
): Int32Array {
  const next = new Int32Array(lists.length);
  const heap: number[] = [];
  const at = (l: number) => (lists[l] as Int32Array)[next[l] as number] as number;
  // No destructuring: a first request runs this in the interpreter, where `[a, b] = [b, a]` walks
  // an array's iterator.
  const down = (i: number) => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && at(heap[left] as number) < at(heap[least] as number)) least = left;
      if (right < heap.length && at(heap[right] as number) < at(heap[least] as number))
        least = right;
      if (least === i) return;
      const moved = heap[i] as number;
      heap[i] = heap[least] as number;
      heap[least] = moved;
      i = least;
    }
  };
  lists.forEach((list, l) => list.length > 0 && heap.push(l));
  for (let i = (heap.length >>> 1) - 1; i >= 0; i--) down(i);
  const out: number[] = [];
  for (let seen = 0; seen < end && heap.length > 0; seen++) {
    const l = heap[0] as number;
    if (seen >= start) {
      out.push(at(l));
      from.push(l);
    }
    if (++next[l]! >= (lists[l] as Int32Array).length) {
      const last = heap.pop() as number;
      if (heap.length > 0) heap[0] = last;
    }
    if (heap.length > 1) down(0);
  }
  return Int32Array.from(out);
}
