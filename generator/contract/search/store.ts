/**
 * The street-search index as files, per country (`de`, `at`, `ch`, `li`): written by the build,
 * read by the Worker, through the codecs of this folder (one definition of every format). A
 * street is addressed by its position in the country's street order (the Streets order: name,
 * postal code, locality, …), which is also the order of every answer. Files are read whole (the
 * asset store serves no byte ranges), so each is small: a cold request, which reads every file it
 * needs, stays within 1 MiB of index. The paths are made in layout.ts (docs/FORMAT.md § 7):
 *
 *   /_s/{cc}/meta.json        SearchMeta (meta.ts): counts, the head's keys, where the shards begin
 *   /_s/{cc}/places.bin       PlaceTable (meta.ts): the places as columns, with their lists
 *   /_s/{cc}/l/{n}.bin        lexicon shard (shards.ts): a range of lexemes in order, with their lists
 *   /_s/{cc}/g/{n}.bin        trigram shard: likewise, the case-folded trigrams of street names,
 *                             their 1- and 2-grams (for short name filters), their common longer
 *                             n-grams and EVERY_NAME, the empty string, whose list is every run
 *   /_s/{cc}/t/{n}.bin        tails (tails.ts): the [json, csv] tails of TAILS_PER_SHARD places
 *   /_s/{cc}/p/{n}.bin        the lists, one byte stream cut into SEARCH_CHUNK_BYTES files
 *   /_s/{cc}/r/{n}.bin        each street's place, `placeWidth` bytes (little-endian) per position,
 *                             RECORD_CHUNK_STREETS streets a file
 *   /_s/{cc}/h/{n}.bin        the heads of the same streets: their runs of one head (each run
 *                             cut at the file's ends) as blocks of a trigram list (encodeBlock)
 *
 * A record is rendered as head + tail. The head is the record's properties up to and including
 * `name` (`{"name":"Pariser Platz"` in Germany, `{"key":"042417","name":"Achgasse"` in Austria),
 * the tail everything after it (`,"postalCode":"10117",…}`). Tails repeat (every street of a postal
 * code and locality shares one), so they are stored once as places; a list entry holds the head.
 *
 * A list is the streets that contain a lexeme (or a trigram, or belong to a place), in order, cut
 * into blocks of BLOCK_ENTRIES. A block stands alone (encodeBlock): its byte length and entry
 * count, its head table (the distinct heads of its entries, front-coded: they are in name order),
 * then per entry three varints: position delta (the first from -1), place id, index into the head
 * table. A lexeme list's head table ends in a name bit per head (nameBitsOf). A ListRef is the list's length and the stream offsets of its block boundaries, so a page
 * of a one-word search reads one block.
 *
 * Lexeme and place lists have an entry per street (position, place, head). A trigram list has an
 * entry per run of streets with one head (a name's streets follow each other in the order): the
 * run's first position, its length in the place's stead, and its head; the places of its streets
 * are in the record table.
 */
import { csvField } from "../csv.ts";
import { ByteReader, ByteWriter, frontCode } from "./bytes.ts";
import { HeadTable } from "./heads.ts";

export { HeadTable, headsInRuns } from "./heads.ts";

export const SEARCH_CHUNK_BYTES = 128 * 1024;
export const BLOCK_ENTRIES = 1024;
export const TAILS_PER_SHARD = 16;
export const RECORD_CHUNK_STREETS = 16_384;
/**
 * The streets of each place (docs/FORMAT.md § 7.10): positions of POSITION_BYTES bytes, places back
 * to back, cut into files of PLACE_STREETS_PER_FILE positions (a little under 4 KiB), so that a
 * place filter whose places lie all over the place order (`postalCode=01`, `locality=Essen`) reads
 * about 4 KiB per stretch of neighbouring places, not a 128 KiB list chunk.
 */
export const POSITION_BYTES = 3;
export const PLACE_STREETS_PER_FILE = 1365;

export {
  headsPath,
  listChunkPath,
  lexiconPath,
  placeStreetsPath,
  placesPath,
  recordsPath,
  searchMetaPath,
  tailsPath,
  trigramPath,
} from "../layout.ts";

/**
 * `[count, offset0, offset1, …]`: count entries in blocks [offset_k, offset_k+1) of the stream.
 * A place's list is `[count, start, end]`: read whole, its blocks one after another.
 */
export type ListRef = readonly number[];
export const listCount = (ref: ListRef) => ref[0] ?? 0;
export const listBytes = (ref: ListRef) => (ref.at(-1) ?? 0) - (ref[1] ?? 0);

/** UTF-16 code unit order: the order of lexemes, trigrams and postal codes in the index. */
export const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The lexicon key of a lexeme: its first two characters (a prefix search needs at least two); a key's lexemes share a shard. */
export function lexiconKey(lexeme: string): string {
  const [a = "", b = ""] = lexeme;
  return a + b;
}

/**
 * The trigram shards' key for every run of streets: the empty string is in every name. A name
 * filter of fewer than three characters has no trigram and reads this list (if the budget allows).
 */
export const EVERY_NAME = "";

/**
 * Marks the start of a name in the trigram shards' keys: `NAME_START + prefix` lists the runs whose
 * case-folded name starts with the prefix (one and two characters for every name, longer ones as
 * common n-grams), so `name=^Stra` is a list, not a test of every name holding `stra`. U+0000 is
 * in no name (PostgreSQL's text has none) and no plain filter literal (filter.ts refuses it).
 */
export const NAME_START = "\u0000";

/**
 * Marks the end of a name in the trigram shards' keys: `suffix + NAME_END` lists the runs whose
 * case-folded name ends with the suffix (one and two characters for every name, longer ones as
 * common n-grams), so `name=e$` is a list, not a test of every name holding `e`. The same character
 * as NAME_START: at a key's end it cannot be taken for a start.
 */
export const NAME_END = NAME_START;

/**
 * The anchored n-grams of a case-folded name that have lists for every name: its first one and two
 * characters after NAME_START, and its last one and two before NAME_END.
 */
export function anchoredGrams(folded: string): string[] {
  const chars = Array.from(folded);
  const out: string[] = [];
  for (let n = 1; n <= Math.min(2, chars.length); n++)
    out.push(NAME_START + chars.slice(0, n).join(""), chars.slice(-n).join("") + NAME_END);
  return out;
}

/** The distinct trigrams (three code points) of a case-folded text. */
function trigramsOf(folded: string): string[] {
  return gramsOf(folded, 3);
}

/** The distinct n-grams (n code points) of a case-folded text. */
export function gramsOf(folded: string, n: number): string[] {
  const chars = Array.from(folded);
  const out = new Set<string>();
  for (let i = 0; i + n <= chars.length; i++) out.add(chars.slice(i, i + n).join(""));
  return [...out];
}

/**
 * The keys of the trigram shards whose lists hold every name that contains a case-folded
 * literal: its trigrams; a literal of one or two characters is a key of its own (the build lists
 * every 1- and 2-gram of the names too), the empty one EVERY_NAME.
 */
export function literalKeys(folded: string): string[] {
  const length = Array.from(folded).length;
  return length >= 3 ? trigramsOf(folded) : [length === 0 ? EVERY_NAME : folded];
}

/** One street of a list: its position in the country order, its place, its head values. */
export interface ListEntry {
  readonly position: number;
  readonly place: number;
  readonly head: readonly string[];
}

const textEncoder = new TextEncoder();
const scratch = { table: new ByteWriter(), lengths: new ByteWriter() };

/**
 * Appends one block to `out`: entries [0, count) of `positions` (increasing), `seconds` (a
 * street's place, a run's length) and `headIndexes` (into `heads`, the block's distinct heads in
 * the order of their first entry, so in name order). The head table holds the heads column by
 * column, each column front-coded. A lexeme list's table ends in `nameBits`, one bit per head
 * (nameBitsOf): readers of heads never look past the lengths, so other lists do without.
 */
export function encodeBlock(
  out: ByteWriter,
  heads: readonly (readonly string[])[],
  positions: ArrayLike<number>,
  seconds: ArrayLike<number>,
  headIndexes: ArrayLike<number>,
  count: number,
  nameBits?: ArrayLike<number>,
): void {
  const { table, lengths } = scratch;
  const columns = heads[0]?.length ?? 0;
  lengths.clear();
  let text = "";
  for (let c = 0; c < columns; c++)
    text += frontCode(
      heads.map((head) => head[c] ?? ""),
      lengths,
    );
  const utf8 = textEncoder.encode(text);
  table.clear();
  table.varint(heads.length);
  table.varint(columns);
  table.varint(utf8.length);
  table.raw(utf8);
  table.raw(lengths.view());
  if (nameBits !== undefined) {
    const bits = new Uint8Array((heads.length + 7) >>> 3);
    for (let h = 0; h < heads.length; h++) if (nameBits[h]) bits[h >>> 3]! |= 1 << (h & 7);
    table.raw(bits);
  }
  out.varint(table.length);
  out.varint(count);
  out.raw(table.view());
  let last = -1;
  for (let i = 0; i < count; i++) {
    const position = positions[i] ?? 0;
    out.varint(position - last);
    last = position;
    out.varint(seconds[i] ?? 0);
    out.varint(headIndexes[i] ?? 0);
  }
}

/**
 * A lexeme list's name bit of a head is clear only when the lexeme is not one of the head's
 * name's and the name is plain: shorter than PLAIN_NAME_LENGTH and without `<` (lexized apart
 * from its place, as streetLexemes does). Such a street has the lexeme in its place, and a
 * phrase through it is decided by the place (fulltext.ts) without reading the name.
 */
export const PLAIN_NAME_LENGTH = 128;

/** The name bits at the end of a lexeme list block's head table (its bytes; heads: the table's first varint). */
export function nameBitsOf(table: Uint8Array): Uint8Array {
  const heads = new ByteReader(table).varint();
  return table.subarray(table.length - ((heads + 7) >>> 3));
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

/**
 * The entries [from, to) of the blocks held in `bytes` (whole blocks, back to back), appended to
 * `out` in order: the entries before `from` are stepped over and the decoding stops at `to`, so a
 * page of a long block makes only the page's entries.
 */
export function decodeBlocks(
  bytes: Uint8Array,
  out: ListEntry[] = [],
  from = 0,
  to = Infinity,
): ListEntry[] {
  const reader = new ByteReader(bytes);
  for (let n = 0; reader.at < bytes.length && n < to;) {
    const tableLength = reader.varint();
    const count = reader.varint();
    const heads = new HeadTable(bytes.subarray(reader.at, reader.at + tableLength));
    reader.at += tableLength;
    let position = -1;
    for (let i = 0; i < count && n < to; i++, n++) {
      position += reader.varint();
      const place = reader.varint();
      const head = reader.varint();
      if (n >= from) out.push(new BlockEntry(position, place, heads, head));
    }
  }
  return out;
}

/** A head's CSV cells, with the comma that joins them to the tail. */
export function headCsv(values: readonly string[]): string {
  let out = "";
  for (const value of values) out += `${csvField(value)},`;
  return out;
}

/** A head as JSON: the record's opening up to its name (headCsv: its CSV cells). */
export function headJson(keys: readonly string[], values: readonly string[]): string {
  let out = "{";
  for (let i = 0; i < keys.length; i++)
    out += `${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:${JSON.stringify(values[i] ?? "")}`;
  return out;
}
