/**
 * The street-search index as files, per country (`de`, `at`, `ch`, `li`): written by the build,
 * read by the Worker. A street is addressed by its position in the country's street order (the
 * Streets order: name, postal code, locality, …), which is also the order of every answer.
 *
 *   /_s/{cc}/meta.json        SearchMeta: the places (one per distinct "tail", below) with their lists
 *   /_s/{cc}/l/{n}.json       lexicon shard: lexeme → ListRef, by the lexeme's first two characters
 *   /_s/{cc}/g/{n}.json       trigram shard: case-folded trigram of street names → [streets, ListRef]
 *   /_s/{cc}/t/{n}.json       tails: [json, csv] of TAILS_PER_SHARD places each
 *   /_s/{cc}/p/{n}.bin        the lists, one byte stream cut into SEARCH_CHUNK_BYTES files
 *   /_s/{cc}/r/{n}.bin        each street's place, `placeWidth` bytes (little-endian) per position,
 *                             RECORD_CHUNK_STREETS streets a file
 *
 * A record is rendered as head + tail. The head is the record's properties up to and including
 * `name` (`{"name":"Pariser Platz"` in Germany, `{"key":"042417","name":"Achgasse"` in Austria),
 * the tail everything after it (`,"postalCode":"10117",…}`). Tails repeat (every street of a postal
 * code and locality shares one), so they are stored once as places; a list entry holds the head.
 *
 * A list is the streets that contain a lexeme (or a trigram, or belong to a place), in order, cut
 * into blocks of BLOCK_ENTRIES. A block stands alone: varints for the byte length of its head table
 * and its entry count, the head table (UTF-8 JSON: an array of head value arrays), then per entry three varints: position
 * delta (the first from -1), place id, index into the head table. A ListRef is the list's length
 * and the stream offsets of its block boundaries, so a page of a one-word search reads one block.
 *
 * Lexeme and place lists have an entry per street (position, place, head). A trigram list has an
 * entry per run of streets with one head (a name's streets follow each other in the order): the
 * run's first position, its length in the place's stead, and its head; the places of its streets
 * are in the record table.
 */
import { csvField } from "../csv.ts";

export const SEARCH_CHUNK_BYTES = 256 * 1024;
export const BLOCK_ENTRIES = 1024;
export const TAILS_PER_SHARD = 1024;

export const searchMetaPath = (cc: string) => `/_s/${cc}/meta.json`;
export const lexiconPath = (cc: string, shard: number) => `/_s/${cc}/l/${shard}.json`;
export const trigramPath = (cc: string, shard: number) => `/_s/${cc}/g/${shard}.json`;
export const tailsPath = (cc: string, shard: number) => `/_s/${cc}/t/${shard}.json`;
export const listChunkPath = (cc: string, chunk: number) => `/_s/${cc}/p/${chunk}.bin`;
export const recordsPath = (cc: string, chunk: number) => `/_s/${cc}/r/${chunk}.bin`;
export const RECORD_CHUNK_STREETS = 65_536;

/** `[count, offset0, offset1, …]`: count entries in blocks [offset_k, offset_k+1) of the stream. */
export type ListRef = readonly number[];
export const listCount = (ref: ListRef) => ref[0] ?? 0;
export const listBytes = (ref: ListRef) => (ref.at(-1) ?? 0) - (ref[1] ?? 0);

/** One place: what a tail's streets share. */
export type Place = readonly [postalCode: string, locality: string, list: ListRef];

export interface SearchMeta {
  /** Streets in the country. */
  readonly count: number;
  /** A short hash of the index: part of every answer's ETag. */
  readonly hash: string;
  /** The record properties that make the head, in order; the last is `name`. */
  readonly headKeys: readonly string[];
  /** Bytes per street in the record table: 2, or 3 for more than 65,536 places. */
  readonly placeWidth: number;
  readonly lexiconShards: number;
  readonly trigramShards: number;
  readonly places: readonly Place[];
}

export type LexiconShard = Readonly<Record<string, ListRef>>;
/** A trigram's list of name runs, with the number of streets in them. */
export type TrigramShard = Readonly<Record<string, readonly [streets: number, runs: ListRef]>>;

/** The shard key of a lexeme: its first two characters (a prefix search needs at least two). */
export function lexiconKey(lexeme: string): string {
  const [a = "", b = ""] = lexeme;
  return a + b;
}

/** FNV-1a over UTF-16 units, modulo shards. */
export function shardOfKey(key: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % shards;
}

/** The distinct trigrams (three code points) of a case-folded text. */
export function trigramsOf(folded: string): string[] {
  const chars = Array.from(folded);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) out.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  return [...out];
}

/** One street of a list: its position in the country order, its place, its head values. */
export interface ListEntry {
  readonly position: number;
  readonly place: number;
  readonly head: readonly string[];
}

const decoder = new TextDecoder();

/** A head's CSV cells, with the comma that joins them to the tail. */
export function headCsv(values: readonly string[]): string {
  let out = "";
  for (const value of values) out += `${csvField(value)},`;
  return out;
}

/** A block's head table, parsed when a head is first asked for (a page needs a few of a block's heads, a count none). */
class HeadTable {
  private parsed: readonly (readonly string[])[] | undefined;
  constructor(private readonly bytes: Uint8Array) {}
  get(index: number): readonly string[] {
    this.parsed ??= JSON.parse(decoder.decode(this.bytes)) as string[][];
    return this.parsed[index] ?? [];
  }
}

class BlockEntry implements ListEntry {
  constructor(
    readonly position: number,
    readonly place: number,
    private readonly table: HeadTable,
    private readonly index: number,
  ) {}
  get head(): readonly string[] {
    return this.table.get(this.index);
  }
}

/** The entries of the blocks held in `bytes` (whole blocks, back to back), appended to `out` in order. */
export function decodeBlocks(bytes: Uint8Array, out: ListEntry[] = []): ListEntry[] {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[at++] ?? 0;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  while (at < bytes.length) {
    const tableLength = varint();
    const count = varint();
    const heads = new HeadTable(bytes.subarray(at, at + tableLength));
    at += tableLength;
    let position = -1;
    for (let i = 0; i < count; i++) {
      position += varint();
      const place = varint();
      out.push(new BlockEntry(position, place, heads, varint()));
    }
  }
  return out;
}

/** A head as JSON: the record's opening up to its name (headCsv: its CSV cells). */
export function headJson(keys: readonly string[], values: readonly string[]): string {
  let out = "{";
  for (let i = 0; i < keys.length; i++) out += `${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:${JSON.stringify(values[i] ?? "")}`;
  return out;
}
