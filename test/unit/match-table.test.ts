import { describe, expect, it } from "vitest";
import { encodeMatchTable } from "../../generator/contract/match-table-encode.ts";
import { decodeMatchTable, matchRecords } from "../../generator/contract/match-table.ts";
import { literalQuery } from "../../generator/contract/regex/literals.ts";
import { compilePattern } from "../../generator/contract/regex/pattern.ts";
import { caseFoldKey } from "../../generator/contract/search/filter.ts";

const records = [
  ["01067", "Dresden"],
  ["10115", "Berlin"],
  ["10117", "Berlin"],
  ["15537", "Erkner"],
  ["15537", "Grünheide (Mark)"],
  ["80331", "München"],
  ["99999", "ǆemal"],
] as const;
const table = decodeMatchTable(
  encodeMatchTable(records.length, [
    { param: "postalCode", valueOf: (i) => records[i]?.[0] ?? "" },
    { param: "name", valueOf: (i) => records[i]?.[1] ?? "", fold: caseFoldKey },
  ]),
);
const test = (param: string, pattern: string, ignoreCase: boolean) => {
  const compiled = compilePattern(pattern, { ignoreCase });
  if (!compiled.ok) throw new Error(pattern);
  return {
    param,
    tree: compiled.pattern.tree,
    test: compiled.pattern.test,
    literals: {
      query: literalQuery(compiled.pattern.tree, ignoreCase ? caseFoldKey : (text: string) => text),
      folded: ignoreCase,
    },
  };
};

describe("the match table", () => {
  it("keeps each distinct value once, with its case-folded form for a column matched ignoring case", () => {
    expect(table.columns.get("name")?.values).toEqual([
      "Dresden",
      "Berlin",
      "Erkner",
      "Grünheide (Mark)",
      "München",
      "ǆemal",
    ]);
    expect(Array.from(table.columns.get("name")?.rows ?? [])).toEqual([0, 1, 1, 2, 3, 4, 5]);
    expect(table.columns.get("name")?.folded).toEqual(
      ["Dresden", "Berlin", "Erkner", "Grünheide (Mark)", "München", "ǆemal"].map(caseFoldKey),
    );
    expect(table.columns.get("postalCode")?.folded).toBeUndefined();
    expect(table.columns.get("postalCode")?.alphabet).toEqual([
      [0x30, 0x31],
      [0x33, 0x33],
      [0x35, 0x39],
    ]);
  });

  it.each([0, 1, 2, 3])(
    "reads the values' starts the same from a copy %i bytes into its buffer (in place or copied)",
    (shift) => {
      const bytes = encodeMatchTable(records.length, [
        { param: "name", valueOf: (i) => records[i]?.[1] ?? "", fold: caseFoldKey },
      ]);
      const moved = new Uint8Array(bytes.length + shift);
      moved.set(bytes, shift);
      const column = decodeMatchTable(moved.subarray(shift)).columns.get("name");
      const names = ["Dresden", "Berlin", "Erkner", "Grünheide (Mark)", "München", "ǆemal"];
      expect(names.map((_, i) => column?.joined.at(i))).toEqual(names);
      expect(names.map((_, i) => column?.foldedJoined?.at(i))).toEqual(names.map(caseFoldKey));
      expect(column?.joined.count).toBe(names.length);
    },
  );

  it("keeps a column of empty values as one empty value, and no records as none", () => {
    const empty = decodeMatchTable(encodeMatchTable(2, [{ param: "name", valueOf: () => "" }]));
    expect(empty.columns.get("name")?.values).toEqual([""]);
    expect(Array.from(empty.columns.get("name")?.rows ?? [])).toEqual([0, 0]);
    expect(
      matchRecords(decodeMatchTable(encodeMatchTable(0, [{ param: "name", valueOf: () => "" }])), [
        test("name", "x", true),
      ]),
    ).toEqual([]);
  });

  it.each<[string, ReturnType<typeof test>[], number[]]>([
    ["postalCode=1011", [test("postalCode", "1011", false)], [1, 2]],
    ["postalCode=^155", [test("postalCode", "^155", false)], [3, 4]],
    ["name=BERLIN", [test("name", "BERLIN", true)], [1, 2]],
    ["name=(erk|mün)", [test("name", "(erk|mün)", true)], [3, 5]],
    [
      "name=ǅemal (titlecase finds ǆ through its case variants)",
      [test("name", "ǅemal", true)],
      [6],
    ],
    [
      "postalCode=15537&name=grün",
      [test("postalCode", "15537", false), test("name", "grün", true)],
      [4],
    ],
    ["name=xyz", [test("name", "xyz", true)], []],
  ])("%s selects the records in order", (_, tests, positions) => {
    expect(matchRecords(table, tests)).toEqual(positions);
  });

  it("tests each distinct value at most once, and a name only for records whose postal code matched", () => {
    const seen: string[] = [];
    const name = test("name", "e", true);
    matchRecords(table, [
      test("postalCode", "^1", false),
      { ...name, test: (value: string) => (seen.push(value), name.test(value)) },
    ]);
    expect(seen).toEqual(["Berlin", "Erkner", "Grünheide (Mark)"]);
  });
});

describe("the literal prefilter", () => {
  it("is not applied with folded literals to a column without folded values (the engine decides alone)", () => {
    const plain = decodeMatchTable(
      encodeMatchTable(2, [
        { param: "name", valueOf: (i) => ["Frankfurt am Main", "Berlin"][i] ?? "" },
      ]),
    );
    const compiled = compilePattern("FRANKFURT", { ignoreCase: true });
    if (!compiled.ok) throw new Error("FRANKFURT");
    expect(
      matchRecords(plain, [
        {
          param: "name",
          test: compiled.pattern.test,
          literals: { query: literalQuery(compiled.pattern.tree, caseFoldKey), folded: true },
        },
      ]),
    ).toEqual([0]);
  });

  it("rejects a value without the pattern's literals before the engine sees it", () => {
    const seen: string[] = [];
    const probe = test("name", "erkner", true);
    expect(
      matchRecords(table, [
        { ...probe, test: (value: string) => (seen.push(value), probe.test(value)) },
      ]),
    ).toEqual([3]);
    expect(seen).toEqual(["Erkner"]);
  });
});
