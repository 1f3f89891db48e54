import { describe, expect, it } from "vitest";
import {
  addPass,
  classTimes,
  compare,
  firstOfEachClass,
  percentile,
  readClassTimes,
  type ClassTimes,
  type PassTimes,
} from "../../bench/pass-stats.ts";

/** The statistics both sides of the PostgreSQL comparison state (bench/postgres.ts, bench/search.ts). */
describe("pass statistics", () => {
  it.each([
    { values: [], p: 50, expected: NaN },
    { values: [7], p: 99, expected: 7 },
    { values: [4, 1, 3, 2], p: 50, expected: 2 },
    { values: [4, 1, 3, 2], p: 99, expected: 4 },
    { values: Array.from({ length: 100 }, (_, i) => 100 - i), p: 99, expected: 99 },
    { values: Array.from({ length: 200 }, (_, i) => i + 1), p: 99, expected: 198 },
  ])("percentile $p of $values.length values is $expected", ({ values, p, expected }) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it.each([
    { passes: [5], expected: { first: 5, least: 5 } },
    { passes: [5, 3, 4], expected: { first: 5, least: 3 } },
    { passes: [2, 3, 9], expected: { first: 2, least: 2 } },
  ])("passes $passes keep the first and the least", ({ passes, expected }) => {
    let times: PassTimes | undefined;
    for (const ms of passes) times = addPass(times, ms);
    expect(times).toEqual(expected);
  });

  it("groups per class in order of appearance, first and least apart", () => {
    const timed = [
      { class: "b", times: { first: 9, least: 1 } },
      { class: "a", times: { first: 2, least: 2 } },
      { class: "b", times: { first: 3, least: 3 } },
    ];
    expect(classTimes(timed, 3)).toEqual([
      {
        class: "b",
        requests: 2,
        passes: 3,
        first: { p50: 3, p99: 9, max: 9 },
        least: { p50: 1, p99: 3, max: 3 },
      },
      {
        class: "a",
        requests: 1,
        passes: 3,
        first: { p50: 2, p99: 2, max: 2 },
        least: { p50: 2, p99: 2, max: 2 },
      },
    ]);
  });

  const times = (name: string, first: [number, number], least: [number, number]): ClassTimes => ({
    class: name,
    requests: 1,
    passes: 3,
    first: { p50: first[0], p99: first[1], max: first[1] },
    least: { p50: least[0], p99: least[1], max: least[1] },
  });
  it.each([
    {
      name: "lower at both: ahead",
      ours: times("c", [1, 2], [1, 2]),
      theirs: times("c", [2, 3], [2, 3]),
      expected: [true, true],
    },
    {
      name: "behind at p99 on the first pass only",
      ours: times("c", [1, 5], [1, 2]),
      theirs: times("c", [2, 3], [2, 3]),
      expected: [false, true],
    },
    {
      name: "equal is not ahead",
      ours: times("c", [2, 3], [1, 2]),
      theirs: times("c", [2, 3], [2, 2]),
      expected: [false, false],
    },
    {
      name: "no figures for the class",
      ours: times("c", [1, 2], [1, 2]),
      theirs: times("other", [2, 3], [2, 3]),
      expected: [undefined, undefined],
    },
  ])("compare: $name", ({ ours, theirs, expected }) => {
    const [c] = compare([ours], new Map([[theirs.class, theirs]]));
    expect([c?.aheadFirst, c?.aheadLeast]).toEqual(expected);
  });

  it.each([
    {
      name: "a file of one pass, before --passes: first and least alike",
      entry: { class: "x", requests: 4, p50: 1, p99: 2, max: 3 },
      expected: {
        class: "x",
        requests: 4,
        passes: 1,
        first: { p50: 1, p99: 2, max: 3 },
        least: { p50: 1, p99: 2, max: 3 },
      },
    },
    {
      name: "a file of three passes",
      entry: {
        class: "x",
        requests: 4,
        passes: 3,
        first: { p50: 1, p99: 2, max: 3 },
        least: { p50: 0.5, p99: 1, max: 2 },
      },
      expected: {
        class: "x",
        requests: 4,
        passes: 3,
        first: { p50: 1, p99: 2, max: 3 },
        least: { p50: 0.5, p99: 1, max: 2 },
      },
    },
  ])("readClassTimes: $name", ({ entry, expected }) => {
    expect(readClassTimes(entry)).toEqual(expected);
  });
});

describe("firstOfEachClass", () => {
  const items = ["a", "b", "a", "a", "c", "b"].map((name, i) => ({ class: name, i }));
  it.each([
    { name: "no limit keeps all", limit: () => Infinity, expected: [0, 1, 2, 3, 4, 5] },
    { name: "one of each", limit: () => 1, expected: [0, 1, 4] },
    { name: "two of each, in order", limit: () => 2, expected: [0, 1, 2, 4, 5] },
    {
      name: "a limit per class",
      limit: (c: string) => (c === "a" ? 3 : 0),
      expected: [0, 2, 3],
    },
  ])("$name", ({ limit, expected }) => {
    expect(firstOfEachClass(items, limit).map((item) => item.i)).toEqual(expected);
  });
});
