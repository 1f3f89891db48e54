import { describe, expect, it } from "vitest";
import { deoptCensus, firstRequestDeopts } from "../../bench/deopt-census.ts";

const bailout = (name: string, tier: string, reason: string, offset: number) =>
  `[bailout (kind: deopt-eager, reason: ${reason}): begin. deoptimizing 0x2924563cb479 <JSFunction ${name}(sfi = 0x1e4a7870e501)>, 0x1a226c6956b1 <Code ${tier}>, opt id 41, bytecode offset ${offset}, deopt exit 9, FP to SP delta 64, caller SP 0x7ffe88fcf9b0, pc 0x7f686f82be6c]`;
const start = "[timed request starts at 259175111 µs]";
const end = "[timed request ends at 259176111 µs: 2.00 ms (main thread: user 1.00, system 1.00)]";

describe("firstRequestDeopts", () => {
  it.each([
    { name: "nothing timed", lines: [bailout("varints ", "MAGLEV", "wrong map", 4)], want: [] },
    {
      name: "only inside the first request",
      lines: [
        bailout("startup ", "MAGLEV", "wrong map", 1),
        start,
        bailout("varints ", "TURBOFAN_JS", "Insufficient type feedback for binary operation", 45),
        "[marking dependent code 0x1 <Code MAGLEV> for deoptimization, reason: field type]",
        end,
        start,
        bailout("later ", "MAGLEV", "wrong map", 2),
        end,
      ],
      want: [
        {
          name: "varints",
          tier: "TURBOFAN_JS",
          reason: "Insufficient type feedback for binary operation",
          offset: 45,
        },
      ],
    },
    {
      name: "an anonymous function",
      lines: [start, bailout("", "MAGLEV", "not int32", 64), end],
      want: [{ name: "(anonymous)", tier: "MAGLEV", reason: "not int32", offset: 64 }],
    },
  ])("$name", ({ lines, want }) => {
    expect(firstRequestDeopts(lines.join("\n"))).toEqual(want);
  });
});

describe("deoptCensus", () => {
  it("counts requests, not deoptimisations, most first", () => {
    const a = { name: "a", tier: "MAGLEV", reason: "wrong map", offset: 1 };
    const b = { name: "b", tier: "TURBOFAN_JS", reason: "not int32", offset: 2 };
    expect(deoptCensus([[a, a, b], [a], []])).toEqual([
      "deoptimisations inside 3 first requests (requests: function (code, where): reason):",
      "    2  a (MAGLEV, bytecode offset 1): wrong map",
      "    1  b (TURBOFAN_JS, bytecode offset 2): not int32",
    ]);
  });
  it("says when there is none", () => {
    expect(deoptCensus([[]])).toEqual([
      "deoptimisations inside 1 first requests (requests: function (code, where): reason):",
      "  none",
    ]);
  });
});
