/**
 * `/_s/{cc}/suggest/places.bin` (docs/FORMAT.md § 7.11): what suggestions and the address check know of
 * the places of the search index (a place: the postal code, locality and rest of a record that
 * streets share; numbered as the record table numbers them, sorted by postal code):
 *
 *   varint postal codes, u8 code width, the codes in order (width bytes each, ASCII, shorter
 *   ones padded with 0), per code its first place (3 bytes little-endian), varint places, per
 *   place its locality's number (2 bytes little-endian, in order of first use)
 *
 * and `/_s/{cc}/suggest/l/{n}.bin`, the localities' tries by pair in shards laid out as the names'
 * (names.ts), whose payloads are
 *
 *   u8 flags (bit 0: the skeleton leaves out the locality's words after its first name, as
 *   `Frankfurt` for `Frankfurt am Main`), u8 words, per word varint (length << 2 | allowance),
 *   varint the locality's number
 *
 * Everything is read where it lies: a postal-code prefix's places are a range found by binary
 * search, a place's locality two bytes.
 */
import { ByteWriter } from "../search/bytes.ts";
import type { WordShape } from "./distance.ts";
import { readShapes, shapesEnd, writeShapes } from "./names.ts";
import { readVarint, varintAt, varintEnd } from "./varint.ts";

export interface LocalityPayload {
  readonly flags: number;
  readonly words: readonly WordShape[];
  readonly locality: number;
}

/** Localities a country may have at most (their numbers take two bytes a place). */
export const MAX_LOCALITIES = 0x10000;

const scratch = new ByteWriter();

export function encodeLocalityPayload(payload: LocalityPayload): Uint8Array {
  const out = scratch;
  out.clear();
  out.raw(Uint8Array.of(payload.flags));
  writeShapes(out, payload.words);
  out.varint(payload.locality);
  return out.view().slice();
}

/** Every locality payload in bytes [from, to) of the localities' trie. */
export function localityPayloads(bytes: Uint8Array, from: number, to: number): LocalityPayload[] {
  const out: LocalityPayload[] = [];
  for (let at = from; at < to;) {
    const flags = bytes[at++] ?? 0;
    const words = readShapes(bytes, at);
    const locality = varintAt(bytes, shapesEnd());
    out.push({ flags, words, locality });
    at = varintEnd();
  }
  return out;
}

/** Writes places.bin: `codes` sorted, each with its first place, and each place's locality. */
export function encodePlaces(
  codes: readonly (readonly [code: string, firstPlace: number])[],
  localityOf: readonly number[],
): Uint8Array {
  const width = Math.max(0, ...codes.map(([code]) => code.length));
  const out = new ByteWriter();
  out.varint(codes.length);
  out.raw(Uint8Array.of(width));
  const text = new Uint8Array(codes.length * width);
  const firsts = new Uint8Array(codes.length * 3);
  codes.forEach(([code, first], i) => {
    for (let k = 0; k < code.length; k++) text[i * width + k] = code.charCodeAt(k) & 0x7f;
    firsts.set([first & 0xff, (first >> 8) & 0xff, (first >> 16) & 0xff], i * 3);
  });
  out.raw(text);
  out.raw(firsts);
  out.varint(localityOf.length);
  const numbers = new Uint8Array(localityOf.length * 2);
  localityOf.forEach((locality, place) => numbers.set([locality & 0xff, locality >> 8], place * 2));
  out.raw(numbers);
  return out.view().slice();
}

/** places.bin as the Worker reads it: nothing decoded beyond the header. */
export class SuggestPlaces {
  readonly codes: number;
  readonly places: number;
  private readonly width: number;
  private readonly textAt: number;
  private readonly firstsAt: number;
  private readonly localitiesAt: number;

  constructor(readonly bytes: Uint8Array) {
    const [codes, at] = readVarint(bytes, 0);
    this.codes = codes;
    this.width = bytes[at] ?? 0;
    this.textAt = at + 1;
    this.firstsAt = this.textAt + codes * this.width;
    const [places, localitiesAt] = readVarint(bytes, this.firstsAt + codes * 3);
    this.places = places;
    this.localitiesAt = localitiesAt;
  }

  /** The locality number of a place. */
  localityOf(place: number): number {
    const at = this.localitiesAt + place * 2;
    return (this.bytes[at] ?? 0) + ((this.bytes[at + 1] ?? 0) << 8);
  }

  /** Postal code number i. */
  code(i: number): string {
    let out = "";
    for (let k = 0; k < this.width; k++) {
      const byte = this.bytes[this.textAt + i * this.width + k] ?? 0;
      if (byte === 0) break;
      out += String.fromCharCode(byte);
    }
    return out;
  }

  /** The first place of postal code number i (the number of places past the last). */
  firstPlace(i: number): number {
    if (i >= this.codes) return this.places;
    const at = this.firstsAt + i * 3;
    const b = this.bytes;
    return (b[at] ?? 0) + ((b[at + 1] ?? 0) << 8) + ((b[at + 2] ?? 0) << 16);
  }

  /** The postal code of a place. */
  codeOfPlace(place: number): string {
    let [lo, hi] = [0, this.codes];
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (this.firstPlace(mid) <= place) lo = mid;
      else hi = mid;
    }
    return this.code(lo);
  }

  /** The places [first, end) whose postal code starts with `prefix`. */
  placesStartingWith(prefix: string): readonly [number, number] {
    const below = (i: number) => this.code(i).slice(0, prefix.length) < prefix;
    const upTo = (i: number) => this.code(i).slice(0, prefix.length) <= prefix;
    return [this.firstPlace(this.search(below)), this.firstPlace(this.search(upTo))];
  }

  /**
   * How many leading digits a place's postal code has in common with `digits`: the places whose
   * code starts with each prefix of them are nested ranges (codes are sorted), found once, so a
   * place is placed by comparing numbers, not by building its code.
   */
  sharedDigits(digits: string): (place: number) => number {
    const ranges = new Int32Array(2 * digits.length);
    for (let j = 1; j <= digits.length; j++) {
      const [first, end] = this.placesStartingWith(digits.slice(0, j));
      ranges[2 * j - 2] = first;
      ranges[2 * j - 1] = end;
    }
    return (place) => {
      let j = digits.length;
      while (
        j > 0 &&
        (place < (ranges[2 * j - 2] as number) || place >= (ranges[2 * j - 1] as number))
      )
        j--;
      return j;
    };
  }

  /** The first code number for which `before` is false (codes are sorted). */
  private search(before: (i: number) => boolean): number {
    let [lo, hi] = [0, this.codes];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(mid)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
