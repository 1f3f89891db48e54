import { createHash, randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
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

  it("write every file's bytes through the write thread's ring: larger than it, wrapping round it, reused by the caller, the same bytes linked", async () => {
    const dir = tempDir("sink-ring");
    const disk = new DiskSink(dir);
    const MiB = 1024 * 1024;
    // Sizes around the ring (16 MiB) and its pieces (4 MiB), so that pieces start at its end and wrap.
    const sizes = [
      0,
      1,
      3 * MiB + 7,
      4 * MiB,
      4 * MiB + 1,
      5 * MiB - 3,
      9 * MiB + 11,
      17 * MiB,
      1,
      6 * MiB,
    ];
    const source = randomBytes(17 * MiB + sizes.length);
    const reused = Buffer.alloc(17 * MiB);
    const expected = new Map<string, Buffer>();
    sizes.forEach((size, i) => {
      source.copy(reused, 0, i, i + size);
      const path = `/f/${i}.bin`;
      disk.write(path, reused.subarray(0, size));
      expected.set(path, source.subarray(i, i + size));
    });
    const text = "Straße 1, Köln 🏠\r\n".repeat(50_000);
    disk.write("/t/text.csv", text);
    disk.write("/t/same.csv", text);
    expected.set("/t/text.csv", Buffer.from(text));
    await disk.finish();
    await disk.close();
    for (const [path, bytes] of expected)
      expect(readFileSync(join(dir, path)).equals(bytes), path).toBe(true);
    expect(readFileSync(join(dir, "t/same.csv"), "utf8")).toBe(text);
    expect(statSync(join(dir, "t/same.csv")).ino).toBe(statSync(join(dir, "t/text.csv")).ino);
  });

  it("count what they pass on, per group", () => {
    const memory = new MemorySink();
    const counter = new CountingSink(memory);
    const written = counter.write("/_l/x.json", "[]");
    expect(written.bytes).toBe(2);
    expect(memory.text("/_l/x.json")).toBe("[]");
    expect(counter.files.get("x")).toEqual({ files: 1, bytes: 2 });
  });
});
