import type { Format } from "./query.ts";

/**
 * Packed storage: a resource's views' records, pre-rendered, in shared files. Per resource and
 * format the build writes one stream of bytes, every view's records in API order (JSON records
 * each followed by a comma, CSV rows each ending in CRLF), cut into chunks of exactly
 * `PACK_CHUNK_BYTES` (the last one shorter; 64 KiB: a page's request reads one chunk, or two, and
 * the Worker's CPU grows with the bytes it reads, so chunks stay small while their number stays
 * well within the file budget). Each chunk is a file:
 *
 *   /_c/{resource}/{json|csv}/{n}.bin   = u16 count, count × u16 boundary, the chunk's bytes
 *
 * The boundaries (little-endian) are the offsets within the chunk at which a record starts, in
 * order. A view's index entry holds where its records start and end in the stream and, for each
 * further chunk the view reaches, which of its records is the first to start there and where: a
 * few numbers per 64 KiB, not one per record, so an index shard does not grow with the size of
 * its views. Any record boundary is then either in the entry or in the boundary table of a chunk
 * the page reads anyway, so any page of any size is one contiguous slice of one chunk or two,
 * copied without parsing. A JSON page is `[` + the slice without its last comma + `]`; a CSV page
 * is the header line + the slice: byte for byte the page a file would hold.
 */
export const PACK_CHUNK_BYTES = 64 * 1024;

/** Boundaries are 16-bit offsets within a chunk. */
export const MAX_PACK_CHUNK_BYTES = 0x10000;

export { packPath } from "./layout.ts";

/** Where a view's records are in one format's stream. */
export interface PackRef {
  /** Offset of the view's first record in the stream. */
  readonly start: number;
  /** The view's length in the stream (a JSON view's with its last comma). */
  readonly bytes: number;
  /** Index of the view's first record in the boundary table of the chunk it starts in. */
  readonly firstIndex: number;
  /**
   * For each further chunk the view's bytes reach, in order: the index (within the view) of the
   * first of its record boundaries at or after the chunk's start, and that boundary's offset from
   * the chunk's start; flattened into pairs. The boundary after the last record counts.
   */
  readonly later: readonly number[];
}

/** A record boundary of a view: its position in the stream, or an entry of a chunk's boundary table. */
export type Boundary =
  { readonly position: number } | { readonly chunk: number; readonly index: number };

/** Where the boundary before record `record` (0…total; `total` is the view's end) of a view is. */
export function locateBoundary(
  ref: PackRef,
  total: number,
  record: number,
  chunkBytes = PACK_CHUNK_BYTES,
): Boundary {
  if (record <= 0) return { position: ref.start };
  if (record >= total) return { position: ref.start + ref.bytes };
  // The last further chunk whose first boundary is at or before the record's (0: the view's first chunk).
  let low = 0;
  let high = ref.later.length / 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((ref.later[2 * middle - 2] ?? Infinity) <= record) low = middle;
    else high = middle - 1;
  }
  const chunk = Math.floor(ref.start / chunkBytes) + low;
  if (low === 0) return { chunk, index: ref.firstIndex + record };
  const first = ref.later[2 * low - 2] ?? 0;
  return first === record
    ? { position: chunk * chunkBytes + (ref.later[2 * low - 1] ?? 0) }
    : { chunk, index: record - first };
}

/**
 * A chunk file: its boundary table, then its bytes of the stream. Written into `into` when it is
 * large enough (a writer whose sink copies what it is given reuses one buffer), else a new array.
 */
export function encodeChunk(
  boundaries: readonly number[],
  bytes: Uint8Array,
  into?: Uint8Array,
): Uint8Array {
  const size = 2 + 2 * boundaries.length + bytes.length;
  const file =
    into !== undefined && into.length >= size ? into.subarray(0, size) : new Uint8Array(size);
  const view = new DataView(file.buffer, file.byteOffset, size);
  view.setUint16(0, boundaries.length, true);
  for (let i = 0; i < boundaries.length; i++)
    view.setUint16(2 + 2 * i, boundaries[i] as number, true);
  file.set(bytes, 2 + 2 * boundaries.length);
  return file;
}

/** The `index`th boundary of a chunk file: an offset within the chunk's bytes. */
export function chunkBoundary(file: Uint8Array, index: number): number {
  return uint16At(file, 2 + 2 * index);
}

/** A chunk file's bytes of the stream, without its boundary table. */
export function chunkPayload(file: Uint8Array): Uint8Array {
  return file.subarray(2 + 2 * uint16At(file, 0));
}

function uint16At(file: Uint8Array, at: number): number {
  return (file[at] ?? 0) | ((file[at + 1] ?? 0) << 8);
}

/** A byte range of the stream as pieces of chunks. */
export interface ChunkSpan {
  readonly chunk: number;
  readonly from: number;
  readonly to: number;
}

/** The chunks that hold bytes [from, to) of a stream, and the range within each. */
export function chunkSpans(from: number, to: number, chunkBytes = PACK_CHUNK_BYTES): ChunkSpan[] {
  const spans: ChunkSpan[] = [];
  for (let at = from; at < to;) {
    const chunk = Math.floor(at / chunkBytes);
    const end = Math.min(to, (chunk + 1) * chunkBytes);
    spans.push({ chunk, from: at - chunk * chunkBytes, to: end - chunk * chunkBytes });
    at = end;
  }
  return spans;
}
