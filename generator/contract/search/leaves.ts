/**
 * The leaves of a plan (plan.ts): the index's files as sets of streets. For each, the files a
 * plan needs, computed from the metadata before they are read (the meta gives every file's bytes,
 * the shards each list's blocks, the place table each place's streets), and the decoding of those
 * files once fetched, kept per isolate. A posting list is a set of streets (lexeme and place
 * lists: an entry per street, with its place and head) or of runs of streets with one name
 * (n-gram lists); a bitmap is a set of streets; the streets of places are a set per place; the
 * record and head tables give any street's place and head by position.
 */
import { chunkSpans } from "../pack.ts";
import {
  bitmapPath,
  gramCountsPath,
  headsPath,
  lexiconPath,
  listChunkPath,
  placesPath,
  placeStreetsPath,
  recordsPath,
  tailsPath,
  trigramPath,
} from "../layout.ts";
import { bitmapBytes, decodeBitmap } from "./bitmaps.ts";
import { decodeGramCounts } from "./gram-counts.ts";
import { decodePlaceTable, type PlaceTable, type SearchMeta } from "./meta.ts";
import type { Files, Reader } from "./plan.ts";
import { decodePostings, Postings } from "./postings.ts";
import { ListShard, shardFor } from "./shards.ts";
import {
  headsInRuns,
  PLACE_STREETS_PER_FILE,
  POSITION_BYTES,
  RECORD_CHUNK_STREETS,
  SEARCH_CHUNK_BYTES,
  TAILS_PER_SHARD,
  type ListRef,
} from "./store.ts";
import { TailShard } from "./tails.ts";

/** The list-stream chunks that byte ranges lie in (in stream order mostly each the one before's). */
export function streamFiles(meta: SearchMeta, ranges: Iterable<readonly [number, number]>): Files {
  const files: Files = new Map();
  let added = -1;
  for (const [from, to] of ranges) {
    if (to <= from) continue;
    for (let c = Math.floor(from / SEARCH_CHUNK_BYTES); c * SEARCH_CHUNK_BYTES < to; c++)
      if (c !== added) {
        added = c;
        const size = Math.min(SEARCH_CHUNK_BYTES, meta.streamBytes - c * SEARCH_CHUNK_BYTES);
        files.set(listChunkPath(cc(meta), c), size);
      }
  }
  return files;
}

/** The lists' files (whole lists; a ListRef is its count and its blocks' offsets). */
export const listFiles = (meta: SearchMeta, refs: readonly ListRef[]): Files =>
  streamFiles(
    meta,
    refs.map((ref) => [ref[1] ?? 0, ref.at(-1) ?? 0]),
  );

/** Bytes [from, to) of the list stream, its chunks fetched. */
export function streamBytes(r: Reader, from: number, to: number): Uint8Array {
  const spans = chunkSpans(from, to, SEARCH_CHUNK_BYTES);
  const chunk = (n: number) => r.bytes(listChunkPath(cc(r.meta), n));
  const [only] = spans;
  if (spans.length === 1 && only !== undefined)
    return chunk(only.chunk).subarray(only.from, only.to);
  const out = new Uint8Array(to - from);
  let at = 0;
  for (const span of spans) {
    out.set(chunk(span.chunk).subarray(span.from, span.to), at);
    at += span.to - span.from;
  }
  return out;
}

/** A whole list decoded as columns (its files fetched), kept per isolate. */
export function list(r: Reader, ref: ListRef): Postings {
  const [count = 0, from = 0] = ref;
  const to = ref.at(-1) ?? 0;
  if (count === 0) return Postings.EMPTY;
  return r.kept(`list ${from}`, count * 12, () => decodePostings(streamBytes(r, from, to), count));
}

/** The shard files of keys: lexicon shards for lexemes (their two-character group), n-gram shards for n-grams. */
export function shardFiles(meta: SearchMeta, keys: readonly string[], lexicon: boolean): Files {
  const files: Files = new Map();
  for (const key of keys) {
    const n = lexicon
      ? shardFor(meta.lexiconShards, [...key].slice(0, 2).join(""))
      : shardFor(meta.trigramShards, key);
    const path = lexicon ? lexiconPath(cc(meta), n) : trigramPath(cc(meta), n);
    files.set(path, meta.fileBytes[lexicon ? "l" : "g"][n] ?? 0);
  }
  return files;
}

/** The shard a key is in (its file fetched). */
export function shardOf(r: Reader, key: string, lexicon: boolean): ListShard {
  const [path] = shardFiles(r.meta, [key], lexicon).keys();
  const bytes = r.bytes(path ?? "");
  return r.kept(path ?? "", bytes.byteLength, () => ListShard.parse(bytes));
}

export const placeTableFiles = (meta: SearchMeta): Files =>
  new Map([[placesPath(cc(meta)), meta.fileBytes.places]]);

/** The place table (its file fetched) and where each place's streets start among all places' streets. */
export function placeTable(r: Reader): PlaceTable & { readonly streetStarts: Int32Array } {
  const path = placesPath(cc(r.meta));
  const bytes = r.bytes(path);
  return r.kept(path, bytes.byteLength * 4, () => {
    const table = decodePlaceTable(bytes);
    const streetStarts = new Int32Array(table.size + 1);
    for (let p = 0; p < table.size; p++)
      streetStarts[p + 1] = (streetStarts[p] as number) + (table.counts[p] as number);
    return Object.assign(table, { streetStarts });
  });
}

/** The files of the streets of the places that pass (pass[p] === 1) in [from, to). */
export function placeStreetFiles(
  meta: SearchMeta,
  starts: Int32Array,
  pass: Uint8Array,
  from = 0,
  to = pass.length,
): Files {
  const files: Files = new Map();
  const last = Math.ceil(meta.count / PLACE_STREETS_PER_FILE) - 1;
  let added = -1;
  for (let p = from; p < to; p++) {
    if (pass[p] !== 1 || starts[p] === starts[p + 1]) continue;
    const end = Math.floor(((starts[p + 1] as number) - 1) / PLACE_STREETS_PER_FILE);
    for (
      let f = Math.max(added + 1, Math.floor((starts[p] as number) / PLACE_STREETS_PER_FILE));
      f <= end;
      f++
    ) {
      added = f;
      const streets = f < last ? PLACE_STREETS_PER_FILE : meta.count - f * PLACE_STREETS_PER_FILE;
      files.set(placeStreetsPath(cc(meta), f), streets * POSITION_BYTES);
    }
  }
  return files;
}

/** The streets of place p, in order (their files fetched): `streets` in [starts[p], starts[p + 1]). */
export function placeStreets(r: Reader, starts: Int32Array, p: number): Int32Array {
  const [from, to] = [starts[p] as number, starts[p + 1] as number];
  const out = new Int32Array(to - from);
  for (let k = from; k < to;) {
    const f = Math.floor(k / PLACE_STREETS_PER_FILE);
    const bytes = r.bytes(placeStreetsPath(cc(r.meta), f));
    const end = Math.min(to, (f + 1) * PLACE_STREETS_PER_FILE);
    for (let at = (k - f * PLACE_STREETS_PER_FILE) * POSITION_BYTES; k < end; k++, at += 3)
      out[k - from] =
        (bytes[at] as number) |
        ((bytes[at + 1] as number) << 8) |
        ((bytes[at + 2] as number) << 16);
  }
  return out;
}

/** The record-table chunks (each street's place) of increasing positions. */
export function recordFiles(meta: SearchMeta, positions: Int32Array): Files {
  const files: Files = new Map();
  for (let i = 0, last = -1; i < positions.length; i++) {
    const chunk = Math.floor((positions[i] as number) / RECORD_CHUNK_STREETS);
    if (chunk === last) continue;
    last = chunk;
    const streets = Math.min(RECORD_CHUNK_STREETS, meta.count - chunk * RECORD_CHUNK_STREETS);
    files.set(recordsPath(cc(meta), chunk), streets * meta.placeWidth);
  }
  return files;
}

/** The place of a street (its record chunk fetched). */
export function placeAt(r: Reader, position: number): number {
  const chunk = Math.floor(position / RECORD_CHUNK_STREETS);
  const table = r.bytes(recordsPath(cc(r.meta), chunk));
  const at = (position - chunk * RECORD_CHUNK_STREETS) * r.meta.placeWidth;
  return (
    (table[at] as number) |
    ((table[at + 1] as number) << 8) |
    (r.meta.placeWidth === 3 ? (table[at + 2] as number) << 16 : 0)
  );
}

/** The head-table chunks of increasing positions. */
export function headFiles(meta: SearchMeta, positions: Int32Array): Files {
  const files: Files = new Map();
  for (const [path] of recordFiles(meta, positions)) {
    const chunk = Number(/(\d+)\.bin$/.exec(path)?.[1]);
    files.set(headsPath(cc(meta), chunk), meta.fileBytes.h[chunk] ?? 0);
  }
  return files;
}

/** The heads of increasing positions (their head chunks fetched). */
export function headsAt(r: Reader, positions: Int32Array): (readonly string[])[] {
  const out: (readonly string[])[] = [];
  for (let i = 0; i < positions.length;) {
    const chunk = Math.floor((positions[i] as number) / RECORD_CHUNK_STREETS);
    let j = i;
    while (
      j < positions.length &&
      Math.floor((positions[j] as number) / RECORD_CHUNK_STREETS) === chunk
    )
      j++;
    out.push(...headsInRuns(r.bytes(headsPath(cc(r.meta), chunk)), [...positions.subarray(i, j)]));
    i = j;
  }
  return out;
}

/** The number of each bitmap key's file (the meta's bitmaps and their aliases). */
export function bitmapNumber(r: Reader, key: string): number | undefined {
  return r
    .kept(
      "bitmap numbers",
      0,
      () => new Map([...r.meta.bitmaps.map((k, n) => [k, n] as const), ...r.meta.bitmapAliases]),
    )
    .get(key);
}

export const bitmapFiles = (meta: SearchMeta, numbers: readonly number[]): Files =>
  new Map(numbers.map((n) => [bitmapPath(cc(meta), n), bitmapBytes(meta.count)]));

/** Bitmap file n's words (fetched). */
export function bitmap(r: Reader, n: number): Uint32Array {
  const path = bitmapPath(cc(r.meta), n);
  const bytes = r.bytes(path);
  return r.kept(path, bytes.byteLength, () => decodeBitmap(bytes));
}

export const countFiles = (meta: SearchMeta, n: number): Files =>
  new Map([[gramCountsPath(cc(meta), n), meta.fileBytes.c[n] ?? 0]]);

/** Per place, its streets whose name has the n-gram of count file n (fetched). */
export function placeCounts(r: Reader, n: number, places: number): Int32Array {
  const path = gramCountsPath(cc(r.meta), n);
  const bytes = r.bytes(path);
  return r.kept(path, places * 4, () => decodeGramCounts(bytes, places));
}

/** The tail shards of places. */
export function tailFiles(meta: SearchMeta, places: Iterable<number>): Files {
  const files: Files = new Map();
  for (const place of places) {
    const n = Math.floor(place / TAILS_PER_SHARD);
    files.set(tailsPath(cc(meta), n), meta.fileBytes.t[n] ?? 0);
  }
  return files;
}

/** A place's rendered tail, JSON (0) or CSV (1) (its shard fetched). */
export function tailOf(r: Reader, place: number, format: 0 | 1): string {
  const path = tailsPath(cc(r.meta), Math.floor(place / TAILS_PER_SHARD));
  const bytes = r.bytes(path);
  const shard = r.kept(path, bytes.byteLength, () => new TailShard(bytes));
  return place % TAILS_PER_SHARD >= shard.size
    ? (["}", "\r\n"][format] ?? "")
    : shard.tail(place % TAILS_PER_SHARD, format);
}

/** The country of an index: its meta's paths carry it. */
const cc = (meta: SearchMeta) => meta.country;
