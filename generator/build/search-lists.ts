import { ByteWriter } from "../contract/search/bytes.ts";
import {
  BLOCK_ENTRIES,
  encodeBlock,
  PLACE_STREETS_PER_FILE,
  POSITION_BYTES,
  SEARCH_CHUNK_BYTES,
  type ListRef,
} from "../contract/search/store.ts";

/**
 * Writes the search index's lists (contract/search/store.ts) as one byte stream: each list in
 * blocks of BLOCK_ENTRIES (encodeBlock), each with its own head table, so a block reads alone. Every
 * SEARCH_CHUNK_BYTES of the stream go to `writeChunk` as soon as they are full, so memory stays
 * one chunk and one block.
 */
export class ListWriter {
  private bytes = Buffer.allocUnsafe(2 * SEARCH_CHUNK_BYTES);
  private length = 0;
  /** Stream offset of `bytes[0]`. */
  private flushed = 0;
  private chunks = 0;
  private readonly block = new ByteWriter();
  private readonly positions = new Int32Array(BLOCK_ENTRIES);
  private readonly seconds = new Int32Array(BLOCK_ENTRIES);
  private readonly headIndexes = new Int32Array(BLOCK_ENTRIES);
  private readonly nameBits = new Uint8Array(BLOCK_ENTRIES);

  /** @param heads each head's values, by head id */
  constructor(
    private readonly heads: readonly (readonly string[])[],
    private readonly writeChunk: (chunk: number, bytes: Buffer) => void,
  ) {}

  /**
   * Appends a list: per entry its position (increasing), a second number (a street's place, a
   * run's length) and its head, and says where the list's blocks are. A lexeme list gives its
   * entries' name bits (store.ts nameBitsOf), one per head: a head's is set if any entry's is.
   */
  list(
    positions: Int32Array,
    second: (i: number, position: number) => number,
    head: (i: number, position: number) => number,
    inName?: Uint8Array,
  ): ListRef {
    const ref = [positions.length, this.offset];
    for (let start = 0; start < positions.length; start += BLOCK_ENTRIES) {
      this.writeBlock(
        positions,
        start,
        Math.min(positions.length, start + BLOCK_ENTRIES),
        second,
        head,
        inName,
      );
      ref.push(this.offset);
      this.flushFull();
    }
    return ref;
  }

  /** Writes the last chunk; returns the stream's bytes. */
  finish(): number {
    if (this.length > 0)
      this.writeChunk(this.chunks++, Buffer.from(this.bytes.subarray(0, this.length)));
    this.flushed += this.length;
    this.length = 0;
    return this.flushed;
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

  private writeBlock(
    positions: Int32Array,
    from: number,
    to: number,
    second: (i: number, position: number) => number,
    head: (i: number, position: number) => number,
    inName: Uint8Array | undefined,
  ): void {
    const local = new Map<number, number>();
    const heads: (readonly string[])[] = [];
    this.nameBits.fill(0);
    for (let i = from; i < to; i++) {
      const position = positions[i] ?? 0;
      const id = head(i, position);
      let index = local.get(id);
      if (index === undefined) {
        local.set(id, (index = heads.length));
        heads.push(this.heads[id] ?? []);
      }
      this.positions[i - from] = position;
      this.seconds[i - from] = second(i, position);
      this.headIndexes[i - from] = index;
      if (inName?.[i] === 1) this.nameBits[index] = 1;
    }
    this.block.clear();
    encodeBlock(
      this.block,
      heads,
      this.positions,
      this.seconds,
      this.headIndexes,
      to - from,
      inName === undefined ? undefined : this.nameBits,
    );
    const bytes = this.block.view();
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + extra));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}

/** Strings numbered in order of first appearance. */
export class Interner {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.values.push(value) - 1));
    return id;
  }
}

/**
 * (key, value) pairs in growable typed arrays, grouped by key with a counting sort (values keep
 * their order). `capacity`: the pairs expected, when known (no array grown and copied then).
 */
export class PairList {
  private keys: Int32Array;
  private values: Int32Array;
  private length = 0;

  constructor(capacity = 1 << 16) {
    this.keys = new Int32Array(Math.max(capacity, 1));
    this.values = new Int32Array(Math.max(capacity, 1));
  }

  push(key: number, value: number): void {
    if (this.length === this.keys.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.keys = grow(this.keys);
      this.values = grow(this.values);
    }
    this.keys[this.length] = key;
    this.values[this.length++] = value;
  }

  group(groups: number): Int32Array[] {
    const starts = new Int32Array(groups + 1);
    for (let i = 0; i < this.length; i++) starts[this.keys[i]! + 1]!++;
    for (let g = 0; g < groups; g++) starts[g + 1]! += starts[g]!;
    const sorted = new Int32Array(this.length);
    const fill = starts.slice(0, groups);
    for (let i = 0; i < this.length; i++) sorted[fill[this.keys[i]!]!++] = this.values[i]!;
    return Array.from({ length: groups }, (_, g) => sorted.subarray(starts[g]!, starts[g + 1]!));
  }
}

/**
 * The streets of each place (contract/search/store.ts PLACE_STREETS_PER_FILE): every place's
 * positions (`byPlace`, in place order), POSITION_BYTES little-endian each, back to back, cut
 * into files of PLACE_STREETS_PER_FILE positions; `write` takes file n's bytes.
 */
export function writePlaceStreets(
  byPlace: readonly Int32Array[],
  write: (n: number, bytes: Uint8Array) => void,
): void {
  const file = new Uint8Array(PLACE_STREETS_PER_FILE * POSITION_BYTES);
  let [at, n] = [0, 0];
  for (const positions of byPlace)
    for (const position of positions) {
      file[at++] = position & 0xff;
      file[at++] = (position >>> 8) & 0xff;
      file[at++] = position >>> 16;
      if (at < file.length) continue;
      write(n++, file.slice());
      at = 0;
    }
  if (at > 0) write(n, file.slice(0, at));
}
