import { cutOutsideQuotes } from "../csv.ts";

import { ByteReader, ByteWriter } from "./bytes.ts";

/**
 * Tail shards (`/_s/{cc}/t/{n}.bin`): the rendered tails (store.ts) of TAILS_PER_SHARD places,
 * JSON and CSV. A page's streets can lie in as many shards as it has rows, so shards are small;
 * and places in order of postal code share most of their tails (municipality, district, state),
 * so a tail is cut into pieces (JSON: before each top-level property; CSV: after each cell) and
 * each distinct piece is stored once per shard:
 *
 *   varints: pieces, places, text bytes; the pieces' text (UTF-8, back to back);
 *   varints: each piece's length (UTF-16 units);
 *   per place: its JSON tail's piece count and pieces, then its CSV tail's likewise
 *
 * A tail is its pieces joined; how a tail is cut changes only the shard's size, never the text.
 * A page shows one or two tails of a shard, so the Worker joins only those: reading a shard is a
 * pass over its numbers and one decoding of its text, no object per piece or tail.
 */

export type Tail = readonly [json: string, csv: string];

export function encodeTailShard(tails: readonly Tail[]): Uint8Array {
  const pieces: string[] = [];
  const ids = new Map<string, number>();
  const idsOf = (parts: readonly string[]) =>
    parts.map((part) => {
      let id = ids.get(part);
      if (id === undefined) ids.set(part, (id = pieces.push(part) - 1));
      return id;
    });
  const perPlace = tails.map(([json, csv]) => [idsOf(jsonPieces(json)), idsOf(csvPieces(csv))]);
  const text = new TextEncoder().encode(pieces.join(""));
  const out = new ByteWriter();
  for (const n of [pieces.length, tails.length, text.length]) out.varint(n);
  out.raw(text);
  for (const piece of pieces) out.varint(piece.length);
  for (const formats of perPlace)
    for (const list of formats) {
      out.varint(list.length);
      for (const id of list) out.varint(id);
    }
  return out.view().slice();
}

/** A tail shard as the Worker reads it: a tail is joined from its pieces only when a row shows it. */
export class TailShard {
  readonly size: number;
  private readonly text: string;
  /** Piece k is text[starts[k], starts[k + 1]). */
  private readonly starts: Int32Array;
  private readonly places: ByteReader;
  private readonly placesAt: number;

  constructor(bytes: Uint8Array) {
    const reader = new ByteReader(bytes);
    const pieces = reader.varint();
    this.size = reader.varint();
    this.text = reader.text(reader.varint());
    this.starts = new Int32Array(pieces + 1);
    for (let k = 0; k < pieces; k++) this.starts[k + 1] = (this.starts[k] ?? 0) + reader.varint();
    this.places = reader;
    this.placesAt = reader.at;
  }

  /** The tail of the shard's i-th place, JSON (0) or CSV (1); "" past its places. */
  tail(i: number, format: 0 | 1): string {
    if (i < 0 || i >= this.size) return "";
    const reader = this.places;
    reader.at = this.placesAt;
    for (let list = 0; list < 2 * i + format; list++)
      for (let n = reader.varint(); n > 0; n--) reader.varint();
    let out = "";
    for (let n = reader.varint(); n > 0; n--) {
      const k = reader.varint();
      out += this.text.slice(this.starts[k], this.starts[k + 1]);
    }
    return out;
  }
}

export function decodeTailShard(bytes: Uint8Array): Tail[] {
  const shard = new TailShard(bytes);
  return Array.from(
    { length: shard.size },
    (_, i) => [shard.tail(i, 0), shard.tail(i, 1)] as const,
  );
}

/** A JSON tail cut before each comma outside strings and nested values. */
export function jsonPieces(tail: string): string[] {
  const out: string[] = [];
  let [depth, inString, start] = [0, false, 0];
  for (let i = 0; i < tail.length; i++) {
    const c = tail.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 0 && i > start) {
      out.push(tail.slice(start, i));
      start = i;
    }
  }
  out.push(tail.slice(start));
  return out;
}

/** A CSV tail cut after each comma outside quotes. */
export function csvPieces(tail: string): string[] {
  return cutOutsideQuotes(tail, ",");
}
