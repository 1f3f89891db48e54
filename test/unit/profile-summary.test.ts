import { describe, expect, it } from "vitest";
import { addProfile, type ProfileTimes } from "../../bench/profile-summary.ts";

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 9 },
  children,
});

// root → run (child.mjs) → walk (worker.mjs) → walk (recursion); root → post (node:inspector)
const nodes = [
  frame(1, "(root)", "", [2, 5]),
  frame(2, "run", "file:///tmp/x/child.mjs", [3]),
  frame(3, "walk", "file:///tmp/x/worker.mjs", [4]),
  frame(4, "walk", "file:///tmp/x/worker.mjs"),
  frame(5, "post", "node:inspector"),
];

describe("addProfile", () => {
  it.each([
    {
      name: "self where sampled, inclusive once per sample however deep the recursion",
      samples: [4, 3, 2],
      deltas: [10, 20, 30],
      self: { "walk x/worker.mjs:10": 30, "run x/child.mjs:10": 30 },
      inclusive: { "(root)": 60, "run x/child.mjs:10": 60, "walk x/worker.mjs:10": 30 },
      total: 60,
    },
    {
      name: "the profiler's own start and stop left out",
      samples: [5, 3],
      deltas: [50, 5],
      self: { "walk x/worker.mjs:10": 5 },
      inclusive: { "(root)": 5, "run x/child.mjs:10": 5, "walk x/worker.mjs:10": 5 },
      total: 5,
    },
  ])("$name", ({ samples, deltas, self, inclusive, total }) => {
    const times: ProfileTimes = { self: new Map(), inclusive: new Map(), totalMicros: 0 };
    addProfile({ nodes, samples, timeDeltas: deltas }, times);
    expect(Object.fromEntries(times.self)).toEqual(self);
    expect(Object.fromEntries(times.inclusive)).toEqual(inclusive);
    expect(times.totalMicros).toBe(total);
  });
});
