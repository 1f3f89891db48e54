import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assetRules } from "../../generator/serve/asset-rules.ts";
import type { FileIndex } from "../../generator/serve/assets.ts";
import { BuildFiles, directoryAssets, wholeBody } from "../../generator/serve/binding.ts";
import { BuildDirectory } from "../../generator/serve/build-dir.ts";

/**
 * The binding's bodies: a small file's bytes travel as a one-chunk stream, which the server writes
 * at once while nobody has read from it, and never once a reader has taken a chunk.
 */
const dir = mkdtempSync(join(tmpdir(), "plz-binding-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "a.json"), '{"a":1}');
const files: FileIndex = {
  count: 1,
  lookup: (path) =>
    path === "/a.json" ? { etag: "e", type: "application/json", bytes: 7 } : undefined,
};
const assets = directoryAssets(new BuildFiles(BuildDirectory.open(dir)), files, assetRules({}));
const body = async () => {
  const response = await assets.fetch(new Request("http://x/a.json"));
  if (response.body === null) throw new Error("no body");
  return response.body;
};

describe("a small file's body through the binding", () => {
  it.each([
    ["untouched", async (_: ReadableStream<Uint8Array>) => undefined, '{"a":1}'],
    [
      "passed on by a Response",
      async (stream: ReadableStream<Uint8Array>) => new Response(stream).body ?? stream,
      '{"a":1}',
    ],
    [
      "read once, its reader released",
      async (stream: ReadableStream<Uint8Array>) => {
        const reader = stream.getReader();
        await reader.read();
        reader.releaseLock();
      },
      undefined,
    ],
    [
      "being read",
      async (stream: ReadableStream<Uint8Array>) => void stream.getReader(),
      undefined,
    ],
  ])("%s: whole %s", async (_, touch, expected) => {
    const stream = await body();
    const passed = (await touch(stream)) ?? stream;
    const whole = wholeBody(passed);
    expect(whole === undefined ? undefined : Buffer.from(whole).toString()).toBe(expected);
  });
});
