import { describe, expect, it } from "vitest";
import { formatFromAccept } from "../../generator/contract/negotiate.ts";

describe("formatFromAccept", () => {
  it.each([
    [null, "json"],
    ["", "json"],
    ["*/*", "json"],
    ["application/json", "json"],
    ["text/csv", "csv"],
    ["TEXT/CSV", "csv"],
    ["text/csv; charset=utf-8", "csv"],
    ["application/json, text/csv", "csv"],
    ["application/json;q=1, text/csv;q=0.5", "json"],
    ["text/csv;q=0", "json"],
    ["text/csv;q=0.8, */*;q=0.1", "csv"],
    ["application/xml", "json"],
    ["text/csvx", "json"],
    ["text/csv;q=abc", "json"],
  ] as const)("%s → %s", (accept, format) => {
    expect(formatFromAccept(accept)).toBe(format);
  });
});
