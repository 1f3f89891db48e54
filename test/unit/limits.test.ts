import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_VALUE_LENGTH,
  exceedsLength,
  maxValueLength,
} from "../../generator/contract/limits.ts";

describe("the length limits of query parameters", () => {
  it.each([
    ["page", 20],
    ["pageSize", 20],
    ["locality", DEFAULT_MAX_VALUE_LENGTH],
    ["searchTerm", DEFAULT_MAX_VALUE_LENGTH],
    ["toString", DEFAULT_MAX_VALUE_LENGTH],
    ["__proto__", DEFAULT_MAX_VALUE_LENGTH],
  ])("%s takes %i characters", (name, max) => {
    expect(maxValueLength(name)).toBe(max);
  });
});

describe("exceedsLength counts code points", () => {
  const astral = "😀";
  it.each([
    ["", 0, false],
    ["a", 0, true],
    ["abc", 3, false],
    ["abcd", 3, true],
    [astral.repeat(3), 3, false],
    [astral.repeat(4), 3, true],
    [`${astral.repeat(2)}ab`, 3, true],
    [`ab${astral}`, 3, false],
    // A lone surrogate is a code point of its own.
    ["\ud83d\ud83d\ud83d", 3, false],
    ["\ud83d\ud83d\ud83d\ud83d", 3, true],
    ["\ude00\ud83d\ude00a", 3, false],
    ["x".repeat(1_000_000), 200, true],
  ])("%#: %j over %i: %s", (value, max, expected) => {
    expect(exceedsLength(value, max)).toBe(expected);
  });
});
