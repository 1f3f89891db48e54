/**
 * The search index's binary building blocks (store.ts, meta.ts): unsigned LEB128 varints and
 * front-coded text, written by the build and read by the Worker with the same code.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A growable byte buffer of varints and raw bytes. */
export class ByteWriter {
  private bytes = new Uint8Array(1024);
  length = 0;

  varint(value: number): void {
    this.reserve(10);
    while (value >= 0x80) {
      this.bytes[this.length++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.bytes[this.length++] = value;
  }

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  text(text: string): void {
    this.raw(encoder.encode(text));
  }

  /** The bytes written (a view: copy it before writing more). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  /** Forgets what was written, keeping the buffer. */
  clear(): void {
    this.length = 0;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/** Reads what a ByteWriter wrote, from `at` on. */
export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
  ) {}

  varint(): number {
    const bytes = this.bytes;
    // One byte is the common case (lengths, steps, deltas): read it without the loop.
    let byte = bytes[this.at++] ?? 0;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    // The same steps for every byte after the first (see varints).
    do {
      byte = bytes[this.at++] ?? 0;
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte >= 0x80);
    return value;
  }

  /**
   * The next `out.length` varints into `out`: one loop with the decoding inline, no call per
   * value, so that a fresh isolate's interpreter reads a column of thousands quickly.
   */
  varints(out: Int32Array): Int32Array {
    const bytes = this.bytes;
    let at = this.at;
    // Every byte takes the same steps, the first too: a branch for longer values that the
    // startup's small build never reached would leave V8 without type feedback for it, and the
    // first national column of such values threw the optimised loop away (docs/SEARCH.md).
    for (let i = 0; i < out.length; i++) {
      let value = 0;
      let scale = 1;
      let byte = 0;
      do {
        byte = bytes[at++] ?? 0;
        value += (byte & 0x7f) * scale;
        scale *= 0x80;
      } while (byte >= 0x80);
      out[i] = value;
    }
    this.at = at;
    return out;
  }

  /** The next `length` bytes as UTF-8 text. */
  text(length: number): string {
    const text = decoder.decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
}

/**
 * How many leading UTF-16 units two strings share, never ending inside a surrogate pair (so that
 * what follows is well-formed text of its own).
 */
export function sharedPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let shared = 0;
  while (shared < limit && a.charCodeAt(shared) === b.charCodeAt(shared)) shared++;
  if (shared > 0 && shared < b.length && (b.charCodeAt(shared - 1) & 0xfc00) === 0xd800) shared--;
  return shared;
}

/**
 * Front coding: each string as (units shared with the previous one, length of the rest) in
 * `lengths`, the rests one after another in `text`. Strings in order share long prefixes.
 */
export function frontCode(strings: Iterable<string>, lengths: ByteWriter): string {
  let previous = "";
  let text = "";
  for (const value of strings) {
    const shared = sharedPrefix(previous, value);
    lengths.varint(shared);
    lengths.varint(value.length - shared);
    text += value.slice(shared);
    previous = value;
  }
  return text;
}

/** Reads `count` front-coded strings: their lengths from `lengths`, their rests from `text` (from `at`); returns them and where the text ends. */
export function readFrontCoded(
  count: number,
  lengths: ByteReader,
  text: string,
  at = 0,
): { readonly strings: string[]; readonly end: number } {
  const strings: string[] = [];
  let previous = "";
  for (let i = 0; i < count; i++) {
    const shared = lengths.varint();
    const rest = lengths.varint();
    previous = previous.slice(0, shared) + text.slice(at, at + rest);
    at += rest;
    strings.push(previous);
  }
  return { strings, end: at };
}

/**
 * Per front-coded sorted string (readFrontCoded's layout, its lengths as pairs and its rests'
 * UTF-16 units), 1 when it holds `literal` (compared as UTF-16 units), at its start and/or end when
 * anchored there: each string rebuilt in one buffer of units, no string made and no call per unit.
 * Anchored at the start, the walk stops after the strings that start with the literal's first
 * units (sorted: none comes later).
 */
export function codesHolding(
  lengths: Int32Array,
  rests: Uint16Array,
  longest: number,
  literal: string,
  atStart: boolean,
  atEnd: boolean,
): Uint8Array {
  const count = lengths.length >>> 1;
  const out = new Uint8Array(count);
  const units = new Uint16Array(longest);
  const wanted = new Uint16Array(literal.length);
  for (let k = 0; k < literal.length; k++) wanted[k] = literal.charCodeAt(k);
  const m = wanted.length;
  for (let i = 0, at = 0; i < count; i++) {
    const shared = lengths[2 * i] as number;
    const n = shared + (lengths[2 * i + 1] as number);
    for (let k = shared; k < n; k++) units[k] = rests[at++] as number;
    if (atStart) {
      // Below the literal, starting with it, or past it (then so is every later string).
      let order = 0;
      for (let k = 0; k < m && order === 0; k++)
        order = k >= n ? -1 : (units[k] as number) - (wanted[k] as number);
      if (order > 0) break;
      if (order === 0 && n >= m && (!atEnd || n === m)) out[i] = 1;
      continue;
    }
    // Unanchored, the literal at every offset; anchored at the end, at the last only.
    for (let o = atEnd ? n - m : 0; o >= 0 && o <= n - m && out[i] === 0; o++) {
      let k = 0;
      while (k < m && units[o + k] === wanted[k]) k++;
      if (k === m) out[i] = 1;
    }
  }
  return out;
}
