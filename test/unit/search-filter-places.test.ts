import { describe, expect, it } from "vitest";
import { filterMatches, parseStreetFilter } from "../../generator/contract/search/filter.ts";
import { postalCodeRange } from "../../generator/contract/search/filter-places.ts";
import { decodePlaceTable, encodePlaceTable } from "../../generator/contract/search/meta.ts";

// Places as the build sorts them: by postal code (code units), then locality.
const codes = [
  "01067",
  "01067",
  "01069",
  "1010",
  "10115",
  "10117",
  "10178",
  "10179",
  "1020",
  "53111",
  "53113",
  "9485",
  "99998",
].sort();
const places = decodePlaceTable(
  encodePlaceTable(
    codes.map((postalCode, i) => ({
      postalCode,
      locality: `L${i % 3}`,
      count: i + 1,
      listBytes: 4,
    })),
    0,
  ),
);

describe("a postal-code prefix as a range of places", () => {
  it.each([
    "^0",
    "^01067",
    "^1",
    "^10",
    "^101",
    "^1010",
    "^1011",
    "^10115",
    "^102",
    "^948",
    "^10178",
    "^5",
    "^531",
    "^9",
    "^2",
    "^99999",
    "^",
    "^00",
    "^A",
  ])("%s: exactly the places whose code passes", (value) => {
    const filter = parseStreetFilter("postalCode", value);
    const range = postalCodeRange(filter, places);
    expect(range).toBeDefined();
    const passing = codes.flatMap((code, p) => (filterMatches(filter, code) ? [p] : []));
    const inRange = Array.from(
      { length: (range?.to ?? 0) - (range?.from ?? 0) },
      (_, k) => (range?.from ?? 0) + k,
    );
    expect(inRange).toEqual(passing);
  });

  it.each(["101", "^101$", "^1[01]", "10$"])("%s is not a plain prefix: no range", (value) => {
    expect(postalCodeRange(parseStreetFilter("postalCode", value), places)).toBeUndefined();
  });
});
