import { describe, expect, it } from "vitest";
import { exactlyOf } from "../../generator/edge/fixed-length.ts";

/** A stream of the given pieces, failing after them when `failure` is given. */
function source(pieces: readonly number[], failure?: Error): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = pieces[next++];
      if (size !== undefined) controller.enqueue(new Uint8Array(size).fill(7));
      else if (failure !== undefined) controller.error(failure);
      else controller.close();
    },
  });
}

async function read(stream: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += chunk.byteLength;
  return bytes;
}

describe("a body of known length (outside workerd: the counting stream)", () => {
  it("passes a body of exactly its length", async () => {
    expect(await read(exactlyOf(source([3, 0, 5]), 8))).toBe(8);
  });

  it.each([
    ["ends short", [3, 4], undefined, 8, /ended after 7 of its 8 bytes/],
    ["runs long", [5, 5], undefined, 8, /more than its 8 bytes/],
    ["fails mid-stream", [5], new Error("chunk missing"), 8, /chunk missing/],
    ["fails at the end", [5, 3], new Error("chunk missing"), 8, /chunk missing/],
  ] as const)("fails when the body %s", async (_, pieces, failure, length, message) => {
    await expect(read(exactlyOf(source(pieces, failure), length))).rejects.toThrow(message);
  });
});
