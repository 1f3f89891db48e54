import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  readAtDistricts,
  readAtMunicipalities,
  readAtStreets,
} from "../../generator/sources/at.ts";
import { SourceError } from "../../generator/sources/errors.ts";
import { allRecords, ask, embeddedBuild, type Handler } from "../support/memory-build.ts";
import { dataFile } from "../support/paths.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const file = (name: string) => new Uint8Array(readFileSync(dataFile(name)));

describe("Statistik Austria readers take the embedded files and the upstream format", () => {
  it.each([
    ["the embedded 2015 district list", "at/districts-2015.txt", 9, 117],
    [
      "upstream polbezirke.csv (title, 'Erstellt am', header, rows, footer, BOM)",
      "at/upstream-format/districts-fixture.csv",
      2,
      4,
    ],
  ])("districts: %s", (_, name, provinces, districts) => {
    const list = readAtDistricts(file(name), name);
    expect(list.provinces).toHaveLength(provinces);
    expect(list.districts).toHaveLength(districts);
    expect(
      list.districts
        .filter((d) => d.provinceKey === "9")
        .every((d) => d.key === "900" && /^9[0-2][0-9]$/.test(d.code)),
    ).toBe(true);
  });

  it("reads Vienna's Donaustadt from upstream as key 900, code 922", () => {
    expect(
      readAtDistricts(file("at/upstream-format/districts-fixture.csv"), "x").districts,
    ).toContainEqual({ key: "900", code: "922", name: "Wien 22.,Donaustadt", provinceKey: "9" });
  });

  it.each([
    ["the embedded Gemeindeliste (header, no title or footer)", "at/gemliste_knz.csv", 2117],
    ["upstream gemliste_knz.csv", "at/upstream-format/municipalities-fixture.csv", 4],
  ])("municipalities: %s", (_, name, rows) => {
    const read = readAtMunicipalities(file(name), name);
    expect(read).toHaveLength(rows);
    expect(read.every((m) => /^[0-9]{4}$/.test(m.postalCode))).toBe(true);
  });

  it("reads Villach's further postal codes from upstream", () => {
    expect(
      readAtMunicipalities(file("at/upstream-format/municipalities-fixture.csv"), "x").find(
        (m) => m.key === "20201",
      )?.otherPostalCodes,
    ).toEqual(["9241", "9504", "9523", "9524", "9580", "9585", "9586", "9587"]);
  });

  it.each([
    [
      "the embedded Vorarlberg sample (no header, 8 columns, BOM)",
      "at/gemplzstr_8-vorarlberg-sample.csv",
      1137,
    ],
    [
      "upstream gemplzstr_N.csv (9 columns with Zustellort)",
      "at/upstream-format/streets-fixture.csv",
      4,
    ],
  ])("streets: %s", (_, name, rows) => {
    const read = readAtStreets(file(name), name);
    expect(read).toHaveLength(rows);
    expect(read[0]?.key).toMatch(/^[0-9]{6}$/);
  });

  const HEADER =
    "Gemeindekennziffer;Gemeindename;Gemeindecode;Status;PLZ des Gem.Amtes;weitere Postleitzahlen\n";
  it.each([
    ["no header", "10101;Eisenstadt;10101;SR;7000;\n", 1, /expected the header/],
    [
      "a wrong column count",
      `${HEADER}10101;Eisenstadt;10101;SR;7000\n`,
      2,
      /expected 6 columns, found 5/,
    ],
    [
      "a bad key",
      `${HEADER}10101;Eisenstadt;10101;SR;7000;\n1010x;Rust;10201;SR;7071;\n`,
      3,
      /Gemeindekennziffer '1010x'/,
    ],
    ["a bad status", `${HEADER}10101;Eisenstadt;10101;XX;7000;\n`, 2, /Status 'XX'/],
    [
      "rows after the footer",
      `${HEADER}10101;Eisenstadt;10101;SR;7000;\nQuelle: STATISTIK AUSTRIA\n10201;Rust;10201;SR;7071;\n`,
      4,
      /after the 'Quelle:' footer/,
    ],
    ["a header only", HEADER, 2, /no data rows/],
  ])("a Gemeindeliste with %s fails with file and line", (_, text, line, message) => {
    try {
      readAtMunicipalities(bytes(text), "gemliste.csv");
      throw new Error("expected a SourceError");
    } catch (error) {
      expect(error).toBeInstanceOf(SourceError);
      expect((error as SourceError).line).toBe(line);
      expect((error as SourceError).message).toMatch(message);
    }
  });
});

/** The Gemeindeliste and street sample read with plain splitting, for the counts. */
const gemliste = readFileSync(dataFile("at/gemliste_knz.csv"), "utf8")
  .split(/\r?\n/)
  .slice(1)
  .filter((l) => l !== "")
  .map((l) => l.split(";"));
const streetRows = readFileSync(dataFile("at/gemplzstr_8-vorarlberg-sample.csv"), "utf8")
  .replace(/^\uFEFF/, "")
  .split(/\r?\n/)
  .filter((l) => l !== "")
  .map((l) => l.split(";"));
const sorted = (values: readonly string[]) => [...values].sort();

let handler: Handler;
beforeAll(async () => {
  ({ handler } = await embeddedBuild());
});

describe("Austrian endpoints", () => {
  it("serve every row of the Gemeindeliste exactly once under its federal province and under its district", async () => {
    expect(gemliste).toHaveLength(2117); // 2,095 municipalities: Vienna is 23 rows
    const byProvince: string[] = [];
    const districts: string[] = [];
    for (const province of ["1", "2", "3", "4", "5", "6", "7", "8", "9"]) {
      byProvince.push(
        ...(await allRecords(handler, `/at/FederalProvinces/${province}/Municipalities`)).map((m) =>
          String(m["code"]),
        ),
      );
      districts.push(
        ...(await allRecords(handler, `/at/FederalProvinces/${province}/Districts`)).map((d) =>
          String(d["key"]),
        ),
      );
    }
    expect(sorted(byProvince)).toEqual(sorted(gemliste.map((r) => r[2] ?? "")));
    const byDistrict: string[] = [];
    for (const district of new Set(districts))
      byDistrict.push(
        ...(await allRecords(handler, `/at/Districts/${district}/Municipalities`)).map((m) =>
          String(m["code"]),
        ),
      );
    expect(sorted(byDistrict)).toEqual(sorted(gemliste.map((r) => r[2] ?? "")));
  });

  it("list Vienna's 23 Bezirke under the district key 900, and Wien-Umgebung (dissolved 2017) without municipalities", async () => {
    expect((await ask(handler, "/at/Districts/900/Municipalities")).headers["x-total-count"]).toBe(
      "23",
    );
    const wu = await ask(handler, "/at/Districts/324/Municipalities");
    expect([wu.text, wu.headers["x-total-count"]]).toEqual(["[]", "0"]);
  });

  it("write the district code under 'Code' in CSV (the original writes it under 'PostalCode')", async () => {
    const csv = await ask(handler, "/at/FederalProvinces/8/Districts?format=csv");
    expect(csv.text.split("\r\n").slice(0, 2)).toEqual([
      "Key,Code,Name,FederalProvince.Key,FederalProvince.Name",
      "801,801,Bludenz,8,Vorarlberg",
    ]);
  });

  it("serve every street of the sample once under its locality", async () => {
    const localities = new Set(streetRows.map((r) => r[3] ?? ""));
    let total = 0;
    const keys: string[] = [];
    for (const locality of localities) {
      const streets = await allRecords(
        handler,
        `/at/Streets?locality=${encodeURIComponent(locality.toUpperCase())}`,
      );
      expect(streets.every((s) => s["locality"] === locality)).toBe(true);
      total += streets.length;
      keys.push(...streets.map((s) => `${String(s["key"])}|${String(s["postalCode"])}`));
    }
    expect(total).toBe(streetRows.length);
    expect(sorted(keys)).toEqual(sorted(streetRows.map((r) => `${r[4]}|${r[6]}`)));
  });

  it("require a locality on /at/Streets and serve the sample's localities on /at/Localities", async () => {
    expect((await ask(handler, "/at/Streets")).status).toBe(400);
    const localities = await allRecords(handler, "/at/Localities?postalCode=.");
    expect(sorted(localities.map((l) => `${String(l["key"])}|${String(l["postalCode"])}`))).toEqual(
      sorted([...new Set(streetRows.map((r) => `${r[2]}|${r[6]}`))]),
    );
  });
});
