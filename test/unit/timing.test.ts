import { describe, expect, it } from "vitest";
import { PhaseTimer } from "../../generator/build/timing.ts";

/** A clock that moves only when a step says so: each phase's own time is known exactly. */
function steppedTimer(): { timer: PhaseTimer; step: (ms: number) => void } {
  let now = 0;
  return { timer: new PhaseTimer(() => now), step: (ms) => void (now += ms) };
}

describe("PhaseTimer", () => {
  it.each([
    {
      name: "one phase",
      run: (t: PhaseTimer, step: (ms: number) => void) => t.measure("sort", () => step(5)),
      totals: { sort: 5 },
    },
    {
      name: "a nested phase's time is its own, not its outer phase's",
      run: (t: PhaseTimer, step: (ms: number) => void) =>
        t.measure("render", () => {
          step(2);
          t.measure("write", () => step(3));
          step(4);
        }),
      totals: { render: 6, write: 3 },
    },
    {
      name: "two levels, and a phase entered again adds up",
      run: (t: PhaseTimer, step: (ms: number) => void) =>
        t.measure("render", () => {
          t.measure("search", () => {
            step(10);
            t.measure("write", () => step(1));
          });
          t.measure("write", () => step(2));
          step(7);
        }),
      totals: { render: 7, search: 10, write: 3 },
    },
  ])("$name", ({ run, totals }) => {
    const { timer, step } = steppedTimer();
    run(timer, step);
    expect(Object.fromEntries(timer.totals)).toEqual(totals);
  });

  it("ends a phase that throws and resumes the outer one", () => {
    const { timer, step } = steppedTimer();
    timer.measure("render", () => {
      expect(() =>
        timer.measure("write", () => {
          step(3);
          throw new Error("disk full");
        }),
      ).toThrow("disk full");
      step(1);
    });
    expect(Object.fromEntries(timer.totals)).toEqual({ render: 1, write: 3 });
  });

  it("times an async phase around awaited nested ones", async () => {
    const { timer, step } = steppedTimer();
    await timer.measureAsync("render", async () => {
      step(2);
      await Promise.resolve();
      timer.measure("write", () => step(5));
      step(1);
    });
    expect(Object.fromEntries(timer.totals)).toEqual({ render: 3, write: 5 });
  });
});
