import { describe, expect, it } from "vitest";
import { encodeRecords, type EncodedRecords } from "../../generator/build/encode.ts";
import { streetEncoder } from "../../generator/build/encode-streets.ts";
import { csvRow } from "../../generator/contract/csv.ts";
import { jsonRecord } from "../../generator/contract/page.ts";
import { atStreets } from "../../generator/resources/at.ts";
import { chStreets, liStreets } from "../../generator/resources/ch-li-streets.ts";
import { streets as deStreets } from "../../generator/resources/de.ts";
import type { AnyResource } from "../../generator/resources/resource.ts";

/** The encoding every other resource gets: each record rendered in full. */
function plain(resource: AnyResource, records: readonly unknown[]): EncodedRecords {
  const columns = resource.record.columns;
  return encodeRecords({
    json: records.map(jsonRecord),
    csv: records.map((record) => csvRow(columns, record)),
  });
}

function expectSameBytes(a: EncodedRecords, b: EncodedRecords): void {
  expect(b.count).toBe(a.count);
  expect(b.bytes.json.toString()).toBe(a.bytes.json.toString());
  expect(b.bytes.csv.toString()).toBe(a.bytes.csv.toString());
  expect([...b.offsets.json]).toEqual([...a.offsets.json]);
  expect([...b.offsets.csv]).toEqual([...a.offsets.csv]);
}

// Shared objects, as the model makes them: one per municipality, district and state.
const berlin = { key: "11000000", name: "Berlin, Stadt", type: "Kreisfreie Stadt" };
const aach = { key: "08335001", name: "Aach, Stadt", type: "Stadt" };
const konstanz = { key: "08335", name: "Konstanz", type: "Landkreis" };
const be = { key: "11", name: "Berlin" };
const bw = { key: "08", name: "Baden-Württemberg" };
/** The same values as `aach`, another object: the same bytes, another tail. */
const aachAgain = { ...aach };

const street = (name: unknown, postalCode: string, more: Record<string, unknown> = {}) => ({
  name,
  postalCode,
  locality: more.locality ?? "Berlin",
  ...(more.borough === undefined ? {} : { borough: more.borough }),
  ...(more.suburb === undefined ? {} : { suburb: more.suburb }),
  municipality: more.municipality ?? berlin,
  ...(more.district === undefined ? {} : { district: more.district }),
  federalState: more.federalState ?? be,
});

const aachOf = (name: string, municipality = aach) =>
  street(name, "78267", { locality: "Aach", municipality, district: konstanz, federalState: bw });

describe("streets encoded from heads and shared tails", () => {
  it.each<[string, unknown[]]>([
    ["no streets", []],
    ["one street", [street("Pariser Platz", "10117")]],
    [
      "streets of one tail, names needing quotes, escapes and the formula guard",
      [
        street("Unter den Linden", "10117"),
        street('Straße "am Hang", Nord', "10117"),
        street("=HYPERLINK()", "10117"),
        street("-Weg", "10117"),
        street("𝄞 Musikweg\\Ecke", "10117"),
        street("Tab\tweg", "10117"),
      ],
    ],
    [
      "optional properties present and absent, several postal codes",
      [
        street("Allee", "10117", { borough: "Mitte", suburb: "Mitte" }),
        street("Allee", "10115", { borough: "Mitte" }),
        street("Allee", "10117"),
        street("Bahnhofstraße", "10117", { borough: "Mitte", suburb: "Mitte" }),
        street("Bahnhofstraße", "10115", { suburb: "Wedding" }),
      ],
    ],
    [
      "equal values in other objects, and other localities",
      [
        aachOf("Achweg"),
        aachOf("Achweg", aachAgain),
        aachOf("Bergstraße"),
        street("Allee", "10117"),
        aachOf("Zur Mühle", aachAgain),
      ],
    ],
    [
      "streets the head does not fit (rendered in full)",
      [
        street(42, "10117"),
        { postalCode: "10117", name: "Vertauscht", locality: "Berlin", municipality: berlin },
        { name: "Ohne alles" },
        street(undefined, "10117"),
        street("Allee", "10117"),
      ],
    ],
    [
      "the same properties in another order (another tail)",
      [
        street("Allee", "10117"),
        {
          name: "Birkenweg",
          postalCode: "10117",
          locality: "Berlin",
          federalState: be,
          municipality: berlin,
        },
        street("Chaussee", "10117"),
      ],
    ],
  ])("%s: the bytes of rendering each in full", (_, records) => {
    const encode = streetEncoder(deStreets as unknown as AnyResource);
    expect(encode).toBeDefined();
    expectSameBytes(
      plain(deStreets as unknown as AnyResource, records),
      encode?.(records) as EncodedRecords,
    );
  });

  it.each([atStreets, chStreets, liStreets, deStreets])(
    "%# each Streets resource's columns fit the split (none is rendered record by record)",
    (resource) => {
      expect(streetEncoder(resource as unknown as AnyResource)).toBeDefined();
    },
  );

  it.each<[string, { header: string; path: string[] }[]]>([
    ["no name column", [{ header: "Key", path: ["key"] }]],
    ["the name is the last column", [{ header: "Name", path: ["name"] }]],
    [
      "a nested column before the name",
      [
        { header: "M", path: ["municipality", "key"] },
        { header: "Name", path: ["name"] },
        { header: "P", path: ["postalCode"] },
      ],
    ],
    [
      "a tail column reads the head",
      [
        { header: "Name", path: ["name"] },
        { header: "Again", path: ["name"] },
      ],
    ],
  ])("not for columns with %s", (_, columns) => {
    const resource = {
      ...deStreets,
      record: { ...deStreets.record, columns },
    } as unknown as AnyResource;
    expect(streetEncoder(resource)).toBeUndefined();
  });
});
