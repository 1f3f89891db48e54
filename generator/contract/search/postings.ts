/**
 * A list (store.ts) decoded as columns: its positions in one Int32Array, so set algebra
 * (algebra.ts) runs over numbers, and its places and heads beside them, so only the entries a
 * page shows ever become objects. Decoding reads each block's varints once and allocates three
 * typed arrays per list, not an object per entry.
 */
import { ByteReader } from "./bytes.ts";
import { BLOCK_ENTRIES, HeadTable, nameBitsOf, type ListEntry } from "./store.ts";

export class Postings {
  /** Per block: its name bits (a lexeme list's), read when first asked for. */
  private readonly bits: (Uint8Array | undefined)[] = [];

  constructor(
    /** Increasing street positions (a trigram list: each run's first position). */
    readonly positions: Int32Array,
    /** Per entry: a street's place, or a run's length. */
    readonly seconds: Int32Array,
    /** Per entry: its block's number in `tables` and its index in that block's head table, as block * BLOCK_ENTRIES + index. */
    private readonly headRefs: Int32Array,
    private readonly tables: readonly HeadTable[],
    /** Per block: its head table's bytes. */
    private readonly tableBytes: readonly Uint8Array[] = [],
  ) {}

  get length(): number {
    return this.positions.length;
  }

  /** Entry i as a ListEntry. */
  entry(i: number): ListEntry {
    const ref = this.headRefs[i] ?? 0;
    const block = Math.floor(ref / BLOCK_ENTRIES);
    return {
      position: this.positions[i] ?? 0,
      place: this.seconds[i] ?? 0,
      head: this.tables[block]?.get(ref % BLOCK_ENTRIES) ?? [],
    };
  }

  /** Entry i's head as a number (its block's and its index in the block's head table): entries with one number share a head. */
  headRef(i: number): number {
    return this.headRefs[i] ?? 0;
  }

  /** The head of a headRef; the heads' numbers are below this. */
  headOf(ref: number): readonly string[] {
    return this.tables[Math.floor(ref / BLOCK_ENTRIES)]?.get(ref % BLOCK_ENTRIES) ?? [];
  }
  get headRefEnd(): number {
    return this.tables.length * BLOCK_ENTRIES;
  }

  /**
   * Entry i's name bit (a lexeme list's, store.ts PLAIN_NAME_LENGTH): false when its name is
   * plain and has not the lexeme, so the street has it in its place.
   */
  inName(i: number): boolean {
    const ref = this.headRefs[i] ?? 0;
    const block = (ref / BLOCK_ENTRIES) | 0;
    const index = ref % BLOCK_ENTRIES;
    const bits = (this.bits[block] ??= nameBitsOf(this.tableBytes[block] ?? new Uint8Array()));
    return (((bits[index >>> 3] ?? 0xff) >>> (index & 7)) & 1) === 1;
  }

  /** Decodes every block's head table whole: for a caller that will ask for most entries' heads. */
  decodeHeads(): void {
    for (const table of this.tables) table.decodeWhole();
  }

  /** The index of a position among the entries, or -1. */
  indexOf(position: number): number {
    const i = lowerBound(this.positions, position);
    return this.positions[i] === position ? i : -1;
  }

  static readonly EMPTY = new Postings(new Int32Array(), new Int32Array(), new Int32Array(), []);
}

/** The first index whose value is not below `value` in an increasing array. */
export function lowerBound(values: Int32Array, value: number, from = 0): number {
  let [low, high] = [from, values.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The blocks held in `bytes` (whole blocks, back to back) as columns; `count` is their number of entries (the ListRef's). */
export function decodePostings(bytes: Uint8Array, count: number): Postings {
  const positions = new Int32Array(count);
  const seconds = new Int32Array(count);
  const headRefs = new Int32Array(count);
  const tables: HeadTable[] = [];
  const tableBytes: Uint8Array[] = [];
  // ByteReader's varint, not a closure of this function's own: the startup warm-up has compiled
  // it for the index's other readers, so a first request does not compile it again.
  const reader = new ByteReader(bytes);
  let n = 0;
  while (reader.at < bytes.length && n < count) {
    const tableLength = reader.varint();
    const entries = reader.varint();
    const table = bytes.subarray(reader.at, reader.at + tableLength);
    tableBytes.push(table);
    const block = tables.push(new HeadTable(table)) - 1;
    reader.at += tableLength;
    let position = -1;
    for (let i = 0; i < entries && n < count; i++, n++) {
      position += reader.varint();
      positions[n] = position;
      seconds[n] = reader.varint();
      // A block holds at most BLOCK_ENTRIES entries, so at most as many distinct heads.
      headRefs[n] = block * BLOCK_ENTRIES + reader.varint();
    }
  }
  return n === count
    ? new Postings(positions, seconds, headRefs, tables, tableBytes)
    : new Postings(
        positions.subarray(0, n),
        seconds.subarray(0, n),
        headRefs.subarray(0, n),
        tables,
        tableBytes,
      );
}

/** The entry of a position in one of a term's lists. */
export function entryAt(lists: readonly Postings[], position: number): ListEntry | undefined {
  for (const list of lists) {
    if (
      list.length === 0 ||
      position < (list.positions[0] as number) ||
      position > (list.positions[list.length - 1] as number)
    )
      continue;
    const i = list.indexOf(position);
    if (i >= 0) return list.entry(i);
  }
  return undefined;
}
