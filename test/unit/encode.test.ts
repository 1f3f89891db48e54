import { describe, expect, it } from "vitest";
import {
  encodeRecords,
  jsonRecordAt,
  jsonRecordsOf,
  pagePieces,
  pickRecords,
} from "../../generator/build/encode.ts";

/** Records with multi-byte characters, so that byte and character offsets differ. */
const json = [
  '{"name":"Straße"}',
  '{"name":"𝄞 Musikweg"}',
  '{"name":"Allee"}',
  '{"name":"Chemin de l’Église"}',
];
const csv = ["Straße\r\n", "𝄞 Musikweg\r\n", "Allee\r\n", "Chemin de l’Église\r\n"];
const encoded = encodeRecords({ json, csv });

describe("encoded records", () => {
  it("give each record's JSON back as rendered", () => {
    expect(jsonRecordsOf(encoded)).toEqual(json);
    expect([jsonRecordAt(encoded, 3), jsonRecordAt(encoded, 4), jsonRecordAt(encoded, -1)]).toEqual(
      [json[3], undefined, undefined],
    );
  });

  it.each<[string, (i: number) => boolean, number[]]>([
    ["all", () => true, [0, 1, 2, 3]],
    ["none", () => false, []],
    ["the odd ones", (i) => i % 2 === 1, [1, 3]],
    ["the first and the last", (i) => i === 0 || i === 3, [0, 3]],
  ])("pick %s, byte for byte as if only they had been encoded", (_, keep, indexes) => {
    const picked = pickRecords(encoded, keep);
    const expected = encodeRecords({
      json: indexes.map((i) => json[i] ?? ""),
      csv: indexes.map((i) => csv[i] ?? ""),
    });
    expect(picked.count).toBe(indexes.length);
    expect([...picked.offsets.json]).toEqual([...expected.offsets.json]);
    expect([...picked.offsets.csv]).toEqual([...expected.offsets.csv]);
    expect(picked.bytes.json.toString()).toBe(expected.bytes.json.toString());
    expect(picked.bytes.csv.toString()).toBe(expected.bytes.csv.toString());
    expect(
      Buffer.concat(pagePieces(picked, "json", 0, picked.count, Buffer.from(""))).toString(),
    ).toBe(`[${indexes.map((i) => json[i]).join(",")}]`);
  });
});
