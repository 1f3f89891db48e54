/**
 * A body of known length that is delivered whole or not at all. workerd sends a stream of unknown
 * length chunked, whatever Content-Length the Worker sets, and a stream that fails then ends its
 * body as if complete: a client would store the truncated file under a valid ETag. workerd's
 * FixedLengthStream sends the length instead and, when fewer or more bytes come or the source
 * fails, breaks the connection. Outside workerd (the in-process tests) a counting stream fails
 * the same way.
 */
type ByteStreamPair = {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
};
type FixedLengthStreamClass = new (length: number) => ByteStreamPair;

export function exactlyOf(
  body: ReadableStream<Uint8Array>,
  length: number,
): ReadableStream<Uint8Array> {
  const runtimeStream = (globalThis as { FixedLengthStream?: FixedLengthStreamClass })
    .FixedLengthStream;
  const through = runtimeStream === undefined ? countedStream(length) : new runtimeStream(length);
  // The failure reaches the reader through `through` (aborted with the source's error); the pipe's own promise has nothing to add.
  body.pipeTo(through.writable).catch(() => undefined);
  return through.readable;
}

function countedStream(length: number): ByteStreamPair {
  let seen = 0;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > length) throw new RangeError(`the body has more than its ${length} bytes`);
      controller.enqueue(chunk);
    },
    flush() {
      if (seen !== length)
        throw new RangeError(`the body ended after ${seen} of its ${length} bytes`);
    },
  });
}
