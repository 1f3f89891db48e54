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

  it.each([
    // keep, keys written in order, what each key reads back afterwards
    [1, ["a", "b"], { a: undefined, b: "b2" }],
    [2, ["a", "b"], { a: "a1", b: "b2" }],
    [2, ["a", "b", "c"], { a: undefined, b: "b2", c: "c3" }],
    [2, ["a", "b", "a", "c"], { a: "a3", b: undefined, c: "c4" }],
    [3, ["a", "a", "a"], { a: "a3" }],
  ] as const)("keeping %i value(s), after writing %j: %j", (keep, written, readBack) => {
    const file = join(tempDir("cache-keep"), "cache.json");
    written.forEach((key, i) => writeCached(file, key, `${key}${i + 1}`, keep));
    for (const [key, value] of Object.entries(readBack))
      expect(readCached(file, key), key).toBe(value);
  });

  it("a cached value is read back under its key only, and a key hashes the files' bytes", () => {
    const dir = tempDir("cache");
    const file = join(dir, "a.json");
    writeCached(file, "k1", { x: [1, 2] });
    expect(readCached(file, "k1")).toEqual({ x: [1, 2] });
    expect(readCached(file, "k2")).toBeUndefined();
    expect(readCached(join(dir, "missing.json"), "k1")).toBeUndefined();
    writeFileSync(join(dir, "old.json"), JSON.stringify({ key: "k1", value: 1 })); // the old format
    expect(readCached(join(dir, "old.json"), "k1")).toBeUndefined();
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
