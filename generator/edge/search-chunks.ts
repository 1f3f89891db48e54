import { chunkSpans } from "../contract/pack.ts";
import { SEARCH_CHUNK_BYTES } from "../contract/search/store.ts";

/**
 * The numbers of the list-stream chunks that byte ranges lie in, each once (as chunkSpans gives
 * them, without its spans: a place filter's lists are thousands of ranges, planned before a
 * refusal).
 */
export function chunkNumbers(ranges: readonly (readonly [number, number])[]): Set<number> {
  const numbers = new Set<number>();
  // Ranges in stream order (a place filter's lists) mostly share their chunk with the one before.
  let added = -1;
  for (const [from, to] of ranges) {
    if (to <= from) continue;
    const last = Math.floor((to - 1) / SEARCH_CHUNK_BYTES);
    for (let chunk = Math.floor(from / SEARCH_CHUNK_BYTES); chunk <= last; chunk++)
      if (chunk !== added) numbers.add((added = chunk));
  }
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
