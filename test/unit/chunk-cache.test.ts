import { describe, expect, it } from "vitest";
import { AssetStore, CHUNK_CACHE_BYTES, urlOf } from "../../generator/edge/assets.ts";

/** Chunks of an eighth of the cache, each filled with its number; counts what is fetched. */
function store() {
  const fetched: string[] = [];
  const assets = {
    fetch: async (input: Request | string) => {
      const path = new URL(urlOf(input)).pathname;
      fetched.push(path);
      return new Response(
        new Uint8Array(CHUNK_CACHE_BYTES / 8).fill(Number(/(\d+)\.bin$/.exec(path)?.[1] ?? 0)),
      );
    },
  };
  return { store: new AssetStore(assets), fetched };
}
const chunk = (n: number) => `/_c/de.streets/json/${n}.bin`;

describe("the isolate's cache of packed chunks", () => {
  it("reads a chunk once while it is among the recently used, and forgets the least recently used beyond its bytes", async () => {
    const { store: s, fetched } = store();
    const capacity = 8;
    expect((await s.chunk("http://x", chunk(1)))[0]).toBe(1);
    expect((await s.chunk("http://x", chunk(1)))[100]).toBe(1);
    expect(fetched).toEqual([chunk(1)]);
    for (let n = 2; n <= capacity; n++) await s.chunk("http://x", chunk(n)); // full: 1 … capacity
    await s.chunk("http://x", chunk(1)); // 1 is now the most recently used
    await s.chunk("http://x", chunk(capacity + 1)); // evicts 2, the least recently used
    fetched.length = 0;
    await s.chunk("http://x", chunk(1));
    await s.chunk("http://x", chunk(2));
    expect(fetched).toEqual([chunk(2)]);
  });
});
