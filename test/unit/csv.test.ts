import { parseString } from "fast-csv";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "../../generator/contract/csv.ts";
import { dataFile } from "../support/paths.ts";

const parse = (text: string) =>
  new Promise<string[][]>((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(text, { headers: false })
      .on("data", (row: string[]) => rows.push(row))
      .on("error", reject)
      .on("end", () => resolve(rows));
  });

describe("RFC 4180 fields", () => {
  it.each([
    ["plain", "plain"],
    ["", ""],
    [undefined, ""],
    ["Berlin, Stadt", '"Berlin, Stadt"'],
    ['"Hörsaal"', '"""Hörsaal"""'],
    ['Übergang "Seekrug"', '"Übergang ""Seekrug"""'],
    ["a;b", "a;b"],
    ["line\nbreak", '"line\nbreak"'],
    ["cr\rx", '"cr\rx"'],
    [" spaced ", " spaced "],
  ])("%j → %s", (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe("the odd names of the OpenPLZ sample", () => {
  const text = readFileSync(dataFile("de/streets-openplz-sample.csv"), "utf8");

  it("round-trip through an independent CSV parser", async () => {
    const rows = (await parse(text)).slice(1);
    const odd = rows.filter((row) => /[",]/.test(row[0] ?? ""));
    expect(odd.length).toBeGreaterThan(10);
    const columns = [0, 1, 2, 3, 4, 5].map((i) => ({ header: String(i), path: [String(i)] }));
    const rendered = odd.map((row) => csvRow(columns, row)).join("");
    expect(await parse(rendered)).toEqual(odd);
    expect(rendered.split("\r\n")).toHaveLength(odd.length + 1);
  });
});
