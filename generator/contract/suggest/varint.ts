/**
 * The suggestions' varints (walk.ts, names.ts, places.ts), read where they lie: varintAt returns
 * the value and keeps where it ended (varintEnd), so a walk over a trie allocates nothing.
 */

/** Where the last varintAt ended. */
let after = 0;

/**
 * The varint at `at` (the offset after it: varintEnd()). Allocates nothing, unlike readVarint.
 * Every byte after the first runs the same operations: a warm-up on a small build (two-byte
 * varints at most) leaves type feedback for all of them, and V8 keeps its optimised code when a
 * national trie's three-byte offsets come (a step that ran only from the third byte deoptimised
 * it in 40 of 43 costly first requests).
 */
export function varintAt(bytes: Uint8Array, at: number): number {
  let byte = bytes[at++] as number;
  if (byte < 0x80) {
    after = at;
    return byte;
  }
  let value = byte & 0x7f;
  let scale = 1;
  do {
    scale *= 0x80;
    byte = bytes[at++] as number;
    value += (byte & 0x7f) * scale;
  } while (byte >= 0x80);
  after = at;
  return value;
}

/** Where the varint the last varintAt read ends. */
export const varintEnd = (): number => after;

/** A varint at `at`: its value and the offset after it. */
export function readVarint(bytes: Uint8Array, at: number): [number, number] {
  const value = varintAt(bytes, at);
  return [value, after];
}
