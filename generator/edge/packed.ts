import {
  chunkBoundary,
  chunkPayload,
  chunkSpans,
  locateBoundary,
  PACK_CHUNK_BYTES,
  packPath,
  type Boundary,
  type PackRef,
} from "../contract/pack.ts";
import type { Format } from "../contract/query.ts";
import type { AssetStore } from "./assets.ts";

const encoder = new TextEncoder();
const OPEN = encoder.encode("[");
const CLOSE = encoder.encode("]");
const NOTHING = new Uint8Array();

/** Where one format's packed stream of a resource is read from. */
export interface PackedStream {
  readonly store: AssetStore;
  readonly origin: string;
  readonly resource: string;
  readonly format: Format;
  /** The CSV header line (a CSV page starts with it). */
  readonly csvHeaderLine: Uint8Array;
  /** Tests make chunks small. */
  readonly chunkBytes?: number;
}

/**
 * Records [start, end) of a packed view of `total` records, as a page: the chunks that hold them
 * (one or two), fetched in parallel, and the slice between the two boundaries copied out of them.
 */
export async function readPackedPage(
  stream: PackedStream,
  ref: PackRef,
  total: number,
  start: number,
  end: number,
): Promise<Uint8Array> {
  const { store, origin, resource, format } = stream;
  const chunkBytes = chunkSizeOf(stream);
  const from = locateBoundary(ref, total, start, chunkBytes);
  const to = locateBoundary(ref, total, end, chunkBytes);
  // A JSON slice ends before its last record's comma: the last byte read is two before the boundary.
  const trailing = format === "json" && end > start ? 1 : 0;
  const first = "position" in from ? Math.floor(from.position / chunkBytes) : from.chunk;
  const last = "position" in to ? Math.floor((to.position - 1 - trailing) / chunkBytes) : to.chunk;
  const files = await Promise.all(
    Array.from({ length: Math.max(0, last - first + 1) }, (_, i) =>
      store.chunk(origin, packPath(resource, format, first + i)),
    ),
  );
  const positionOf = (boundary: Boundary) =>
    "position" in boundary
      ? boundary.position
      : boundary.chunk * chunkBytes +
        chunkBoundary(files[boundary.chunk - first] ?? NOTHING, boundary.index);
  const [prefix, suffix] = frameOf(stream);
  const sliceFrom = positionOf(from);
  const sliceTo = positionOf(to) - trailing;
  const body = new Uint8Array(prefix.length + (sliceTo - sliceFrom) + suffix.length);
  body.set(prefix, 0);
  let at = prefix.length;
  for (const span of chunkSpans(sliceFrom, sliceTo, chunkBytes)) {
    body.set(chunkPayload(files[span.chunk - first] ?? NOTHING).subarray(span.from, span.to), at);
    at += span.to - span.from;
  }
  body.set(suffix, at);
  return body;
}

/** A packed view's records, all of them (its download): the length, known from its index entry, and the bytes streamed chunk by chunk. */
export function streamPackedView(
  stream: PackedStream,
  ref: PackRef,
): { readonly length: number; readonly body: () => ReadableStream<Uint8Array> } {
  const { store, origin, resource, format } = stream;
  const [prefix, suffix] = frameOf(stream);
  const spans = chunkSpans(
    ref.start,
    ref.start + ref.bytes - (format === "json" && ref.bytes > 0 ? 1 : 0),
    chunkSizeOf(stream),
  );
  const length =
    prefix.length + spans.reduce((sum, span) => sum + span.to - span.from, 0) + suffix.length;
  const body = () => {
    let next = 0;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        if (prefix.length > 0) controller.enqueue(prefix);
      },
      async pull(controller) {
        const span = spans[next++];
        if (span === undefined) {
          if (suffix.length > 0) controller.enqueue(suffix);
          controller.close();
          return;
        }
        const path = packPath(resource, format, span.chunk);
        // A copy: the chunk may stay in the isolate's cache, and a stream may take over what it is given.
        const bytes = chunkPayload(await store.chunk(origin, path)).slice(span.from, span.to);
        // A chunk shorter than the index says is of another build: fail now rather than send a short body.
        if (bytes.length !== span.to - span.from)
          throw new Error(`${path} is shorter than the view's index entry says`);
        controller.enqueue(bytes);
      },
    });
  };
  return { length, body };
}

function chunkSizeOf(stream: PackedStream): number {
  return stream.chunkBytes ?? PACK_CHUNK_BYTES;
}

function frameOf(stream: PackedStream): readonly [prefix: Uint8Array, suffix: Uint8Array] {
  return stream.format === "json" ? [OPEN, CLOSE] : [stream.csvHeaderLine, NOTHING];
}
