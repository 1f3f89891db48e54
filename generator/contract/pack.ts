import type { Format } from "./query.ts";

/**
 * Packed storage: a resource's views' records, pre-rendered, in shared files. Per resource and
 * format the build writes one stream of bytes, every view's records in API order (JSON records
 * each followed by a comma, CSV rows each ending in CRLF), cut into chunk files of exactly
 * `PACK_CHUNK_BYTES` (the last one shorter; 64 KiB: a page's request reads one such file, or two,
and the Worker's CPU grows with the bytes it reads, so chunks stay small while their number stays
well within the file budget):
 *
 *   /_c/{resource}/{json|csv}/{n}.bin
 *
 * A view's index entry holds where its records start in the stream and each record's length, so
 * any page of any size is one contiguous slice, in one chunk or across two: the Worker copies it
 * without parsing. A JSON page is `[` + the slice without its last comma + `]`; a CSV page is the
 * header line + the slice: byte for byte the page a file would hold.
 */
export const PACK_CHUNK_BYTES = 64 * 1024;

export function packPath(resource: string, format: Format, chunk: number): string {
  return `/_c/${resource}/${format}/${chunk}.bin`;
}

/** Where a view's records are in one format's stream. */
export interface PackRef {
  /** Offset of the view's first record in the stream. */
  readonly start: number;
  /** Each record's length in bytes (a JSON record's with its comma), as `encodeLengths` writes them. */
  readonly lengths: string;
}

/** A byte range of the stream as pieces of chunk files. */
export interface ChunkSpan {
  readonly chunk: number;
  readonly from: number;
  readonly to: number;
}

/** The chunk files that hold bytes [from, to) of a stream, and the range within each. */
export function chunkSpans(from: number, to: number, chunkBytes = PACK_CHUNK_BYTES): ChunkSpan[] {
  const spans: ChunkSpan[] = [];
  for (let at = from; at < to; ) {
    const chunk = Math.floor(at / chunkBytes);
    const end = Math.min(to, (chunk + 1) * chunkBytes);
    spans.push({ chunk, from: at - chunk * chunkBytes, to: end - chunk * chunkBytes });
    at = end;
  }
  return spans;
}

/** Record lengths as unsigned LEB128 varints in base64: about 2.7 characters a record. */
export function encodeLengths(lengths: readonly number[]): string {
  const bytes: number[] = [];
  for (let value of lengths) {
    while (value >= 0x80) {
      bytes.push((value & 0x7f) | 0x80);
      value = Math.floor(value / 0x80);
    }
    bytes.push(value);
  }
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.slice(i, i + 0x8000));
  return btoa(binary);
}

/** The records' offsets relative to the view's start: `count + 1` entries, the last one the view's length. */
export function decodeOffsets(lengths: string, count: number): Float64Array {
  const binary = atob(lengths);
  const offsets = new Float64Array(count + 1);
  let at = 0;
  for (let i = 0, position = 0; i < count; i++) {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = binary.charCodeAt(at++);
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
      scale *= 0x80;
    }
    position += value;
    offsets[i + 1] = position;
  }
  return offsets;
}
