import { describe, expect, it } from "vitest";
import { joinStreets } from "../../generator/model/de-streets.ts";
import type { Gv100ad } from "../../generator/sources/de-gv100ad.ts";
import type { StreetRow } from "../../generator/sources/de-streets.ts";

const gv: Gv100ad = {
  federalStates: [
    { key: "11", name: "Berlin", seatOfGovernment: "Berlin" },
    { key: "05", name: "Nordrhein-Westfalen", seatOfGovernment: "Düsseldorf" },
  ],
  governmentRegions: [],
  districts: [
    { key: "05978", name: "Unna", administrativeHeadquarters: "Unna", type: 43 },
    { key: "11000", name: "Berlin, Stadt", administrativeHeadquarters: "Berlin", type: 41 },
  ],
  associations: [],
  municipalities: [
    {
      key: "11000000",
      associationKey: "0000",
      name: "Berlin, Stadt",
      type: 61,
      multiplePostalCodes: false,
      postalCode: "10178",
    },
    {
      key: "05978024",
      associationKey: "0000",
      name: "Lünen, Stadt",
      type: 63,
      multiplePostalCodes: false,
      postalCode: "44532",
    },
  ],
};
const row = (name: string, regionalKey = "11000000", locality = "Berlin"): StreetRow => ({
  name,
  postalCode: "10115",
  locality,
  regionalKey,
  borough: undefined,
  suburb: undefined,
});

describe("joinStreets", () => {
  it("joins municipality, district (not for Berlin's 00 district digits) and federal state", () => {
    const { streets } = joinStreets([row("A"), row("B 54", "05978024", "Lünen")], gv);
    expect(streets[0]).toEqual({
      name: "A",
      postalCode: "10115",
      locality: "Berlin",
      municipality: { key: "11000000", name: "Berlin, Stadt", type: "Kreisfreie Stadt" },
      federalState: { key: "11", name: "Berlin" },
    });
    expect(streets[1]?.district).toEqual({ key: "05978", name: "Unna", type: "Kreis" });
  });

  it("merges identical rows and skips unknown regional keys, counting both", () => {
    const result = joinStreets([row("A"), row("A"), row("B"), row("C", "99999999"), row("A")], gv);
    expect(result.streets.map((s) => s.name)).toEqual(["A", "B"]);
    expect(result.report).toMatchObject({
      source: "de-streets",
      rows: 5,
      joined: 2,
      unmatched: 1,
      ambiguous: 0,
      otherSkips: { duplicate: 2 },
    });
  });

  // A row is the same street as an earlier one when name, postal code, locality, borough and
  // suburb agree (a missing borough or suburb is an empty one); a name with many rows in one
  // municipality is checked as one with few.
  const named = (fields: Partial<StreetRow>): StreetRow => ({ ...row("A"), ...fields });
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) => named({ postalCode: String(10000 + i) }));
  it.each([
    { case: "another postal code", rows: [named({}), named({ postalCode: "10117" })], kept: 2 },
    { case: "another locality", rows: [named({}), named({ locality: "Spandau" })], kept: 2 },
    { case: "another borough", rows: [named({ borough: "Mitte" }), named({})], kept: 2 },
    { case: "another suburb", rows: [named({}), named({ suburb: "Wedding" })], kept: 2 },
    { case: "no borough and an empty one", rows: [named({}), named({ borough: "" })], kept: 1 },
    { case: "no suburb and an empty one", rows: [named({ suburb: "" }), named({})], kept: 1 },
    { case: "another name", rows: [named({}), named({ name: "B" })], kept: 2 },
    { case: "40 streets of one name, each twice", rows: [...many(40), ...many(40)], kept: 40 },
    {
      case: "the 17th and later rows of a name repeated",
      rows: [...many(30), ...many(30).slice(16)],
      kept: 30,
    },
  ])("tells duplicates by every field: $case", ({ rows, kept }) => {
    const result = joinStreets(rows, gv);
    expect(result.streets).toHaveLength(kept);
    expect(result.report.otherSkips).toEqual(
      rows.length === kept ? {} : { duplicate: rows.length - kept },
    );
  });
});
