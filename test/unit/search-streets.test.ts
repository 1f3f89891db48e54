import { describe, expect, it } from "vitest";
import { placesInLists } from "../../generator/contract/search/streets.ts";

describe("the places of a page's streets, from the passing places' streets", () => {
  // Place 40 holds streets 1, 5, 9, 30; place 41 streets 2, 6, 31; place 42 streets 7, 8, 50.
  const lists = [Int32Array.of(1, 5, 9, 30), Int32Array.of(2, 6, 31), Int32Array.of(7, 8, 50)];
  it.each([
    ["none", [], []],
    ["one place's", [5, 9], [40, 40]],
    ["three places', interleaved", [5, 6, 7, 8, 9], [40, 41, 42, 42, 40]],
    ["the first and the last streets", [1, 50], [40, 42]],
  ])("%s: each street's place", (_, page, places) => {
    expect(Array.from(placesInLists(Int32Array.from(page), lists, [40, 41, 42]))).toEqual(places);
  });
});
