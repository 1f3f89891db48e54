import { describe, expect, it } from "vitest";
import { compileCensus, firstRequestCompiles } from "../../bench/compile-census.ts";

const completed = (name: string, tier: string, osr: boolean, took: string) =>
  `[completed compiling 0x3d2857531a31 <JSFunction ${name}(sfi = 0x14f1a444a69)> (target ${tier})${osr ? " OSR" : ""} - took ${took} ms]`;
const start = "[timed request starts at 21105419432 µs]";
const end =
  "[timed request ends at 21105467322 µs: 37.80 ms (main thread: user 37.95, system 0.12)]";

describe("firstRequestCompiles", () => {
  it.each([
    {
      name: "nothing timed",
      lines: [completed("varints ", "MAGLEV", false, "0.1, 0.2, 0.3")],
      want: [],
    },
    {
      name: "only inside the first request, phases summed",
      lines: [
        completed("startup ", "MAGLEV", false, "1.0, 1.0, 1.0"),
        start,
        "[compiling method 0x3d <JSFunction varints (sfi = 0x14f)> (target MAGLEV) OSR, mode: ConcurrencyMode::kSynchronous]",
        completed("varints ", "MAGLEV", true, "0.001, 0.513, 0.114"),
        completed("", "TURBOFAN_JS", false, "0.008, 2.842, 0.046"),
        end,
        start,
        completed("later ", "MAGLEV", false, "1.0, 1.0, 1.0"),
        end,
      ],
      want: [
        { name: "varints", tier: "MAGLEV OSR", ms: 0.628 },
        { name: "(anonymous)", tier: "TURBOFAN_JS", ms: 2.896 },
      ],
    },
  ])("$name", ({ lines, want }) => {
    const got = firstRequestCompiles(lines.join("\n"));
    expect(got.map((c) => ({ ...c, ms: Number(c.ms.toFixed(3)) }))).toEqual(want);
  });
});

describe("compileCensus", () => {
  it("sums time per function and tier, counts requests once each, dearest first", () => {
    const a = { name: "a", tier: "MAGLEV", ms: 1 };
    const b = { name: "b", tier: "TURBOFAN_JS", ms: 4 };
    expect(compileCensus([[a, a, b], [a], []])).toEqual([
      "compiles inside 3 first requests: per request median 1.00 ms, most 6.00 ms (V8's own timing, with tracing on)",
      "  requests       ms  function (tier)",
      "         1     4.00  b (TURBOFAN_JS)",
      "         2     3.00  a (MAGLEV)",
    ]);
  });

  it("says none when nothing was compiled", () => {
    expect(compileCensus([[], []]).at(-1)).toBe("  none");
  });
});
