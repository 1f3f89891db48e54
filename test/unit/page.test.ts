import { describe, expect, it } from "vitest";
import { csvHeader, csvRow } from "../../generator/contract/csv.ts";
import { canonicalPagesFor, cutPage, jsonArray, jsonRecord } from "../../generator/contract/page.ts";
import { pageBounds } from "../../generator/contract/paging.ts";

const records = Array.from({ length: 137 }, (_, i) => ({ name: i % 7 === 0 ? `Weg "${i}", Nord\r\nzwei` : `Straße ${i}`, n: String(i) }));
const columns = [
  { header: "Name", path: ["name"] },
  { header: "N", path: ["n"] },
];
const json = records.map(jsonRecord);
const csv = records.map((r) => csvRow(columns, r));
const header = csvHeader(columns);
const canonical = (format: "json" | "csv", page: number) => {
  const { start, end } = pageBounds(page, 50, records.length);
  return format === "json" ? jsonArray(json.slice(start, end)) : header + csv.slice(start, end).join("");
};

describe("cutPage", () => {
  const cases: [number, number][] = [];
  for (const size of [1, 3, 7, 13, 25, 49, 50]) for (const page of [1, 2, 3, Math.ceil(137 / size)]) cases.push([size, page]);

  it.each(cases)("size %i page %i equals the directly rendered page", (size, page) => {
    const pages = canonicalPagesFor(page, size, records.length, 50);
    if (pages === undefined) throw new Error("no records");
    expect(pages.last - pages.first).toBeLessThanOrEqual(1);
    const { start, end } = pageBounds(page, size, records.length);
    for (const format of ["json", "csv"] as const) {
      const sources = [];
      for (let p = pages.first; p <= pages.last; p++) sources.push(canonical(format, p));
      const expected = format === "json" ? jsonArray(json.slice(start, end)) : header + csv.slice(start, end).join("");
      expect(cutPage(format, sources, pages.first, 50, page, size, records.length)).toBe(expected);
    }
  });

  it("has no canonical pages past the end", () => {
    expect(canonicalPagesFor(4, 50, 137, 50)).toBeUndefined();
  });
});
