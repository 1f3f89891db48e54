import { encodeLengths, PACK_CHUNK_BYTES, packPath, type PackRef } from "../contract/pack.ts";
import type { Format } from "../contract/query.ts";
import type { FileSink } from "../io/sink.ts";
import type { EncodedRecords } from "./encode.ts";

/**
 * Writes one resource's stream of packed records in one format (pack.ts): views are appended in
 * order, and every `PACK_CHUNK_BYTES` of the stream become a chunk file (tests make them small).
 */
export class PackWriter {
  private chunk = 0;
  private buffer: Buffer;
  private filled = 0;
  private position = 0;

  constructor(
    private readonly sink: FileSink,
    private readonly resource: string,
    private readonly format: Format,
    private readonly chunkBytes = PACK_CHUNK_BYTES,
  ) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
  }

  /** Appends a view's encoded records in this writer's format and says where they are. */
  append(encoded: EncodedRecords): PackRef {
    const start = this.position;
    const bytes = encoded.bytes[this.format];
    const offsets = encoded.offsets[this.format];
    const lengths = Array.from({ length: encoded.count }, (_, i) => (offsets[i + 1] ?? 0) - (offsets[i] ?? 0));
    for (let at = 0; at < bytes.length; ) {
      const taken = bytes.copy(this.buffer, this.filled, at, Math.min(bytes.length, at + this.chunkBytes - this.filled));
      this.filled += taken;
      at += taken;
      if (this.filled === this.chunkBytes) this.flush();
    }
    this.position += bytes.length;
    return { start, lengths: encodeLengths(lengths) };
  }

  /** Writes the last, partly filled chunk. */
  finish(): void {
    if (this.filled > 0) this.flush();
  }

  private flush(): void {
    this.sink.write(packPath(this.resource, this.format, this.chunk++), this.buffer.subarray(0, this.filled));
    this.buffer = Buffer.allocUnsafe(this.chunkBytes);
    this.filled = 0;
  }
}
