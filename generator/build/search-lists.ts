import { BLOCK_ENTRIES, SEARCH_CHUNK_BYTES, type ListRef } from "../contract/search/store.ts";

/**
 * Encodes the search index's lists (contract/search/store.ts) into one byte stream: each list in
 * blocks of BLOCK_ENTRIES, each block with its own head table, so a block reads alone. Every
 * SEARCH_CHUNK_BYTES of the stream go to `writeChunk` as soon as they are full, so memory stays
 * one chunk and one block.
 */
export class ListWriter {
  private bytes = Buffer.allocUnsafe(2 * SEARCH_CHUNK_BYTES);
  private length = 0;
  /** Stream offset of `bytes[0]`. */
  private flushed = 0;
  private chunks = 0;

  /**
   * @param heads each head's values as a JSON array (its text in a block's head table)
   * @param headOf each street's head
   * @param placeOf each street's place
   */
  constructor(
    private readonly heads: readonly string[],
    private readonly headOf: Int32Array,
    private readonly placeOf: Int32Array,
    private readonly writeChunk: (chunk: number, bytes: Buffer) => void,
  ) {}

  /** Appends the list of these positions (increasing) and says where its blocks are. */
  list(positions: Int32Array): ListRef {
    const ref = [positions.length, this.offset];
    for (let start = 0; start < positions.length; start += BLOCK_ENTRIES) {
      this.block(positions.subarray(start, start + BLOCK_ENTRIES));
      ref.push(this.offset);
      this.flushFull();
    }
    return ref;
  }

  /** Writes the last chunk; returns how many chunks were written. */
  finish(): number {
    if (this.length > 0) this.writeChunk(this.chunks++, Buffer.from(this.bytes.subarray(0, this.length)));
    this.flushed += this.length;
    this.length = 0;
    return this.chunks;
  }

  private get offset(): number {
    return this.flushed + this.length;
  }

  private flushFull(): void {
    let at = 0;
    while (this.length - at >= SEARCH_CHUNK_BYTES) {
      this.writeChunk(this.chunks++, Buffer.from(this.bytes.subarray(at, at + SEARCH_CHUNK_BYTES)));
      at += SEARCH_CHUNK_BYTES;
    }
    if (at === 0) return;
    this.bytes.copy(this.bytes, 0, at, this.length);
    this.length -= at;
    this.flushed += at;
  }

  private block(positions: Int32Array): void {
    const local = new Map<number, number>();
    for (const position of positions) {
      const head = this.headOf[position] ?? 0;
      if (!local.has(head)) local.set(head, local.size);
    }
    const table = Buffer.from(`[${[...local.keys()].map((head) => this.heads[head]).join(",")}]`);
    this.reserve(table.length + 20 + positions.length * 15);
    this.varint(table.length);
    this.varint(positions.length);
    this.length += table.copy(this.bytes, this.length);
    let previous = -1;
    for (const position of positions) {
      this.varint(position - previous);
      previous = position;
      this.varint(this.placeOf[position] ?? 0);
      this.varint(local.get(this.headOf[position] ?? 0) ?? 0);
    }
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + extra));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  private varint(value: number): void {
    while (value >= 0x80) {
      this.bytes[this.length++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.bytes[this.length++] = value;
  }
}
