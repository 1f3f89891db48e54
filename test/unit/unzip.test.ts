import { readFileSync } from "node:fs";
import { zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { readSwissStreets, SWISS_STREETS_ENTRY } from "../../generator/sources/ch-streets.ts";
import { isZip, unzipEntry } from "../../generator/sources/unzip.ts";
import { dataFile } from "../support/paths.ts";
import { craftZip, honestEntry, zeroBombEntry, type CraftedEntry } from "../support/zip-craft.ts";

const streets = readFileSync(
  dataFile("ch/upstream-format/amtliches-strassenverzeichnis-fixture.csv"),
);
const gv = /(^|\/)GV100AD[^/]*\.txt$/i;

describe("zip sources (archives written by fflate, read by our reader)", () => {
  it("reads the swisstopo street directory out of its zip, as published (data file beside a licence and a readme)", async () => {
    const archive = zipSync({
      "amtliches-strassenverzeichnis_ch_2056.csv": streets,
      "LICENSE.txt": new Uint8Array([79, 71, 68]),
      "readme/Beschreibung.pdf": new Uint8Array([37, 80]),
    });
    expect(isZip(archive)).toBe(true);
    const entry = unzipEntry(archive, SWISS_STREETS_ENTRY);
    expect(entry.name).toBe("amtliches-strassenverzeichnis_ch_2056.csv");
    expect(Buffer.from(entry.bytes).equals(streets)).toBe(true);
    expect(await readSwissStreets(entry.bytes, entry.name)).toHaveLength(6);
  });

  it.each([
    [
      "a stored entry in a folder",
      { "GV/GV100AD_31072025.txt": [new Uint8Array([49, 48]), { level: 0 }] },
      "GV/GV100AD_31072025.txt",
    ],
    [
      "the name in upper case",
      { "GV100AD_30112025.TXT": new Uint8Array([49]) },
      "GV100AD_30112025.TXT",
    ],
  ] as [string, Zippable, string][])("finds the entry: %s", (_, files, name) => {
    expect(unzipEntry(zipSync(files), gv).name).toBe(name);
  });

  it.each([
    [
      "no matching entry",
      zipSync({ "readme.txt": new Uint8Array([65]) }),
      /expected one zip entry matching .* found none \(entries: readme\.txt\)/,
    ],
    [
      "two matching entries",
      zipSync({ "GV100AD_1.txt": new Uint8Array([1]), "GV100AD_2.txt": new Uint8Array([2]) }),
      /found GV100AD_1\.txt, GV100AD_2\.txt/,
    ],
    [
      "a truncated archive",
      zipSync({ "GV100AD_1.txt": streets }).slice(0, 100),
      /not a readable zip archive/,
    ],
    ["an empty archive", zipSync({}), /found none \(entries: none\)/],
  ])("fails on %s", (_, archive, message) => {
    expect(() => unzipEntry(archive, gv)).toThrow(message);
  });

  it("reads an archive of entries written by hand, stored and deflated (the writer the crafted cases below use)", () => {
    const archive = craftZip([
      honestEntry("LICENSE.txt", new Uint8Array([79, 71, 68]), 0),
      honestEntry("GV100AD_30112025.txt", streets),
    ]);
    expect(Buffer.from(unzipEntry(archive, gv).bytes).equals(streets)).toBe(true);
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

describe("crafted archives: chosen by the central directory, inflated within the declared size, checked", () => {
  const text = new TextEncoder().encode("Ortschaftsname;PLZ4;Zusatzziffer\n".repeat(2000));
  const honest = honestEntry("GV100AD_30112025.txt", text);
  const lie = (changes: Partial<CraftedEntry>) => craftZip([{ ...honest, ...changes }]);
  /** Data no inflater can read, declaring 1,000 MiB: only inflating it could fail on it. */
  const unreadable = (name: string): CraftedEntry => ({
    name,
    data: new Uint8Array(4096).fill(0xff),
    method: 8,
    crc: 0,
    size: 1000 * 1024 * 1024,
  });

  it.each([
    [
      "four matching entries of 1,000 MiB each: refused before any is inflated",
      craftZip([1, 2, 3, 4].map((n) => unreadable(`GV100AD_${n}.txt`))),
      undefined,
      /^expected one zip entry matching .*, found GV100AD_1\.txt, GV100AD_2\.txt, GV100AD_3\.txt, GV100AD_4\.txt \(entries: /,
    ],
    [
      "a declared size smaller than the data (was: silently truncated)",
      lie({ size: text.byteLength - 100 }),
      undefined,
      /^zip entry GV100AD_30112025\.txt: inflates to more than the declared 65900 bytes$/,
    ],
    [
      "a declared size one byte smaller than the data",
      lie({ size: text.byteLength - 1 }),
      undefined,
      /^zip entry GV100AD_30112025\.txt: holds 66000 bytes, but declares 65999$/,
    ],
    [
      "a declared size larger than the data",
      lie({ size: text.byteLength + 5 }),
      undefined,
      /^zip entry GV100AD_30112025\.txt: holds 66000 bytes, but declares 66005$/,
    ],
    [
      "a wrong CRC-32",
      lie({ crc: (honest.crc ^ 1) >>> 0 }),
      undefined,
      /^zip entry GV100AD_30112025\.txt: CRC-32 [0-9a-f]{8} does not match the declared [0-9a-f]{8} \(a damaged archive\)$/,
    ],
    [
      "a stored entry whose data is shorter than declared",
      craftZip([{ ...honestEntry("GV100AD_1.txt", text, 0), size: text.byteLength * 2 }]),
      undefined,
      /holds 66000 bytes, but declares 132000$/,
    ],
    [
      "an entry declaring more than the limit",
      craftZip([honest]),
      1000,
      /^zip entry GV100AD_30112025\.txt: declares 66000 bytes, more than the limit of 1000 bytes$/,
    ],
    [
      "64 MiB of zeros declaring 1 KiB: inflating stops at the declared size",
      craftZip([{ ...zeroBombEntry("GV100AD_1.txt", 64), size: 1024 }]),
      undefined,
      /^zip entry GV100AD_1\.txt: inflates to more than the declared 1024 bytes$/,
    ],
    [
      "data cut off by the end of the archive",
      craftZip([{ ...honest, data: honest.data.subarray(0, 10) }]),
      undefined,
      /cannot be inflated|holds \d+ bytes/,
    ],
    [
      "an encrypted entry",
      lie({ flags: 1 }),
      undefined,
      /^zip entry GV100AD_30112025\.txt: encrypted \(not supported\)$/,
    ],
  ] as [string, Uint8Array, number | undefined, RegExp][])(
    "fails on %s",
    (_, archive, maxBytes, message) => {
      expect(() => unzipEntry(archive, gv, maxBytes)).toThrow(message);
    },
  );

  it("a 1,000 MiB entry of a 1 MB archive is refused by its declaration alone", () => {
    const bomb = zeroBombEntry("GV100AD_1.txt", 1000);
    const archive = craftZip([bomb]);
    expect(archive.byteLength).toBeLessThan(2 * 1024 * 1024);
    expect(() => unzipEntry(archive, gv, 512 * 1024 * 1024)).toThrow(
      /^zip entry GV100AD_1\.txt: declares 1048576000 bytes, more than the limit of 536870912 bytes$/,
    );
  });
});
