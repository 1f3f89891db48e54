import { chunkSpans, PACK_CHUNK_BYTES, packPath, type ChunkSpan } from "../contract/pack.ts";
import type { Format } from "../contract/query.ts";
import type { PackedRecords } from "../contract/shard.ts";
import type { AssetStore } from "./assets.ts";

const encoder = new TextEncoder();
const OPEN = encoder.encode("[");
const CLOSE = encoder.encode("]");

/** Bytes of a view's records [start, end) in a resource's packed stream, as a page is made of them. */
export interface PackedSlice {
  /** `[` for JSON, the header line for CSV. */
  readonly prefix: Uint8Array;
  readonly spans: readonly ChunkSpan[];
  /** `]` for JSON. */
  readonly suffix: Uint8Array;
  readonly length: number;
}

/** The slice of records [start, end) of a packed view, a JSON slice without its last record's comma. */
export function packedSlice(packed: PackedRecords, format: Format, start: number, end: number, csvHeaderLine: Uint8Array, chunkBytes = PACK_CHUNK_BYTES): PackedSlice {
  const offsets = packed.offsets();
  const from = packed.start + (offsets[start] ?? 0);
  const to = packed.start + (offsets[end] ?? 0) - (format === "json" && end > start ? 1 : 0);
  const [prefix, suffix] = format === "json" ? [OPEN, CLOSE] : [csvHeaderLine, new Uint8Array()];
  return { prefix, spans: chunkSpans(from, to, chunkBytes), suffix, length: prefix.length + (to - from) + suffix.length };
}

/** A page's bytes: the slice copied out of the one or two chunk files that hold it, fetched in parallel. */
export async function readSlice(store: AssetStore, origin: string, resource: string, format: Format, slice: PackedSlice): Promise<Uint8Array> {
  const chunks = await Promise.all(slice.spans.map((span) => store.chunk(origin, packPath(resource, format, span.chunk))));
  const body = new Uint8Array(slice.length);
  body.set(slice.prefix, 0);
  let at = slice.prefix.length;
  slice.spans.forEach((span, i) => {
    body.set((chunks[i] ?? new Uint8Array()).subarray(span.from, span.to), at);
    at += span.to - span.from;
  });
  body.set(slice.suffix, at);
  return body;
}

/** A slice of any length (a whole view), streamed chunk by chunk. */
export function streamSlice(store: AssetStore, origin: string, resource: string, format: Format, slice: PackedSlice): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (slice.prefix.length > 0) controller.enqueue(slice.prefix);
    },
    async pull(controller) {
      const span = slice.spans[next++];
      if (span === undefined) {
        if (slice.suffix.length > 0) controller.enqueue(slice.suffix);
        controller.close();
        return;
      }
      const chunk = await store.chunk(origin, packPath(resource, format, span.chunk));
      // A copy: the chunk may stay in the isolate's cache, and a stream may take over what it is given.
      controller.enqueue(chunk.slice(span.from, span.to));
    },
  });
}
