import { readFileSync } from "node:fs";
import { zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { readSwissStreets, SWISS_STREETS_ENTRY } from "../../generator/sources/ch-streets.ts";
import { isZip, unzipEntry } from "../../generator/sources/unzip.ts";
import { dataFile } from "../support/paths.ts";

const streets = readFileSync(dataFile("ch/upstream-format/amtliches-strassenverzeichnis-fixture.csv"));
const gv = /(^|\/)GV100AD[^/]*\.txt$/i;

describe("zip sources (fflate)", () => {
  it("reads the swisstopo street directory out of its zip, as published (data file beside a licence and a readme)", async () => {
    const archive = zipSync({ "amtliches-strassenverzeichnis_ch_2056.csv": streets, "LICENSE.txt": new Uint8Array([79, 71, 68]), "readme/Beschreibung.pdf": new Uint8Array([37, 80]) });
    expect(isZip(archive)).toBe(true);
    const entry = unzipEntry(archive, SWISS_STREETS_ENTRY);
    expect(entry.name).toBe("amtliches-strassenverzeichnis_ch_2056.csv");
    expect(Buffer.from(entry.bytes).equals(streets)).toBe(true);
    expect(await readSwissStreets(entry.bytes, entry.name)).toHaveLength(6);
  });

  it.each([
    ["a stored entry in a folder", { "GV/GV100AD_31072025.txt": [new Uint8Array([49, 48]), { level: 0 }] }, "GV/GV100AD_31072025.txt"],
    ["the name in upper case", { "GV100AD_30112025.TXT": new Uint8Array([49]) }, "GV100AD_30112025.TXT"],
  ] as [string, Zippable, string][])("finds the entry: %s", (_, files, name) => {
    expect(unzipEntry(zipSync(files), gv).name).toBe(name);
  });

  it.each([
    ["no matching entry", zipSync({ "readme.txt": new Uint8Array([65]) }), /expected one zip entry matching .* found none \(entries: readme\.txt\)/],
    ["two matching entries", zipSync({ "GV100AD_1.txt": new Uint8Array([1]), "GV100AD_2.txt": new Uint8Array([2]) }), /found GV100AD_1\.txt, GV100AD_2\.txt/],
    ["a truncated archive", zipSync({ "GV100AD_1.txt": streets }).slice(0, 100), /not a readable zip archive/],
    ["an empty archive", zipSync({}), /found none \(entries: none\)/],
  ])("fails on %s", (_, archive, message) => {
    expect(() => unzipEntry(archive, gv)).toThrow(message);
  });

  it.each([
    ["a zip", zipSync({ a: new Uint8Array([1]) }), true],
    ["CSV text", streets, false],
    ["three bytes", new Uint8Array([0x50, 0x4b, 0x03]), false],
    ["nothing", new Uint8Array(), false],
  ])("isZip(%s) is %s", (_, bytes, expected) => {
    expect(isZip(bytes)).toBe(expected);
  });
});
