import { describe, expect, it } from "vitest";
import { identityFields, identityOf } from "../../generator/contract/record-identity.ts";
import { forEachJsonRecord, jsonRecordEnd } from "../../generator/contract/json-records.ts";

const recordsOf = (text: string) => {
  const bytes = Buffer.from(text);
  const found: string[] = [];
  forEachJsonRecord(bytes, (start, end) => found.push(bytes.toString("utf8", start, end)));
  return found;
};

describe("a download's records, cut without parsing", () => {
  it.each([
    ["empty", "[]", []],
    ["one", '[{"key":"1"}]', ['{"key":"1"}']],
    ["nested objects", '[{"a":{"b":"c"}},{"d":1}]', ['{"a":{"b":"c"}}', '{"d":1}']],
    [
      "brackets and commas in strings",
      '[{"n":"a,}]{["},{"n":"x"}]',
      ['{"n":"a,}]{["}', '{"n":"x"}'],
    ],
    [
      "escaped quotes and backslashes",
      '[{"n":"say \\"hi\\" \\\\"},{"n":"\\\\"}]',
      ['{"n":"say \\"hi\\" \\\\"}', '{"n":"\\\\"}'],
    ],
    ["non-ASCII", '[{"n":"Ölweg"},{"n":"Zürich"}]', ['{"n":"Ölweg"}', '{"n":"Zürich"}']],
  ])("%s", (_, text, expected) => {
    expect(recordsOf(text)).toEqual(expected);
    expect(recordsOf(text).map((r) => JSON.parse(r) as unknown)).toEqual(JSON.parse(text));
  });

  it("refuses an array cut short", () => {
    expect(() => recordsOf('[{"n":"a"},{"n":')).toThrow(/not a complete JSON array/);
  });

  it.each([
    ["flat", '{"a":"b"},{"c":1}', 9],
    ["nested", '{"a":{"b":[1,{"c":2}]}},{}', 23],
    ["brackets and an escaped quote in a string", '{"n":"}\\"]{"},{}', 13],
  ])("where one record ends: %s", (_, text, end) => {
    expect(jsonRecordEnd(Buffer.from(text), 0)).toBe(end);
  });

  it("refuses a record cut short", () => {
    expect(() => jsonRecordEnd(Buffer.from('{"n":{"a":1}'), 0)).toThrow(
      /not a complete JSON record/,
    );
  });
});

describe("record identity", () => {
  it.each([
    [
      "a record with a key",
      "de.federalstates.districts",
      { key: "01001", name: "Flensburg" },
      ['"01001"'],
    ],
    [
      "an Austrian municipality: key and code (Vienna's districts share a key)",
      "at.districts.municipalities",
      { key: "90001", code: "92301", name: "Wien-Liesing" },
      ['"90001"', '"92301"'],
    ],
    [
      "an Austrian street (it has a key)",
      "at.streets",
      { key: "042417", name: "Achgasse", postalCode: "6900" },
      ['"042417"'],
    ],
    [
      "a German street",
      "de.streets",
      {
        name: "Aachener Straße",
        postalCode: "10713",
        locality: "Berlin",
        borough: "Charlottenburg-Wilmersdorf",
        suburb: "Wilmersdorf",
        municipality: { key: "11000000" },
      },
      [
        '"Aachener Straße"',
        '"10713"',
        '"Berlin"',
        '"Charlottenburg-Wilmersdorf"',
        '"Wilmersdorf"',
        '"11000000"',
        "null",
      ],
    ],
    [
      "a Swiss locality",
      "ch.localities",
      { postalCode: "5462", name: "Siglistorf", commune: { key: "93" } },
      ['"5462"', '"Siglistorf"', "null", '"93"'],
    ],
  ])("%s", (_, resource, record, expected) => {
    expect(identityOf(record, identityFields(resource, record))).toBe(`[${expected.join(",")}]`);
  });

  it("refuses a resource it has no identity for", () => {
    expect(() => identityFields("de.federalstates", { name: "Berlin" })).toThrow(
      /no record identity/,
    );
  });
});
