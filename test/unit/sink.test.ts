import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiskSink } from "../../generator/io/disk.ts";
import { CountingSink, MemorySink, PathGuard } from "../../generator/io/sink.ts";
import { tempDir } from "../support/fixture.ts";

describe("file sinks", () => {
  it("refuse two outputs at one path and paths leaving the tree", () => {
    const guard = new PathGuard();
    guard.check("/_p/de.streets/berlin/1/50/1/1.json");
    expect(() => guard.check("/_p/de.streets/berlin/1/50/1/1.json")).toThrow(/same file/);
    for (const path of ["/_p/../../etc/passwd", "relative/path", "/a//b", "/a/./b", "/ä"])
      expect(() => guard.check(path)).toThrow(/outside/);
  });

  it.each([
    ["text", "Straße 1\r\n"],
    ["bytes", new Uint8Array([0, 1, 2, 255])],
    ["empty", ""],
  ])(
    "give each written file's size and SHA-256 (%s), the disk's file list the same hash",
    async (_, data) => {
      const expected = createHash("sha256").update(data).digest();
      const dir = tempDir("sink");
      const disk = new DiskSink(dir);
      const sinks = [new MemorySink(), new CountingSink(), disk];
      for (const sink of sinks) {
        const written = sink.write("/a/b.txt", data);
        expect(written.bytes).toBe(Buffer.byteLength(data));
        expect(written.sha256Hex()).toBe(expected.toString("hex"));
      }
      await disk.finish();
      await disk.close();
      expect(readFileSync(join(dir, "a/b.txt"))).toEqual(Buffer.from(data));
      expect(readFileSync(join(dir, "_files.tsv"), "utf8")).toBe(
        `/a/b.txt\t${expected.toString("base64url")}\t${Buffer.byteLength(data)}\n`,
      );
    },
  );

  it("count what they pass on, per group", () => {
    const memory = new MemorySink();
    const counter = new CountingSink(memory);
    const written = counter.write("/_l/x.json", "[]");
    expect(written.bytes).toBe(2);
    expect(memory.text("/_l/x.json")).toBe("[]");
    expect(counter.files.get("x")).toEqual({ files: 1, bytes: 2 });
  });
});
