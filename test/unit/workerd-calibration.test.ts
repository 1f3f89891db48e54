import { describe, expect, it } from "vitest";
import { fitCost } from "../../bench/workerd-calibration.ts";

const row = (files: number, kib: number, ms: number) => ({ path: "/", files, kib, ms });

describe("fitCost", () => {
  it.each([
    {
      name: "exact on a plane",
      rows: [
        row(0, 0, 1),
        row(10, 10, 3.6),
        row(46, 40, 12.9),
        row(10, 300, 6.5),
        row(46, 1500, 27.5),
      ],
      want: { perRequest: 1, perFile: 0.25, perKib: 0.01 },
    },
    {
      name: "noise around a plane averages out",
      rows: [
        row(0, 0, 0.9),
        row(0, 0, 1.1),
        row(20, 100, 7.9),
        row(20, 100, 8.1),
        row(40, 10, 11.18),
        row(40, 10, 11.22),
      ],
      want: { perRequest: 1, perFile: 0.25, perKib: 0.02 },
    },
  ])("$name", ({ rows, want }) => {
    const got = fitCost(rows);
    expect(got.perRequest).toBeCloseTo(want.perRequest, 2);
    expect(got.perFile).toBeCloseTo(want.perFile, 2);
    expect(got.perKib).toBeCloseTo(want.perKib, 2);
  });
});
