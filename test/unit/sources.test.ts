import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readGv100ad } from "../../generator/sources/de-gv100ad.ts";
import { readStreets } from "../../generator/sources/de-streets.ts";
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
    ["a wrong header", "Name,PLZ,Locality,RegionalKey,Borough,Suburb\n" + ROW, 1, /expected the header/],
    ["a duplicate header", "Name,Name,Locality,RegionalKey,Borough,Suburb\n" + ROW, 1, /expected the header/],
    ["too few columns", HEADER + ROW + "Allee,10115,Berlin,11000000\n", 3, /expected 6 columns, found 4/],
    ["too many columns", HEADER + ROW + ROW + "Allee,10115,Berlin,11000000,,,x\n", 4, /expected 6 columns, found 7/],
    ["an unterminated quote", HEADER + ROW + '"Allee,10115,Berlin,11000000,,\n' + ROW, 3, /malformed CSV/],
    ["a field across lines", HEADER + '"Al\nlee",10115,Berlin,11000000,,\n', 2, /spans lines/],
    ["a bad postal code", HEADER + ROW + "Allee,1011,Berlin,11000000,,\n", 3, /PostalCode '1011'/],
    ["a bad regional key", HEADER + "Allee,10115,Berlin,1100000X,,\n", 2, /RegionalKey/],
    ["an empty name", HEADER + ",10115,Berlin,11000000,,\n", 2, /Name is empty/],
    ["a control character", HEADER + "Al\u0007lee,10115,Berlin,11000000,,\n", 2, /control character/],
  ])("%s", async (_, text, line, message) => {
    const error = await failure(text);
    expect(error.file).toBe("streets.csv");
    expect(error.line).toBe(line);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`streets.csv:${line}: `)).toBe(true);
  });

  it("an invalid UTF-8 sequence", async () => {
    const valid = bytes(HEADER + ROW + ROW);
    const broken = new Uint8Array([...valid, ...bytes("Stra"), 0xc3, 0x28, ...bytes("e,10115,Berlin,11000000,,\n")]);
    const error = await failure(broken);
    expect(error.line).toBe(4);
    expect(error.message).toMatch(/invalid UTF-8/);
  });

  it.each([
    ["a BOM", "\uFEFF" + HEADER + ROW],
    ["CRLF line ends", (HEADER + ROW + ROW.replace("Aachener", "Achener")).replaceAll("\n", "\r\n")],
    ["no final newline", HEADER + ROW.trimEnd()],
  ])("accepts %s", async (_, text) => {
    const rows = await readStreets(bytes(text), "streets.csv");
    expect(rows[0]).toEqual({ name: "Aachener Straße", postalCode: "10713", locality: "Berlin", regionalKey: "11000000", borough: "Charlottenburg-Wilmersdorf", suburb: "Wilmersdorf" });
  });

  it("reads the real files", async () => {
    expect(await readStreets(readFileSync(dataFile("de/streets-berlin.csv")), "berlin")).toHaveLength(11920);
    expect(await readStreets(readFileSync(dataFile("de/streets-openplz-sample.csv")), "sample")).toHaveLength(901);
  });
});

describe("register and list sources", () => {
  it("GV100AD: 16 states, 400 districts, municipalities with types", () => {
    const gv = readGv100ad(readFileSync(dataFile("de/GV100AD_30112025.txt")), "gv");
    expect(gv.federalStates).toHaveLength(16);
    expect(gv.districts).toHaveLength(400);
    expect(gv.federalStates.find((s) => s.key === "05")).toEqual({ key: "05", name: "Nordrhein-Westfalen", seatOfGovernment: "Düsseldorf" });
    expect(gv.municipalities.find((m) => m.key === "11000000")).toMatchObject({ name: "Berlin, Stadt", type: 61 });
  });

  it("GV100AD: a short record names its line", () => {
    const text = readFileSync(dataFile("de/GV100AD_30112025.txt"), "utf8").split("\n").slice(0, 3).join("\n") + "\n60short\n";
    expect(() => readGv100ad(bytes(text), "gv.txt")).toThrow(/^gv\.txt:4: /);
  });

  it("AT provinces, CH cantons (Latin-1), LI communes", async () => {
    expect(readAtDistricts(readFileSync(dataFile("at/districts-2015.txt")), "at").provinces.map((p) => p.name)).toEqual(["Burgenland", "Kärnten", "Niederösterreich", "Oberösterreich", "Salzburg", "Steiermark", "Tirol", "Vorarlberg", "Wien"]);
    const cantons = await readChCantons(readFileSync(dataFile("ch/GDEHist_KT.txt")), "ch");
    expect(cantons).toHaveLength(26);
    expect(cantons.find((c) => c.key === "24")).toEqual({ key: "24", name: "Neuchâtel", shortName: "NE" });
    expect(await readLiCommunes(readFileSync(dataFile("li/communes.csv")), "li")).toHaveLength(11);
  });
});
