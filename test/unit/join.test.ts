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
});
