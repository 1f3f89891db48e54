import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readGv100ad } from "../../generator/sources/de-gv100ad.ts";
import { readStreets } from "../../generator/sources/de-streets.ts";
import { readSwissStreets, zipLabels } from "../../generator/sources/ch-streets.ts";
import { SourceError } from "../../generator/sources/errors.ts";
import { readAtDistricts } from "../../generator/sources/at.ts";
import { readChCantons, readLiCommunes } from "../../generator/sources/lists.ts";
import { dataFile } from "../support/paths.ts";

const HEADER = "Name,PostalCode,Locality,RegionalKey,Borough,Suburb\n";
const ROW = "Aachener Straße,10713,Berlin,11000000,Charlottenburg-Wilmersdorf,Wilmersdorf\n";
const bytes = (text: string) => new TextEncoder().encode(text);

async function failure(text: string | Uint8Array): Promise<SourceError> {
  try {
    await readStreets(typeof text === "string" ? bytes(text) : text, "streets.csv");
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  throw new Error("expected a SourceError");
}

describe("street source faults name file and line", () => {
  it.each([
    ["an empty file", "", 1, /empty/],
    ["a header only", HEADER, 2, /no data rows/],
    [
      "a wrong header",
      "Name,PLZ,Locality,RegionalKey,Borough,Suburb\n" + ROW,
      1,
      /expected the header/,
    ],
    [
      "a duplicate header",
      "Name,Name,Locality,RegionalKey,Borough,Suburb\n" + ROW,
      1,
      /expected the header/,
    ],
    [
      "too few columns",
      HEADER + ROW + "Allee,10115,Berlin,11000000\n",
      3,
      /expected 6 columns, found 4/,
    ],
    [
      "too many columns",
      HEADER + ROW + ROW + "Allee,10115,Berlin,11000000,,,x\n",
      4,
      /expected 6 columns, found 7/,
    ],
    [
      "an unterminated quote",
      HEADER + ROW + '"Allee,10115,Berlin,11000000,,\n' + ROW,
      3,
      /malformed CSV/,
    ],
    ["a field across lines", HEADER + '"Al\nlee",10115,Berlin,11000000,,\n', 2, /spans lines/],
    ["a bad postal code", HEADER + ROW + "Allee,1011,Berlin,11000000,,\n", 3, /PostalCode '1011'/],
    ["a bad regional key", HEADER + "Allee,10115,Berlin,1100000X,,\n", 2, /RegionalKey/],
    ["an empty name", HEADER + ",10115,Berlin,11000000,,\n", 2, /Name is empty/],
    [
      "a control character",
      HEADER + "Al\u0007lee,10115,Berlin,11000000,,\n",
      2,
      /control character/,
    ],
  ])("%s", async (_, text, line, message) => {
    const error = await failure(text);
    expect(error.file).toBe("streets.csv");
    expect(error.line).toBe(line);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`streets.csv:${line}: `)).toBe(true);
  });

  it("an invalid UTF-8 sequence", async () => {
    const valid = bytes(HEADER + ROW + ROW);
    const broken = new Uint8Array([
      ...valid,
      ...bytes("Stra"),
      0xc3,
      0x28,
      ...bytes("e,10115,Berlin,11000000,,\n"),
    ]);
    const error = await failure(broken);
    expect(error.line).toBe(4);
    expect(error.message).toMatch(/invalid UTF-8/);
  });

  it.each([
    ["a BOM", "\uFEFF" + HEADER + ROW],
    [
      "CRLF line ends",
      (HEADER + ROW + ROW.replace("Aachener", "Achener")).replaceAll("\n", "\r\n"),
    ],
    ["no final newline", HEADER + ROW.trimEnd()],
  ])("accepts %s", async (_, text) => {
    const rows = await readStreets(bytes(text), "streets.csv");
    expect(rows[0]).toEqual({
      name: "Aachener Straße",
      postalCode: "10713",
      locality: "Berlin",
      regionalKey: "11000000",
      borough: "Charlottenburg-Wilmersdorf",
      suburb: "Wilmersdorf",
    });
  });

  it("reads the real files", async () => {
    expect(
      await readStreets(readFileSync(dataFile("de/streets-berlin.csv")), "berlin"),
    ).toHaveLength(11920);
    expect(
      await readStreets(readFileSync(dataFile("de/streets-openplz-sample.csv")), "sample"),
    ).toHaveLength(901);
  });
});

describe("register and list sources", () => {
  it("GV100AD: 16 states, 400 districts, municipalities with types", () => {
    const gv = readGv100ad(readFileSync(dataFile("de/GV100AD_30112025.txt")), "gv");
    expect(gv.federalStates).toHaveLength(16);
    expect(gv.districts).toHaveLength(400);
    expect(gv.federalStates.find((s) => s.key === "05")).toEqual({
      key: "05",
      name: "Nordrhein-Westfalen",
      seatOfGovernment: "Düsseldorf",
    });
    expect(gv.municipalities.find((m) => m.key === "11000000")).toMatchObject({
      name: "Berlin, Stadt",
      type: 61,
    });
  });

  it("GV100AD: a short record names its line", () => {
    const text =
      readFileSync(dataFile("de/GV100AD_30112025.txt"), "utf8").split("\n").slice(0, 3).join("\n") +
      "\n60short\n";
    expect(() => readGv100ad(bytes(text), "gv.txt")).toThrow(/^gv\.txt:4: /);
  });

  it("AT provinces, CH cantons (Latin-1), LI communes", async () => {
    expect(
      readAtDistricts(readFileSync(dataFile("at/districts-2015.txt")), "at").provinces.map(
        (p) => p.name,
      ),
    ).toEqual([
      "Burgenland",
      "Kärnten",
      "Niederösterreich",
      "Oberösterreich",
      "Salzburg",
      "Steiermark",
      "Tirol",
      "Vorarlberg",
      "Wien",
    ]);
    const cantons = await readChCantons(readFileSync(dataFile("ch/GDEHist_KT.txt")), "ch");
    expect(cantons).toHaveLength(26);
    expect(cantons.find((c) => c.key === "24")).toEqual({
      key: "24",
      name: "Neuchâtel",
      shortName: "NE",
    });
    expect(await readLiCommunes(readFileSync(dataFile("li/communes.csv")), "li")).toHaveLength(11);
  });
});

describe("the swisstopo street directory (upstream format)", () => {
  const fixture = readFileSync(
    dataFile("ch/upstream-format/amtliches-strassenverzeichnis-fixture.csv"),
  );

  it("reads every row, with the BOM and ';', and splits ZIP_LABEL lists into one street per locality", async () => {
    const streets = await readSwissStreets(fixture, "strassen.csv");
    expect(
      streets.map((s) => [s.key, s.name, s.postalCode, s.locality, s.communeKey, s.canton]),
    ).toEqual([
      ["10061643", "Aeschen", "8752", "Näfels", "1630", "GL"],
      ["10238439", "Panoramastrasse", "8868", "Oberurnen", "1630", "GL"],
      ["10090616", "Les Etramaz", "1041", "Bottens", "5514", "VD"],
      ["10112650", "Gerbe", "3533", "Bowil", "605", "BE"],
      ["10163894", "Route du Glèbe", "1695", "Rueyres-St-Laurent", "2236", "FR"],
      ["10163894", "Route du Glèbe", "1695", "Villarsel-le-Gibloux", "2236", "FR"],
    ]);
    expect(streets[0]).toMatchObject({ communeName: "Glarus Nord", status: "real" });
  });

  it.each([
    ["8752 Näfels", [["8752", "Näfels"]]],
    [
      "1695 Rueyres-St-Laurent, 1695 Villarsel-le-Gibloux",
      [
        ["1695", "Rueyres-St-Laurent"],
        ["1695", "Villarsel-le-Gibloux"],
      ],
    ],
    [
      "9000 St. Gallen, 9008 St. Gallen,9010 St. Gallen",
      [
        ["9000", "St. Gallen"],
        ["9008", "St. Gallen"],
        ["9010", "St. Gallen"],
      ],
    ],
    ["1000 Lausanne 26", [["1000", "Lausanne 26"]]],
  ])("ZIP_LABEL %j", (label, expected) => {
    expect(zipLabels(label, "f", 2).map((e) => [e.postalCode, e.locality])).toEqual(expected);
  });

  it.each([
    ["a label without postal code", "Näfels"],
    ["an empty label", ""],
    ["a five-digit code", "87520 Näfels"],
  ])("fails on %s with file and line", (_, label) => {
    expect(() => zipLabels(label, "strassen.csv", 7)).toThrow(/^strassen\.csv:7: ZIP_LABEL/);
  });

  it("fails on a wrong header and on a broken row, naming the line", async () => {
    const text = fixture.toString("utf8");
    await expect(
      readSwissStreets(new TextEncoder().encode(text.replace("STR_ESID", "ESID")), "s.csv"),
    ).rejects.toThrow(/^s\.csv:1: expected the header/);
    const broken = text.replace("10090616;Les Etramaz", "x;Les Etramaz");
    await expect(readSwissStreets(new TextEncoder().encode(broken), "s.csv")).rejects.toThrow(
      /^s\.csv:4: STR_ESID 'x' is not a number/,
    );
  });
});
