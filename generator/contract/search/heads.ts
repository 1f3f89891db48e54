/**
 * Reading heads out of a list block's head table (store.ts encodeBlock): a page shows one or two
 * heads of each block it touches, so a head is read without decoding the block's others.
 */
import { ByteReader, readFrontCoded } from "./bytes.ts";

/**
 * A block's head table, read when a head is first asked for (a page needs a few of a block's
 * heads, a count none). A page's rows lie in as many blocks as it has rows, so one head is
 * rebuilt from the front-coded rests alone (walking back to where its prefix was written), not
 * the table's thousand; a table asked for many heads is decoded whole once that costs less.
 */
export class HeadTable {
  private heads: readonly (readonly string[])[] | undefined;
  private columns: FrontCodedColumn[] | undefined;
  private text = "";
  /** Entries walked by single lookups: past a few times the table's size, decoding it whole is cheaper. */
  private walked = 0;
  constructor(private readonly bytes: Uint8Array) {}
  get(index: number): readonly string[] {
    if (this.heads !== undefined) return this.heads[index] ?? [];
    const columns = (this.columns ??= this.readColumns());
    const count = columns[0]?.shared.length ?? 0;
    if (index < 0 || index >= count) return [];
    if (this.walked > 4 * count + 64) {
      this.heads = decodeHeads(this.bytes);
      this.columns = undefined;
      return this.heads[index] ?? [];
    }
    return columns.map((column) => this.value(column, index));
  }

  /** Decodes the table whole now: most of its heads will be asked for (a dense list's names tested). */
  decodeWhole(): void {
    this.heads ??= decodeHeads(this.bytes);
    this.columns = undefined;
  }

  /** The lengths of every column as arrays (numbers only: no string is built). */
  private readColumns(): FrontCodedColumn[] {
    const reader = new ByteReader(this.bytes);
    const count = reader.varint();
    const columns = reader.varint();
    this.text = reader.text(reader.varint());
    const out: FrontCodedColumn[] = [];
    for (let c = 0, at = 0; c < columns; c++) {
      const shared = new Int32Array(count);
      const starts = new Int32Array(count + 1);
      for (let i = 0; i < count; i++) {
        shared[i] = reader.varint();
        starts[i] = at;
        at += reader.varint();
      }
      starts[count] = at;
      out.push({ shared, starts });
    }
    return out;
  }

  /** String `index` of a column: its rest, after the pieces of its prefix that earlier strings wrote. */
  private value({ shared, starts }: FrontCodedColumn, index: number): string {
    let value = this.text.slice(starts[index], starts[index + 1]);
    let limit = shared[index] ?? 0;
    for (let j = index - 1; limit > 0 && j >= 0; j--) {
      this.walked++;
      const own = shared[j] ?? 0;
      if (own >= limit) continue;
      const start = starts[j] ?? 0;
      value = this.text.slice(start, start + limit - own) + value;
      limit = own;
    }
    return value;
  }
}

interface FrontCodedColumn {
  /** Per string: UTF-16 units shared with the previous one. */
  readonly shared: Int32Array;
  /** Per string: where its rest begins in the table's text (and after the last, where the column's text ends). */
  readonly starts: Int32Array;
}

function decodeHeads(bytes: Uint8Array): (readonly string[])[] {
  const reader = new ByteReader(bytes);
  const count = reader.varint();
  const columns = reader.varint();
  const text = reader.text(reader.varint());
  if (columns === 1) return readFrontCoded(count, reader, text).strings.map((value) => [value]);
  const heads: string[][] = Array.from({ length: count }, () => []);
  for (let c = 0, at = 0; c < columns; c++) {
    const column = readFrontCoded(count, reader, text, at);
    column.strings.forEach((value, h) => heads[h]?.push(value));
    at = column.end;
  }
  return heads;
}

/**
 * The heads of streets of a head-table chunk (`/_s/{cc}/h/{n}.bin`: runs of one head as blocks),
 * by position (increasing): one pass over the runs that stops after the last street asked for,
 * each block's head table read only for the heads asked of it.
 */
export function headsInRuns(
  bytes: Uint8Array,
  positions: readonly number[],
): (readonly string[])[] {
  const out: (readonly string[])[] = [];
  const reader = new ByteReader(bytes);
  while (reader.at < bytes.length && out.length < positions.length) {
    const tableLength = reader.varint();
    const count = reader.varint();
    const heads = new HeadTable(bytes.subarray(reader.at, reader.at + tableLength));
    reader.at += tableLength;
    let position = -1;
    for (let i = 0; i < count && out.length < positions.length; i++) {
      position += reader.varint();
      const end = position + reader.varint();
      const head = reader.varint();
      while (out.length < positions.length && (positions[out.length] ?? 0) < end)
        out.push((positions[out.length] ?? 0) >= position ? heads.get(head) : []);
    }
  }
  while (out.length < positions.length) out.push([]);
  return out;
}
