import { describe, expect, it } from "vitest";
import { readStreets } from "../../generator/sources/de-streets.ts";
import { readStreetsInHalves, SPLIT_OVER } from "../../generator/sources/street-halves.ts";

/** A street list of `rows` rows (260,000: over the size read in halves, 8 MiB). */
function bigList(rows: number): string {
  const lines = ["Name,PostalCode,Locality,RegionalKey,Borough,Suburb"];
  for (let i = 0; lines.length < rows; i++)
    lines.push(
      `Straße ${i % 5000},${String(10000 + (i % 90000)).padStart(5, "0")},Ort ${i % 700},0${String(1001000 + (i % 9)).padStart(7, "0")},${i % 3 === 0 ? "Mitte" : ""},`,
    );
  return `${lines.join("\n")}\n`;
}

const failure = (read: Promise<unknown>) =>
  read.then(
    () => "read",
    (error: Error) => error.message,
  );

describe("readStreetsInHalves", () => {
  it("reads the same rows as one plain read", async () => {
    const bytes = Buffer.from(bigList(260_000));
    expect(bytes.length).toBeGreaterThan(SPLIT_OVER);
    const halves = await readStreetsInHalves(bytes, "streets.csv");
    expect(halves.length).toBeGreaterThan(250_000);
    expect(halves).toEqual(await readStreets(bytes, "streets.csv"));
  });

  it("fails as a plain read does, for a defect in the second half and a field across lines", async () => {
    // The same path on a tenth of the rows with a tenth of the split size (each input is read
    // twice plainly and once in halves: at full size this test took two thirds of the file's time).
    const text = bigList(26_000);
    const splitOver = SPLIT_OVER / 10;
    expect(Buffer.byteLength(text)).toBeGreaterThan(splitOver);
    const end = text.length - 100;
    const defect = `${text.slice(0, end)}\nBad Street,1234,Town,01001000,,${text.slice(end)}`;
    const spanning = `${text.slice(0, end)}\n"Spanning\nStreet",10115,Berlin,11000000,,${text.slice(end)}`;
    for (const input of [defect, spanning]) {
      const plain = await failure(readStreets(Buffer.from(input), "streets.csv"));
      expect(plain).not.toBe("read");
      expect(await failure(readStreetsInHalves(Buffer.from(input), "streets.csv", splitOver))).toBe(
        plain,
      );
    }
  });
});
