import { describe, expect, it } from "vitest";
import {
  ReadBudget,
  SEARCH_READ_BUDGET,
  SearchTooBroad,
} from "../../generator/contract/search/budget.ts";

describe("ReadBudget", () => {
  it.each([
    { limit: 100, charges: [["a", 100]], refused: undefined },
    {
      limit: 100,
      charges: [
        ["a", 40],
        ["b", 60],
      ],
      refused: undefined,
    },
    {
      limit: 100,
      charges: [
        ["a", 60],
        ["a", 60],
        ["b", 40],
      ],
      refused: undefined,
    },
    { limit: 100, charges: [["a", 101]], refused: 101 },
    {
      limit: 100,
      charges: [
        ["a", 60],
        ["b", 30],
        ["c", 11],
      ],
      refused: 101,
    },
    {
      limit: 0,
      charges: [
        ["a", 0],
        ["b", 0],
      ],
      refused: undefined,
    },
    { limit: 0, charges: [["a", 1]], refused: 1 },
  ] as { limit: number; charges: [string, number][]; refused: number | undefined }[])(
    "limit $limit, charges $charges: refused at $refused",
    ({ limit, charges, refused }) => {
      const budget = new ReadBudget(limit);
      let thrown: unknown;
      try {
        for (const [file, bytes] of charges) budget.charge(file, bytes);
      } catch (error) {
        thrown = error;
      }
      if (refused === undefined) expect(thrown).toBeUndefined();
      else {
        expect(thrown).toBeInstanceOf(SearchTooBroad);
        expect((thrown as SearchTooBroad).needed).toBe(refused);
      }
    },
  );

  it("defaults to SEARCH_READ_BUDGET, 1 MiB", () => {
    const budget = new ReadBudget();
    expect(() => budget.charge("a", SEARCH_READ_BUDGET)).not.toThrow();
    expect(() => budget.charge("a", 1)).not.toThrow();
    expect(() => budget.charge("b", 1)).toThrow(SearchTooBroad);
    expect(SEARCH_READ_BUDGET).toBe(1024 * 1024);
  });
});
