import { describe, expect, it } from "vitest";
import { ByteWriter } from "../../generator/contract/search/bytes.ts";
import { parseStreetFilter } from "../../generator/contract/search/filter.ts";
import { Runs } from "../../generator/contract/search/names.ts";
import { decodePostings } from "../../generator/contract/search/postings.ts";
import { encodeBlock } from "../../generator/contract/search/store.ts";

/** A name's candidate runs (contract/search/names.ts): each distinct name tested once, the streets of the runs that pass. */

describe("a name's runs", () => {
  const heads = [["Ahornweg"], ["Birkenstraße"], ["Eichenweg"]];
  const out = new ByteWriter();
  // Runs of streets: Ahornweg at 0 (2 streets), Birkenstraße at 2 (3), Eichenweg at 10 (1).
  encodeBlock(out, heads, [0, 2, 10], [2, 3, 1], [0, 1, 2], 3);
  const runsOf = (value: string, exact = false) =>
    new Runs(
      [decodePostings(out.view(), 3)],
      { filter: parseStreetFilter("name", value), and: true, exact },
      20,
    );

  it.each([
    ["weg", false, [true, false, true]],
    ["EICHEN", false, [false, false, true]],
    ["weg", true, [true, true, true]],
  ])("%s (a list exactly its passing runs: %s): runs that pass %j", (value, exact, passing) => {
    const runs = runsOf(value, exact);
    expect([0, 1, 2].map((i) => runs.passes(i))).toEqual(passing);
    expect([Array.from(runs.starts), Array.from(runs.lengths), runs.head(2)]).toEqual([
      [0, 2, 10],
      [2, 3, 1],
      ["Eichenweg"],
    ]);
  });

  it("tests each run's name once", () => {
    const out2 = new ByteWriter();
    encodeBlock(out2, [["Weg"], ["Wege"]], [0, 5], [1, 1], [0, 1], 2);
    const filter = parseStreetFilter("name", "we.");
    let tests = 0;
    const counted = {
      ...filter,
      pattern: {
        tree: filter.pattern!.tree,
        test: (v: string) => (tests++, filter.pattern!.test(v)),
      },
    };
    const runs = new Runs(
      [decodePostings(out2.view(), 2)],
      { filter: counted, and: true, exact: false },
      10,
    );
    expect([runs.passes(0), runs.passes(1), runs.passes(0), runs.passes(1), tests]).toEqual([
      true,
      true,
      true,
      true,
      2,
    ]);
  });
});
