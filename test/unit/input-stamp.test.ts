import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  hashFiles,
  readCached,
  stampInputs,
  unchangedInputs,
  writeCached,
} from "../../generator/io/input-stamp.ts";
import { tempDir } from "../support/fixture.ts";

describe("the inputs' stamp (npm start with dist/ current)", () => {
  it.each<[string, (source: string) => void, boolean]>([
    ["nothing changed", () => undefined, true],
    ["a source rewritten with other bytes", (source) => writeFileSync(source, "b,c\n"), false],
    [
      "a source touched (same bytes, a new time)",
      (source) => utimesSync(source, new Date(), new Date(Date.now() + 5_000)),
      false,
    ],
  ])("%s: unchanged is %s", (_, change, expected) => {
    const source = join(tempDir("stamp"), "source.csv");
    writeFileSync(source, "a,b\n");
    const stamp = stampInputs("f1", [source]);
    change(source);
    expect(unchangedInputs(stamp)).toBe(expected);
  });

  it("a stamp without one of the generator's files is not current", () => {
    const stamp = stampInputs("f1", []);
    const [first] = Object.keys(stamp.files);
    const files = { ...stamp.files };
    if (first !== undefined) delete files[first];
    expect(unchangedInputs({ ...stamp, files })).toBe(false);
  });

  it("a cached value is read back under its key only, and a key hashes the files' bytes", () => {
    const dir = tempDir("cache");
    const file = join(dir, "a.json");
    writeCached(file, "k1", { x: [1, 2] });
    expect(readCached(file, "k1")).toEqual({ x: [1, 2] });
    expect(readCached(file, "k2")).toBeUndefined();
    expect(readCached(join(dir, "missing.json"), "k1")).toBeUndefined();
    const input = join(dir, "input");
    writeFileSync(input, "one");
    const before = hashFiles([input], "settings");
    expect(hashFiles([input], "settings")).toBe(before);
    writeFileSync(input, "two");
    expect(hashFiles([input], "settings")).not.toBe(before);
    expect(hashFiles([join(dir, "none")], "settings")).not.toBe(before);
    // The same bytes read through another path (a server reads its build through /proc/PID/fd/N).
    const copy = join(dir, "copy");
    writeFileSync(copy, "two");
    expect(hashFiles([copy], "settings")).toBe(hashFiles([input], "settings"));
  });
});
