import { chunkSpans } from "../contract/pack.ts";
import { SEARCH_CHUNK_BYTES } from "../contract/search/store.ts";

/** The numbers of the list-stream chunks that byte ranges lie in, each once. */
export function chunkNumbers(ranges: readonly (readonly [number, number])[]): Set<number> {
  const numbers = new Set<number>();
  for (const [from, to] of ranges)
    for (const span of chunkSpans(from, to, SEARCH_CHUNK_BYTES)) numbers.add(span.chunk);
  return numbers;
}

/** Bytes [from, to) of the list stream, out of its chunks. */
export function bytesOf(
  chunks: ReadonlyMap<number, Uint8Array>,
  from: number,
  to: number,
): Uint8Array {
  const spans = chunkSpans(from, to, SEARCH_CHUNK_BYTES);
  const [only] = spans;
  if (spans.length === 1 && only !== undefined)
    return (chunks.get(only.chunk) ?? new Uint8Array()).subarray(only.from, only.to);
  const out = new Uint8Array(to - from);
  let at = 0;
  for (const span of spans) {
    out.set((chunks.get(span.chunk) ?? new Uint8Array()).subarray(span.from, span.to), at);
    at += span.to - span.from;
  }
  return out;
}
