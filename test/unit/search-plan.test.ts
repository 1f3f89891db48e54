import { describe, expect, it } from "vitest";
import { FORMAT_VERSION, searchMetaPath } from "../../generator/contract/layout.ts";
import {
  cheapest,
  SEARCH_READ_BUDGET,
  SearchTooBroad,
  type Files,
  type Plan,
  type Reader,
} from "../../generator/contract/search/plan.ts";
import { AssetStore } from "../../generator/edge/assets.ts";
import { SearchFiles } from "../../generator/edge/search-reader.ts";
import { memoryAssets } from "../support/local-assets.ts";

/**
 * The planner (contract/search/plan.ts) and a request's reads (edge/search-reader.ts): every file
 * charged once, whole, before it is read, the cheapest plan that fits run, and a request refused
 * only when no plan fits.
 */

/** An index of files `a`…`e`, its read budget `limit` bytes beyond its meta's (which every request reads). */
async function reader(limit: number): Promise<Reader> {
  const json = (budget: number) =>
    JSON.stringify({ formatVersion: FORMAT_VERSION, country: "de", readBudget: budget });
  let budget = limit;
  for (let i = 0; i < 3; i++) budget = limit + json(budget).length;
  const files = new Map<string, string | Uint8Array>([
    [searchMetaPath("de"), json(budget)],
    ...["a", "b", "c", "d", "e"].map((name) => [`/_s/de/${name}`, new Uint8Array(10)] as const),
  ]);
  const metaBytes = files.get(searchMetaPath("de"))?.length ?? 0;
  const opened = await SearchFiles.open(new AssetStore(memoryAssets(files)), "http://x", "de");
  // The meta is charged to every request: the budget counts from there.
  const r = opened.reader();
  expect(r.fits(new Map([["/_s/de/x", budget - metaBytes]]))).toBe(true);
  expect(r.fits(new Map([["/_s/de/x", budget - metaBytes + 1]]))).toBe(false);
  expect(budget - metaBytes).toBe(limit);
  return r;
}
const files = (...entries: [string, number][]): Files =>
  new Map(entries.map(([name, bytes]) => [`/_s/de/${name}`, bytes]));

describe("a request's reads", () => {
  it.each([
    { limit: 100, charges: [["a", 100]], refused: false },
    {
      limit: 100,
      charges: [
        ["a", 40],
        ["b", 60],
      ],
      refused: false,
    },
    {
      limit: 100,
      charges: [
        ["a", 60],
        ["a", 60],
        ["b", 40],
      ],
      refused: false,
    },
    { limit: 100, charges: [["a", 101]], refused: true },
    {
      limit: 100,
      charges: [
        ["a", 60],
        ["b", 30],
        ["c", 11],
      ],
      refused: true,
    },
    {
      limit: 0,
      charges: [
        ["a", 0],
        ["b", 0],
      ],
      refused: false,
    },
    { limit: 0, charges: [["a", 1]], refused: true },
  ] as { limit: number; charges: [string, number][]; refused: boolean }[])(
    "limit $limit beyond the meta, files $charges: refused $refused",
    async ({ limit, charges, refused }) => {
      const r = await reader(limit);
      let thrown: unknown;
      try {
        for (const charge of charges) await r.need(files(charge));
      } catch (error) {
        thrown = error;
      }
      expect(thrown instanceof SearchTooBroad).toBe(refused);
    },
  );

  it("reads only what it charged, and charges nothing of a set that does not fit", async () => {
    const r = await reader(100);
    expect(() => r.bytes("/_s/de/a")).toThrow(/read before it was charged/);
    await expect(r.need(files(["a", 60], ["b", 60]))).rejects.toThrow(SearchTooBroad);
    await r.need(files(["a", 60]));
    expect(r.bytes("/_s/de/a")).toHaveLength(10);
    expect(r.fits(files(["a", 60], ["b", 40]))).toBe(true);
    expect(r.fits(files(["b", 41]))).toBe(false);
  });

  it("keeps what is made of files per isolate, across requests", async () => {
    const r = await reader(1000);
    let made = 0;
    const make = () => ++made;
    expect([r.kept("x", 8, make), r.kept("x", 8, make)]).toEqual([1, 1]);
  });

  it("defaults to a budget of 1 MiB", () => {
    expect(SEARCH_READ_BUDGET).toBe(1024 * 1024);
  });
});

describe("the planner", () => {
  /** A plan of `steps` whose first files are `first`, then `later` (read by its run), answering `name`. */
  const plan = (
    name: string,
    steps: number,
    first: Files,
    later?: Files,
    r?: Reader,
  ): Plan<string> => ({
    steps,
    files: () => first,
    run: async () => {
      if (later !== undefined) await r?.need(later);
      return name;
    },
  });

  it.each([
    [
      "the cheapest",
      [
        ["x", 5, files(["a", 10])],
        ["y", 3, files(["b", 10])],
      ],
      "y",
    ],
    [
      "the cheapest that fits",
      [
        ["x", 5, files(["a", 10])],
        ["y", 3, files(["b", 200])],
      ],
      "x",
    ],
    [
      "none that fits: refused",
      [
        ["x", 5, files(["a", 150])],
        ["y", 3, files(["b", 200])],
      ],
      undefined,
    ],
  ] as [string, [string, number, Files][], string | undefined][])(
    "runs %s",
    async (_, plans, answer) => {
      const r = await reader(100);
      const run = cheapest(
        plans.map(([name, steps, first]) => plan(name, steps, first)),
        r,
      );
      if (answer === undefined) await expect(run).rejects.toThrow(SearchTooBroad);
      else expect(await run).toBe(answer);
    },
  );

  it("gives way to the next plan when one meets the budget later, its reads still charged", async () => {
    const r = await reader(100);
    const plans = [
      plan("y", 1, files(["a", 40]), files(["b", 70]), r),
      plan("x", 2, files(["c", 50]), undefined, r),
      plan("z", 3, files(["d", 10]), undefined, r),
    ];
    // y reads a (40), cannot read b; x's c (50) fits beside a.
    expect(await cheapest(plans, r)).toBe("x");
    expect(r.fits(files(["e", 10]))).toBe(true);
    expect(r.fits(files(["e", 11]))).toBe(false);
  });
});
