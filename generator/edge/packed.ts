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
  const slice = sliceOf(stream, ref, total, start, end);
  const files = await Promise.all(
    Array.from({ length: Math.max(0, slice.last - slice.first + 1) }, (_, i) =>
      stream.store.chunk(stream.origin, packPath(stream.resource, stream.format, slice.first + i)),
    ),
  );
  const bytes = sliceBytes(stream, slice, (chunk) => files[chunk - slice.first] ?? NOTHING);
  const [prefix, suffix] = frameOf(stream);
  const body = new Uint8Array(prefix.length + bytes.length + suffix.length);
  body.set(prefix, 0);
  body.set(bytes, prefix.length);
  body.set(suffix, prefix.length + bytes.length);
  return body;
}

/**
 * Several runs of a packed view's records ([start, end) each, ascending), unframed: each chunk
 * they reach read once, one after another, then every run sliced out of them (a page of records
 * scattered over the view reads each of its chunks once and awaits nothing per run).
 */
export async function readPackedRuns(
  stream: PackedStream,
  ref: PackRef,
  total: number,
  runs: readonly (readonly [start: number, end: number])[],
): Promise<Uint8Array[]> {
  const slices = runs.map(([start, end]) => sliceOf(stream, ref, total, start, end));
  const files = new Map<number, Uint8Array>();
  for (const { first, last } of slices)
    for (let chunk = first; chunk <= last; chunk++)
      if (!files.has(chunk))
        files.set(
          chunk,
          await stream.store.chunk(stream.origin, packPath(stream.resource, stream.format, chunk)),
        );
  return slices.map((slice) => sliceBytes(stream, slice, (chunk) => files.get(chunk) ?? NOTHING));
}

/** Where records [start, end) are: the boundaries around them and the chunks [first, last] between. */
interface Slice {
  readonly from: Boundary;
  readonly to: Boundary;
  /** 1 when the last byte read is a JSON record's comma, left out. */
  readonly trailing: number;
  readonly first: number;
  readonly last: number;
}

function sliceOf(
  stream: PackedStream,
  ref: PackRef,
  total: number,
  start: number,
  end: number,
): Slice {
  const chunkBytes = chunkSizeOf(stream);
  const from = locateBoundary(ref, total, start, chunkBytes);
  const to = locateBoundary(ref, total, end, chunkBytes);
  // A JSON slice ends before its last record's comma: the last byte read is two before the boundary.
  const trailing = stream.format === "json" && end > start ? 1 : 0;
  const first = "position" in from ? Math.floor(from.position / chunkBytes) : from.chunk;
  const last = "position" in to ? Math.floor((to.position - 1 - trailing) / chunkBytes) : to.chunk;
  return { from, to, trailing, first, last };
}

/** A slice's bytes out of its chunk files: a view into one chunk, or a copy across two. */
function sliceBytes(
  stream: PackedStream,
  { from, to, trailing }: Slice,
  file: (chunk: number) => Uint8Array,
): Uint8Array {
  const chunkBytes = chunkSizeOf(stream);
  const positionOf = (boundary: Boundary) =>
    "position" in boundary
      ? boundary.position
      : boundary.chunk * chunkBytes + chunkBoundary(file(boundary.chunk), boundary.index);
  const sliceFrom = positionOf(from);
  const sliceTo = positionOf(to) - trailing;
  const spans = chunkSpans(sliceFrom, sliceTo, chunkBytes);
  const only = spans.length === 1 ? spans[0] : undefined;
  if (only !== undefined) return chunkPayload(file(only.chunk)).subarray(only.from, only.to);
  const bytes = new Uint8Array(Math.max(0, sliceTo - sliceFrom));
  let at = 0;
  for (const span of spans) {
    bytes.set(chunkPayload(file(span.chunk)).subarray(span.from, span.to), at);
    at += span.to - span.from;
  }
  return bytes;
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
