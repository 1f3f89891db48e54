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
const area = (key: string, name: string, type: number) => ({ key, name, administrativeHeadquarters: "", type });
const municipality = (key: string, name: string, type = 64) => ({ key, associationKey: "0000", name, type, postalCode: "", multiplePostalCodes: false });
const gv: Gv100ad = {
  federalStates: [
    { key: "02", name: "Hamburg", seatOfGovernment: "Hamburg" },
    { key: "03", name: "Niedersachsen", seatOfGovernment: "Hannover" },
    { key: "07", name: "Rheinland-Pfalz", seatOfGovernment: "Mainz" },
    { key: "12", name: "Brandenburg", seatOfGovernment: "Potsdam" },
  ],
  governmentRegions: [],
  districts: [area("02000", "Hamburg, Freie und Hansestadt", 41), area("03403", "Oldenburg (Oldb), Stadt", 41), area("03458", "Oldenburg", 44), area("07138", "Neuwied", 44), area("07231", "Bernkastel-Wittlich", 44), area("12053", "Frankfurt (Oder), Stadt", 41), area("12064", "Märkisch-Oderland", 44)],
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
const row = (postalCode: string, city: string, state: string, county: string): PostCodeRow => ({ postalCode, city, state, county });

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
  const served = localities.map((l) => `${l.postalCode} ${l.name} ${l.municipality.key} ${l.district?.key ?? "-"}`);

  it("joins a place within the row's county only, under the municipality's official name without suffix", () => {
    expect(served).toEqual(["56564 Neuwied 07138045 07138", "26121 Oldenburg (Oldb) 03403000 03403", "27798 Hude (Oldb) 03458010 03458", "15230 Frankfurt (Oder) 12053000 12053", "20095 Hamburg 02000000 -"]);
  });

  it("skips and reports what the county does not identify: never a namesake in another district", () => {
    expect(report).toMatchObject({ source: "de-postcodes", rows: 8, joined: 5, unmatched: 3, ambiguous: 0, crossDistrict: 0 });
    expect(report.skipped.map((s) => `${s.postalCode} ${s.name}: ${s.detail}`)).toEqual([
      "56566 Gladbach: no municipality of that name in district 07138 Neuwied",
      "15236 Frankfurt: no municipality of that name in district 12064 Märkisch-Oderland",
      "63450 Hanau: county 'Hanau' is no GV100AD district of Rheinland-Pfalz",
    ]);
    expect(report.renamed.map((r) => `${r.from} → ${r.to}`)).toEqual(["Oldenburg → Oldenburg (Oldb)", "Hude → Hude (Oldb)", "Frankfurt → Frankfurt (Oder)"]);
  });
});
