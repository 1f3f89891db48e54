import { describe, expect, it } from "vitest";
import { joinLocalities } from "../../generator/model/de-localities.ts";
import { regionsOf } from "../../generator/model/de-regions.ts";
import type { Gv100ad } from "../../generator/sources/de-gv100ad.ts";
import type { PostCodeRow } from "../../generator/sources/de-postcodes.ts";

/**
 * A cut of the real GV100AD: Neuwied (the town has a part called Gladbach) and Bernkastel-Wittlich
 * (which has a municipality Gladbach), Oldenburg city and Landkreis, Frankfurt (Oder) and its
 * neighbour Märkisch-Oderland, Hamburg.
 */
const area = (key: string, name: string, type: number) => ({
  key,
  name,
  administrativeHeadquarters: "",
  type,
});
const municipality = (key: string, name: string, type = 64) => ({
  key,
  associationKey: "0000",
  name,
  type,
  postalCode: "",
  multiplePostalCodes: false,
});
const gv: Gv100ad = {
  federalStates: [
    { key: "02", name: "Hamburg", seatOfGovernment: "Hamburg" },
    { key: "03", name: "Niedersachsen", seatOfGovernment: "Hannover" },
    { key: "07", name: "Rheinland-Pfalz", seatOfGovernment: "Mainz" },
    { key: "12", name: "Brandenburg", seatOfGovernment: "Potsdam" },
  ],
  governmentRegions: [],
  districts: [
    area("02000", "Hamburg, Freie und Hansestadt", 41),
    area("03403", "Oldenburg (Oldb), Stadt", 41),
    area("03458", "Oldenburg", 44),
    area("07138", "Neuwied", 44),
    area("07231", "Bernkastel-Wittlich", 44),
    area("12053", "Frankfurt (Oder), Stadt", 41),
    area("12064", "Märkisch-Oderland", 44),
  ],
  associations: [],
  municipalities: [
    municipality("02000000", "Hamburg, Freie und Hansestadt", 61),
    municipality("03403000", "Oldenburg (Oldb), Stadt", 61),
    municipality("03458010", "Hude (Oldb)"),
    municipality("07138045", "Neuwied, Stadt", 63),
    municipality("07231037", "Gladbach"),
    municipality("12053000", "Frankfurt (Oder), Stadt", 61),
  ],
};
const row = (postalCode: string, city: string, state: string, county: string): PostCodeRow => ({
  postalCode,
  city,
  state,
  county,
});

describe("German localities from Open Postal Codes", () => {
  const rows = [
    row("56566", "Gladbach", "Rheinland-Pfalz", "Landkreis Neuwied"),
    row("56564", "Neuwied", "Rheinland-Pfalz", "Landkreis Neuwied"),
    row("26121", "Oldenburg", "Niedersachsen", "Oldenburg"),
    row("27798", "Hude", "Niedersachsen", "Landkreis Oldenburg"),
    row("15230", "Frankfurt", "Brandenburg", "Frankfurt (Oder)"),
    row("15236", "Frankfurt", "Brandenburg", "Märkisch-Oderland"),
    row("20095", "Hamburg", "Hamburg", ""),
    row("63450", "Hanau", "Rheinland-Pfalz", "Hanau"),
  ];
  const { localities, report } = joinLocalities([], rows, regionsOf(gv).municipalities, gv);
  const served = localities.map(
    (l) => `${l.postalCode} ${l.name} ${l.municipality.key} ${l.district?.key ?? "-"}`,
  );

  it("joins a place within the row's county only, under the municipality's official name without suffix", () => {
    expect(served).toEqual([
      "56564 Neuwied 07138045 07138",
      "26121 Oldenburg (Oldb) 03403000 03403",
      "27798 Hude (Oldb) 03458010 03458",
      "15230 Frankfurt (Oder) 12053000 12053",
      "20095 Hamburg 02000000 -",
    ]);
  });

  it("skips and reports what the county does not identify: never a namesake in another district", () => {
    expect(report).toMatchObject({
      source: "de-postcodes",
      rows: 8,
      joined: 5,
      unmatched: 3,
      ambiguous: 0,
      crossDistrict: 0,
    });
    expect(report.skipped.map((s) => `${s.postalCode} ${s.name}: ${s.detail}`)).toEqual([
      "63450 Hanau: county 'Hanau' is no GV100AD district of Rheinland-Pfalz",
      "56566 Gladbach: no municipality of that name in district 07138 Neuwied, and no town-part rule places it",
      "15236 Frankfurt: no municipality of that name in district 12064 Märkisch-Oderland, and no town-part rule places it",
    ]);
    expect(report.renamed.map((r) => `${r.from} → ${r.to}`)).toEqual([
      "Oldenburg → Oldenburg (Oldb)",
      "Hude → Hude (Oldb)",
      "Frankfurt → Frankfurt (Oder)",
    ]);
  });
});

describe("town parts and postal codes the street list shares", () => {
  const withCodes: Gv100ad = {
    ...gv,
    federalStates: [
      ...gv.federalStates,
      { key: "11", name: "Berlin", seatOfGovernment: "Berlin" },
      { key: "14", name: "Sachsen", seatOfGovernment: "Dresden" },
    ],
    districts: [
      ...gv.districts,
      area("11000", "Berlin, Stadt", 41),
      area("12067", "Oder-Spree", 44),
      area("14628", "Sächsische Schweiz-Osterzgebirge", 44),
    ],
    municipalities: [
      ...gv.municipalities.filter((m) => m.key !== "07138045"),
      {
        ...municipality("07138045", "Neuwied, Stadt", 63),
        postalCode: "56564",
        multiplePostalCodes: true,
      },
      municipality("11000000", "Berlin, Stadt", 61),
      { ...municipality("12067124", "Erkner, Stadt", 63), postalCode: "15537" },
      { ...municipality("14628370", "Stadt Wehlen, Stadt", 63), postalCode: "01829" },
      { ...municipality("14628270", "Lohmen"), postalCode: "01847" },
    ],
  };
  const { municipalities } = regionsOf(withCodes);
  const berlin = municipalities.find((m) => m.key === "11000000");
  if (berlin === undefined) throw new Error("no Berlin");
  const street = {
    name: "Fürstenwalder Allee",
    postalCode: "15537",
    locality: "Berlin",
    municipality: { key: berlin.key, name: berlin.name, type: berlin.type },
    federalState: berlin.federalState,
  };
  const rows = [
    row("15537", "Berlin", "Berlin", ""),
    row("15537", "Erkner", "Brandenburg", "Oder-Spree"),
    row("01829", "Wehlen", "Sachsen", "Sächsische Schweiz-Osterzgebirge"),
    row("56566", "Neuwied östliche Stadtteile: Block", "Rheinland-Pfalz", "Landkreis Neuwied"),
    row("56566", "Engers", "Rheinland-Pfalz", "Landkreis Neuwied"),
    row("01848", "Hohnstein-Ost", "Sachsen", "Sächsische Schweiz-Osterzgebirge"),
  ];
  const { localities, report } = joinLocalities([street], rows, municipalities, withCodes);
  const served = localities.map((l) => `${l.postalCode} ${l.name} ${l.municipality.key}`);

  it("keeps the towns of another state beside the street list's locality on a shared postal code", () => {
    expect(served).toContain("15537 Berlin 11000000");
    expect(served).toContain("15537 Erkner 12067124");
    expect(report.otherSkips).toEqual({ "covered by the street list": 1 });
  });

  it("places a town part by the seat's postal code, by the municipality's name in it, or by the places of its postal code", () => {
    expect(served).toContain("01829 Stadt Wehlen 14628370");
    expect(served.filter((l) => l.startsWith("56566"))).toEqual(["56566 Neuwied 07138045"]);
    expect(
      report.renamed
        .filter((r) => r.placedBy !== undefined)
        .map((r) => `${r.postalCode} ${r.from} → ${r.to} (${r.placedBy ?? ""})`),
    ).toEqual([
      "01829 Wehlen → Stadt Wehlen (seat)",
      "56566 Neuwied östliche Stadtteile: Block → Neuwied (name)",
      "56566 Engers → Neuwied (siblings)",
    ]);
  });

  it("reports the town parts no rule places, and never places one beyond its county", () => {
    expect(report.skipped.map((s) => `${s.postalCode} ${s.name}`)).toEqual(["01848 Hohnstein-Ost"]);
    expect(report).toMatchObject({ rows: 6, joined: 4, unmatched: 1 });
  });
});
