/**
 * The leaves of a plan (docs/SEARCH.md, "Leaves"): per file of the index, the files a plan needs,
 * worked out from the meta before they are read, and the file read (decoded once per isolate).
 */
import * as layout from "../layout.ts";
import { chunkSpans } from "../pack.ts";
import { bitmapBytes, decodeBitmap } from "./bitmaps.ts";
import { decodeGramCounts } from "./gram-counts.ts";
import { gallop, readUints, runningSums } from "./kernels.ts";
import { decodePlaceTable, type PlaceTable, type SearchMeta } from "./meta.ts";
import type { Files, Found, Reader } from "./plan.ts";
import { decodePostings, Postings } from "./postings.ts";
import { ListShard, shardFor } from "./shards.ts";
import {
  headsInRuns,
  lexiconKey,
  PLACE_STREETS_PER_FILE as PER_FILE,
  POSITION_BYTES,
  RECORD_CHUNK_STREETS as CHUNK,
  SEARCH_CHUNK_BYTES as STREAM,
  TAILS_PER_SHARD,
  type ListRef,
} from "./store.ts";
import { TailShard } from "./tails.ts";

const FAMILIES = {
  p: layout.listChunkPath,
  l: layout.lexiconPath,
  g: layout.trigramPath,
  t: layout.tailsPath,
  r: layout.recordsPath,
  h: layout.headsPath,
  b: layout.bitmapPath,
  c: layout.gramCountsPath,
  s: layout.placeStreetsPath,
};
type Family = keyof typeof FAMILIES;
const interned = new WeakMap<SearchMeta, Record<string, string[]>>();

/**
 * An index's table of paths, made when it is opened (SearchFiles.open), every family in one order:
 * made in pathOf, a branch the warm-up ran before V8 kept feedback deoptimised it (43 of 60).
 */
export function internPaths(meta: SearchMeta): Record<string, string[]> {
  let paths = interned.get(meta);
  if (paths === undefined) {
    paths = {};
    for (const family of Object.keys(FAMILIES)) paths[family] = [];
    interned.set(meta, paths);
  }
  return paths;
}

/** File n of a family, its path made once per index: a path is a key wherever a file is kept. */
export function pathOf(meta: SearchMeta, family: Family, n: number): string {
  const paths = interned.get(meta) ?? internPaths(meta);
  return ((paths[family] ??= [])[n] ??= FAMILIES[family](meta.country, n));
}

/** The bytes of file n of a family: worked out for files of a fixed size, the others' from the meta. */
function sizeOf(meta: SearchMeta, family: Family, n: number): number {
  const part = (total: number, per: number) => Math.min(per, total - n * per);
  if (family === "p") return part(meta.streamBytes, STREAM);
  if (family === "r") return part(meta.count, CHUNK) * meta.placeWidth;
  if (family === "s") return part(meta.count, PER_FILE) * POSITION_BYTES;
  if (family === "b") return bitmapBytes(meta.count);
  return meta.fileBytes[family][n] ?? 0;
}

export function filesOf(meta: SearchMeta, family: Family, numbers: Iterable<number>): Files {
  const files: Files = new Map();
  for (const n of numbers) files.set(pathOf(meta, family, n), sizeOf(meta, family, n));
  return files;
}

/** The numbers of the chunks of `size` units that units lie in, each once when the units increase. */
function chunksOf(units: ArrayLike<number>, size: number): number[] {
  const out: number[] = [];
  // No call per unit in the last one's chunk: a fresh isolate runs this loop in the interpreter.
  for (let i = 0, first = 0, end = -1; i < units.length; i++) {
    const unit = units[i] as number;
    if (unit >= first && unit < end) continue;
    const chunk = Math.floor(unit / size);
    out.push(chunk);
    first = chunk * size;
    end = first + size;
  }
  return out;
}

/** The files of `family` (of `size` units each) that unit ranges [from, to) lie in. */
function rangeFiles(meta: SearchMeta, family: Family, size: number, ranges: number[][]): Files {
  const files = new Set<number>();
  for (const [from = 0, to = 0] of ranges)
    for (let f = Math.floor(from / size); f * size < to && from < to; f++) files.add(f);
  return filesOf(meta, family, files);
}

/** The lists' files (whole lists: a ListRef is its count and its blocks' offsets). */
export const listFiles = (meta: SearchMeta, refs: readonly ListRef[]): Files =>
  rangeFiles(
    meta,
    "p",
    STREAM,
    refs.map((ref) => [ref[1] ?? 0, ref.at(-1) ?? 0]),
  );

/** The files of a list's blocks [from, to) (to at most its last block). */
export const blockFiles = (meta: SearchMeta, ref: ListRef, from: number, to: number): Files =>
  rangeFiles(meta, "p", STREAM, [[ref[1 + from] ?? 0, ref[1 + Math.min(to, ref.length - 2)] ?? 0]]);

/** The bytes of a list's blocks [from, to) (their files fetched). */
export const blockBytes = (r: Reader, ref: ListRef, from: number, to: number): Uint8Array =>
  streamBytes(r, ref[1 + from] ?? 0, ref[1 + to] ?? 0);

/** Bytes [from, to) of the list stream, its chunks fetched. */
function streamBytes(r: Reader, from: number, to: number): Uint8Array {
  const spans = chunkSpans(from, to, STREAM);
  const chunk = (n: number) => r.bytes(pathOf(r.meta, "p", n));
  const [only] = spans;
  if (spans.length === 1 && only !== undefined)
    return chunk(only.chunk).subarray(only.from, only.to);
  const out = new Uint8Array(to - from);
  for (const span of spans)
    out.set(chunk(span.chunk).subarray(span.from, span.to), span.chunk * STREAM + span.from - from);
  return out;
}

/** A whole list decoded as columns (its files fetched), kept per isolate. */
export function list(r: Reader, ref: ListRef): Postings {
  const [count = 0, from = 0] = ref;
  if (count === 0) return Postings.EMPTY;
  return r.kept(from, count * 12, () =>
    decodePostings(streamBytes(r, from, ref.at(-1) ?? 0), count),
  );
}

/** The code points of a meta's characters (a column's, the names'), as a set kept per isolate under `key`. */
export const codePoints = (r: Reader, key: string, characters: string): ReadonlySet<number> =>
  r.kept(key, 0, () => new Set(Array.from(characters, (c) => c.codePointAt(0) ?? 0)));

/** The shard files of keys: lexicon shards for lexemes (their two-character group), n-gram shards for n-grams. */
export function shardFiles(meta: SearchMeta, keys: readonly string[], lexicon: boolean): Files {
  const shards = lexicon ? meta.lexiconShards : meta.trigramShards;
  const numbers = keys.map((key) => shardFor(shards, lexicon ? lexiconKey(key) : key));
  return filesOf(meta, lexicon ? "l" : "g", numbers);
}

/** The shard a key is in (its file fetched). */
export function shardOf(r: Reader, key: string, lexicon: boolean): ListShard {
  const [path = ""] = shardFiles(r.meta, [key], lexicon).keys();
  return r.decoded(path, (bytes) => ListShard.parse(bytes));
}

export const placeTableFiles = (meta: SearchMeta): Files =>
  new Map([[layout.placesPath(meta.country), meta.fileBytes.places]]);

/** The place table (its file fetched). */
export const placeTable = (r: Reader): PlaceTable =>
  r.decoded(layout.placesPath(r.meta.country), (bytes) => decodePlaceTable(bytes));

/** Where each place's streets start among all places' streets (the sums of the streets of the places before it). */
export const streetStarts = (r: Reader, table: PlaceTable): Int32Array =>
  r.kept("street starts", table.size * 4, () =>
    runningSums(table.counts, new Int32Array(table.size + 1)),
  );

/** The files of the streets of increasing places: no array per place (thousands, in the interpreter). */
export function placeStreetFiles(meta: SearchMeta, starts: Int32Array, places: Int32Array): Files {
  const files: number[] = [];
  for (let i = 0; i < places.length; i++) {
    const from = starts[places[i] as number] as number;
    const to = starts[(places[i] as number) + 1] as number;
    let f = Math.max(Math.floor(from / PER_FILE), (files[files.length - 1] ?? -1) + 1);
    for (; f * PER_FILE < to && from < to; f++) files.push(f);
  }
  return filesOf(meta, "s", files);
}

/** The streets of each place, in order (their files fetched): one loop, warmed at startup (edge/warm-kernels.ts). */
export function streetsOfPlaces(
  r: Reader,
  starts: Int32Array,
  places: readonly number[],
): Int32Array[] {
  const out: Int32Array[] = [];
  for (let i = 0; i < places.length; i++) {
    const p = places[i] as number;
    const from = starts[p] as number;
    const to = starts[p + 1] as number;
    const streets = new Int32Array(to - from);
    for (let k = from; k < to;) {
      const f = Math.floor(k / PER_FILE);
      const end = Math.min(to, (f + 1) * PER_FILE);
      const at = (k - f * PER_FILE) * POSITION_BYTES;
      readUints(r.bytes(pathOf(r.meta, "s", f)), at, POSITION_BYTES, streets, k - from, end - from);
      k = end;
    }
    out.push(streets);
  }
  return out;
}

/** The record-table chunks (each street's place) of increasing positions. */
export const recordFiles = (meta: SearchMeta, positions: ArrayLike<number>): Files =>
  filesOf(meta, "r", chunksOf(positions, CHUNK));

/** The places of a page's streets (their record chunks fetched). */
export const placesAt = (r: Reader, positions: ArrayLike<number>): Int32Array =>
  Int32Array.from(positions, (p) => placesIn(r, p, 1)[0] as number);

/** The record chunks of streets [first, first + count). */
export const recordRangeFiles = (meta: SearchMeta, first: number, count: number): Files =>
  rangeFiles(meta, "r", CHUNK, [[first, first + count]]);

/** The places of streets [first, first + count) (their record chunks fetched). */
export function placesIn(r: Reader, first: number, count: number): Int32Array {
  const out = new Int32Array(count);
  for (let k = first; k < first + count;) {
    const c = Math.floor(k / CHUNK);
    const end = Math.min(first + count, (c + 1) * CHUNK);
    const at = (k - c * CHUNK) * r.meta.placeWidth;
    readUints(r.bytes(pathOf(r.meta, "r", c)), at, r.meta.placeWidth, out, k - first, end - first);
    k = end;
  }
  return out;
}

/** The head-table chunks of increasing positions. */
export const headFiles = (meta: SearchMeta, positions: ArrayLike<number>): Files =>
  filesOf(meta, "h", chunksOf(positions, CHUNK));

/** The record and head chunks a found page still needs: those of what its plan did not give. */
export const pageFiles = (meta: SearchMeta, found: Found): Files =>
  new Map([
    ...(found.places === undefined ? recordFiles(meta, found.positions) : []),
    ...(found.heads === undefined ? headFiles(meta, found.positions) : []),
  ]);

/** The heads of positions, in their order (their head chunks fetched): a page of Suggestions is in rank order. */
export function headsAt(r: Reader, positions: Int32Array): (readonly string[])[] {
  const sorted = Int32Array.from(positions).sort();
  const heads: (readonly string[])[] = [];
  for (const chunk of chunksOf(sorted, CHUNK)) {
    const here = [...sorted].filter((p) => Math.floor(p / CHUNK) === chunk);
    heads.push(...headsInRuns(r.bytes(pathOf(r.meta, "h", chunk)), here));
  }
  return Array.from(positions, (p) => heads[gallop(sorted, p)] ?? []);
}

/** The number of a bitmap key's file (the meta's bitmaps and their aliases). */
export function bitmapNumber(r: Reader, key: string): number | undefined {
  const { bitmaps, bitmapAliases } = r.meta;
  const numbers = () => new Map([...bitmaps.map((k, n) => [k, n] as const), ...bitmapAliases]);
  return r.kept("bitmap numbers", 0, numbers).get(key);
}

/** Bitmap file n's words (fetched). */
export const bitmap = (r: Reader, n: number): Uint32Array =>
  r.decoded(pathOf(r.meta, "b", n), decodeBitmap);

/** Per place, its streets whose name has the n-gram of count file n (fetched). */
export const placeCounts = (r: Reader, n: number, places: number): Int32Array =>
  r.decoded(pathOf(r.meta, "c", n), (bytes) => decodeGramCounts(bytes, places));

export const tailFiles = (meta: SearchMeta, places: Iterable<number>): Files =>
  filesOf(
    meta,
    "t",
    Array.from(places, (place) => Math.floor(place / TAILS_PER_SHARD)),
  );

/** A place's rendered tail, JSON (0) or CSV (1) (its shard fetched). */
export function tailOf(r: Reader, place: number, format: 0 | 1): string {
  const n = Math.floor(place / TAILS_PER_SHARD);
  const shard = r.decoded(pathOf(r.meta, "t", n), (bytes) => new TailShard(bytes));
  const i = place % TAILS_PER_SHARD;
  return i >= shard.size ? (["}", "\r\n"][format] ?? "") : shard.tail(i, format);
}
