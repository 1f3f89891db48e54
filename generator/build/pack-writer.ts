import {
  encodeChunk,
  MAX_PACK_CHUNK_BYTES,
  PACK_CHUNK_BYTES,
  packPath,
  type PackRef,
} from "../contract/pack.ts";
import type { Format } from "../contract/query.ts";
import type { FileSink } from "../io/sink.ts";
import type { EncodedRecords } from "./encode.ts";

/**
 * Writes one resource's stream of packed records in one format (pack.ts): views are appended in
 * order, and every `chunkBytes` of the stream become a chunk file with the boundary table of the
 * records that start in it (tests make chunks small).
 */
export class PackWriter {
  /** The chunk being filled: its number, bytes and boundaries. */
  private chunk = 0;
  private buffer: Buffer;
  private filled = 0;
  /** Boundary tables of the chunk being filled ([0]) and of those after it that records already start in. */
  private tables: number[][] = [[]];
  private position = 0;
  /** Each chunk file is encoded here when the sink copies what it is given (one allocation, not one per chunk). */
  private file: Buffer | undefined;

  constructor(
    private readonly sink: FileSink,
    private readonly resource: string,
    private readonly format: Format,
    private readonly chunkBytes = PACK_CHUNK_BYTES,
  ) {
    if (!(chunkBytes > 0 && chunkBytes <= MAX_PACK_CHUNK_BYTES))
      throw new RangeError(
        `pack chunks must be 1…${MAX_PACK_CHUNK_BYTES} bytes, not ${chunkBytes}`,
      );
    this.buffer = Buffer.allocUnsafe(chunkBytes);
  }

  /** Appends a view's encoded records in this writer's format and says where they are. */
  append(encoded: EncodedRecords): PackRef {
    const start = this.position;
    const bytes = encoded.bytes[this.format];
    const offsets = encoded.offsets[this.format];
    const size = this.chunkBytes;
    const firstChunk = Math.floor(start / size);
    const firstIndex = this.tables[0]?.length ?? 0;
    const later: number[] = [];
    for (let record = 0, next = firstChunk + 1; record <= encoded.count; record++) {
      const at = start + (offsets[record] ?? 0);
      // Every further chunk that starts at or before this boundary has it as its first.
      for (; next * size <= at && next * size < start + bytes.length; next++)
        later.push(record, at - next * size);
      if (record < encoded.count)
        (this.tables[Math.floor(at / size) - this.chunk] ??= []).push(at % size);
    }
    for (let at = 0; at < bytes.length;) {
      const taken = bytes.copy(
        this.buffer,
        this.filled,
        at,
        Math.min(bytes.length, at + size - this.filled),
      );
      this.filled += taken;
      at += taken;
      if (this.filled === size) this.flush();
    }
    this.position += bytes.length;
    return { start, bytes: bytes.length, firstIndex, later };
  }

  /** Writes the last, partly filled chunk. */
  finish(): void {
    if (this.filled > 0) this.flush();
  }

  private flush(): void {
    const boundaries = this.tables.shift() ?? [];
    const size = 2 + 2 * boundaries.length + this.filled;
    if (this.sink.copies === true && (this.file?.length ?? 0) < size)
      this.file = Buffer.allocUnsafeSlow(Math.max(size, this.chunkBytes + CHUNK_TABLE_BYTES));
    this.sink.write(
      packPath(this.resource, this.format, this.chunk++),
      encodeChunk(boundaries, this.buffer.subarray(0, this.filled), this.file),
    );
    if (this.tables.length === 0) this.tables.push([]);
    this.filled = 0;
  }
}

/** Room for a chunk's boundary table beside its bytes (1,024 records; a larger table grows the buffer). */
const CHUNK_TABLE_BYTES = 2 + 2 * 1024;
