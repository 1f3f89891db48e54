import { BLOCK_ENTRIES, type ListRef } from "../contract/search/store.ts";

/**
 * Encodes the search index's lists (contract/search/store.ts) into one growing byte stream: each
 * list in blocks of BLOCK_ENTRIES, each block with its own head table, so a block reads alone.
 */
export class ListWriter {
  private bytes = Buffer.allocUnsafe(1 << 20);
  private length = 0;

  /**
   * @param heads each head's values as a JSON array (its text in a block's head table)
   * @param headOf each street's head
   * @param placeOf each street's place
   */
  constructor(
    private readonly heads: readonly string[],
    private readonly headOf: Int32Array,
    private readonly placeOf: Int32Array,
  ) {}

  /** Appends the list of these positions (increasing) and says where its blocks are. */
  list(positions: Int32Array): ListRef {
    const ref = [positions.length, this.length];
    for (let start = 0; start < positions.length; start += BLOCK_ENTRIES) {
      this.block(positions.subarray(start, start + BLOCK_ENTRIES));
      ref.push(this.length);
    }
    return ref;
  }

  /** The stream: every list appended so far. */
  finish(): Buffer {
    return this.bytes.subarray(0, this.length);
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
