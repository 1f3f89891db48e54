import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths.ts";
import { SLOW_FIRST } from "../support/sequencer.ts";

describe("the files the run starts first (test/support/sequencer.ts)", () => {
  it("are test files that exist, each named once", () => {
    expect(SLOW_FIRST.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
    expect(SLOW_FIRST.every((file) => file.endsWith(".test.ts"))).toBe(true);
    expect(new Set(SLOW_FIRST).size).toBe(SLOW_FIRST.length);
  });
});
