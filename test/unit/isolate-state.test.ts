import { describe, expect, it } from "vitest";
import {
  forgetIsolateState,
  isolateMap,
  onForgetIsolateState,
} from "../../generator/contract/isolate-state.ts";
import { lexemesOf } from "../../generator/contract/postgres/lexize.ts";

describe("forgetIsolateState", () => {
  it("empties every isolate map and runs every registered forgetter", () => {
    const [names, numbers] = [isolateMap<string, number>(), isolateMap<number, string>()];
    names.set("a", 1);
    numbers.set(1, "a");
    let forgotten = 0;
    onForgetIsolateState(() => forgotten++);
    forgetIsolateState();
    expect([names.size, numbers.size]).toEqual([0, 0]);
    expect(forgotten).toBe(1);
  });

  it.each([["Hauptstraße 10115 Berlin"], ["Am Großen Wannsee"], ["Straße des 17. Juni"]])(
    "leaves the memoised lexemes of %s as they were computed before",
    (text) => {
      const before = lexemesOf(text);
      forgetIsolateState();
      expect(lexemesOf(text)).toEqual(before);
    },
  );
});
