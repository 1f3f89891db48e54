import { describe, expect, it } from "vitest";
import {
  checkGuards,
  countsOfManifest,
  GuardError,
  type Baseline,
  type GuardOptions,
} from "../../generator/build/guards.ts";
import { prepare } from "../../generator/build/views.ts";
import type { JoinReport } from "../../generator/model/join-report.ts";
import { federalStates } from "../../generator/resources/de.ts";
import { chCantons } from "../../generator/resources/at-ch-li.ts";
import { chStreets, liStreets } from "../../generator/resources/ch-li-streets.ts";
import { SOURCE_NAMES, type SourceName } from "../../generator/sources/registry.ts";

const labels = Object.fromEntries(SOURCE_NAMES.map((name) => [name, `data/${name}.csv`])) as Record<
  SourceName,
  string
>;
const states = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    key: String(i + 1).padStart(2, "0"),
    name: `State ${i + 1}`,
    seatOfGovernment: "Seat",
  }));
const cantons = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    key: String(i + 1),
    historicalCode: String(i + 1),
    name: `Canton ${i + 1}`,
    shortName: "ZH",
  }));
const join = (
  source: SourceName,
  rows: number,
  unmatched: number,
  ambiguous = 0,
  otherSkips: Record<string, number> = {},
): JoinReport => ({
  source,
  joinedTo: "the register",
  rows,
  joined: rows - unmatched - ambiguous - Object.values(otherSkips).reduce((sum, n) => sum + n, 0),
  unmatched,
  ambiguous,
  otherSkips,
  renamed: [],
  skipped: [],
});

function check(
  counts: { states: number; cantons: number },
  joins: JoinReport[],
  options: GuardOptions = {},
) {
  const resources = [
    {
      prepared: prepare(federalStates, states(counts.states)),
      sources: ["de-gv100ad"] as SourceName[],
    },
    {
      prepared: prepare(chCantons, cantons(counts.cantons)),
      sources: ["ch-cantons"] as SourceName[],
    },
  ];
  return checkGuards({ resources, joins, labels }, options);
}
const baseline = (states: number, cantons: number): Baseline => ({
  where: "dist/downloads/index.json",
  counts: new Map([
    ["de.federalstates", states],
    ["ch.cantons", cantons],
  ]),
});
const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof GuardError) return error.message;
    throw error;
  }
  return "passed";
};

describe("the data guards", () => {
  it.each([
    ["same counts", { states: 16, cantons: 26 }, {}, "passed"],
    [
      "a drop within the limit (1 of 51 is 1.96%)",
      { states: 50, cantons: 26 },
      { baseline: baseline(51, 26) },
      "passed",
    ],
    ["more records than before", { states: 17, cantons: 27 }, {}, "passed"],
    [
      "a drop over the limit",
      { states: 1, cantons: 26 },
      {},
      "guard: de.federalstates has 1 record, 16 in dist/downloads/index.json: 93.8% fewer, over the limit of 2% (--max-drop to accept a deliberate change); made from de-gv100ad (data/de-gv100ad.csv)",
    ],
    [
      "a drop just over the limit is not rounded down to it",
      { states: 49, cantons: 26 },
      { baseline: baseline(50, 26), maxDrop: 1.9 },
      /: 2\.0% fewer, over the limit of 1\.9%/,
    ],
    ["a deliberate drop (--max-drop 100)", { states: 1, cantons: 26 }, { maxDrop: 100 }, "passed"],
    [
      "an empty resource, with or without a baseline",
      { states: 16, cantons: 0 },
      { baseline: "none" },
      "guard: ch.cantons would be served empty (made from ch-cantons (data/ch-cantons.csv)); a resource is never published without records",
    ],
    [
      "an empty resource even when drops are accepted",
      { states: 16, cantons: 0 },
      { maxDrop: 100 },
      /^guard: ch\.cantons would be served empty/,
    ],
    [
      "no baseline: counts are not compared",
      { states: 1, cantons: 1 },
      { baseline: "none" },
      "passed",
    ],
    [
      "two failures: the first, and how many more",
      { states: 1, cantons: 0 },
      {},
      /^guard: de\.federalstates has 1 record.* \(and 1 more guard failures\)$/,
    ],
  ] as const)("%s", (_, counts, options, expected) => {
    const result = failure(() => check(counts, [], { baseline: baseline(16, 26), ...options }));
    if (typeof expected === "string") expect(result).toBe(expected);
    else expect(result).toMatch(expected);
  });

  it.each([
    ["a join that skips a few rows", join("de-postcodes", 9454, 559, 29), {}, "passed"],
    [
      "a join that skips most rows",
      join("de-streets", 11920, 11920),
      {},
      "guard: de-streets (data/de-streets.csv): the join to the register skipped 11920 of 11920 rows (100.0%: 11920 unmatched), over the limit of 10% (--max-join-loss)",
    ],
    [
      "a join over a stricter limit",
      join("de-postcodes", 9454, 559, 29),
      { maxJoinLoss: 5 },
      /^guard: de-postcodes .*skipped 588 of 9454 rows \(6\.3%: 559 unmatched and 29 ambiguous\), over the limit of 5%/,
    ],
    ["a join that considered nothing", join("at-streets", 0, 0), {}, "passed"],
    [
      "rows skipped for other causes are not lost (duplicates merged)",
      join("de-streets", 100, 0, 0, { duplicate: 60 }),
      {},
      "passed",
    ],
  ] as const)("%s", (_, report, options, expected) => {
    const result = failure(() => check({ states: 16, cantons: 26 }, [report], options));
    if (typeof expected === "string") expect(result).toBe(expected);
    else expect(result).toMatch(expected);
  });

  it.each([
    ["Switzerland's streets without Liechtenstein's: passed", 1, 0, "passed"],
    [
      "no street at all: the source came out empty",
      0,
      0,
      /^guard: ch\.streets would be served empty .* \(and 1 more guard failures\)$/,
    ],
  ] as const)(
    "an optional source may leave one of its resources empty, not all: %s",
    (_, ch, li, expected) => {
      const commune = { key: "1630", name: "Glarus Nord", shortName: "Glarus Nord" };
      const street = {
        key: "10061643",
        name: "Aeschen",
        postalCode: "8752",
        locality: "Näfels",
        commune,
        district: commune,
        canton: commune,
        status: "Real" as const,
      };
      const resources = [
        {
          prepared: prepare(chStreets, ch === 0 ? [] : [street]),
          sources: ["ch-streets", "ch-communes"] as SourceName[],
        },
        {
          prepared: prepare(liStreets, li === 0 ? [] : [street]),
          sources: ["ch-streets", "li-communes"] as SourceName[],
        },
      ];
      const result = failure(() => checkGuards({ resources, joins: [], labels }));
      if (typeof expected === "string") expect(result).toBe(expected);
      else expect(result).toMatch(expected);
    },
  );

  it("names the resource made of the fewest sources first (it points at the broken one), joins last", () => {
    const resources = [
      {
        prepared: prepare(chCantons, cantons(0)),
        sources: ["ch-cantons", "ch-districts"] as SourceName[],
      },
      { prepared: prepare(federalStates, states(0)), sources: ["de-gv100ad"] as SourceName[] },
    ];
    const message = failure(() =>
      checkGuards({ resources, joins: [join("de-streets", 10, 10)], labels }),
    );
    expect(message).toMatch(
      /^guard: de\.federalstates would be served empty .* \(and 2 more guard failures\)$/,
    );
  });

  it("reports what it compared: the baseline, the largest drop and the largest join loss", () => {
    expect(
      check(
        { states: 50, cantons: 26 },
        [join("de-postcodes", 100, 5), join("ch-localities", 100, 1)],
        { baseline: baseline(51, 26) },
      ),
    ).toEqual({
      baseline: "dist/downloads/index.json",
      compared: 2,
      maxDrop: 2,
      maxJoinLoss: 10,
      largestDrop: { resource: "de.federalstates", percent: (100 * 1) / 51 },
      largestJoinLoss: { source: "de-postcodes", percent: 5 },
    });
  });
});

describe("record counts from a downloads manifest", () => {
  it("sums a dataset's parts and ignores gzip copies, CSV twins and per-view files", () => {
    const file = (path: string, records: number) => ({ path, records });
    const manifest = {
      files: [
        file("/downloads/de.streets.part-1.json", 700_000),
        file("/downloads/de.streets.part-2.json", 500_000),
        file("/downloads/de.streets.part-1.json.gz", 700_000),
        file("/downloads/de.streets.part-1.csv", 700_000),
        file("/downloads/de.streets/berlin.json", 11_920),
        file("/downloads/ch.cantons.json", 26),
        file("/downloads/ch.cantons.csv", 26),
      ],
    };
    expect(countsOfManifest(manifest)).toEqual(
      new Map([
        ["de.streets", 1_200_000],
        ["ch.cantons", 26],
      ]),
    );
    expect(() => countsOfManifest({ builtAt: "x" })).toThrow(/not a downloads manifest/);
  });
});
