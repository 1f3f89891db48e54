import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { liCommunes } from "../../generator/resources/at-ch-li.ts";
import type { AnyResource } from "../../generator/resources/resource.ts";
import { DownloadWriter } from "../../generator/build/downloads.ts";
import { encodeRecords } from "../../generator/build/encode.ts";
import type { DownloadFile } from "../../generator/contract/downloads.ts";
import { MemorySink } from "../../generator/io/sink.ts";
import { dataFile } from "../support/paths.ts";

const resource = liCommunes as unknown as AnyResource;
// Real rows (the communes of Liechtenstein), as CSV lines and as JSON strings of them.
const lines = readFileSync(dataFile("li/communes.csv"), "utf8").trim().split(/\r?\n/).slice(1);
const csv = lines.map((line) => `${line}\r\n`);
const json = lines.map((line) => JSON.stringify({ line }));

async function writeDataset(maxBytes: number, gzipOver = 1_000_000) {
  const sink = new MemorySink();
  const writer = new DownloadWriter(sink, { maxBytes, gzipOver });
  const dataset = writer.dataset(resource);
  await dataset.add(encodeRecords({ json: json.slice(0, 5), csv: csv.slice(0, 5) }));
  await dataset.add(encodeRecords({ json: json.slice(5), csv: csv.slice(5) }));
  await dataset.finish();
  const manifest = await writer.finish("2026-11-22T00:00:00.000Z", []);
  return { sink, manifest };
}

describe("complete datasets in parts", () => {
  it.each([
    ["fits in one file", 1_000_000, 1],
    ["splits in two", Math.ceil(json.join(",").length / 2) + 20, 2],
    ["splits into many", 120, lines.length],
  ])("%s (limit %i bytes)", async (_, maxBytes, expectedParts) => {
    const { sink, manifest } = await writeDataset(maxBytes);
    for (const format of ["json", "csv"] as const) {
      const files = manifest.files.filter((f) => f.format === format && f.gzipOf === undefined);
      expect(files.length, format).toBeGreaterThanOrEqual(Math.min(expectedParts, 2));
      if (expectedParts === 1)
        expect(files.map((f) => [f.path, f.part, f.parts])).toEqual([
          [`/downloads/li.communes.${format}`, undefined, undefined],
        ]);
      else
        expect(files.map((f) => [f.path, f.part, f.parts])).toEqual(
          files.map((_, i) => [
            `/downloads/li.communes.part-${i + 1}.${format}`,
            i + 1,
            files.length,
          ]),
        );
      const records: string[] = [];
      for (const file of files) {
        const text = sink.text(file.path) ?? "";
        expect(Buffer.byteLength(text), file.path).toBe(file.bytes);
        expect(file.bytes, file.path).toBeLessThanOrEqual(maxBytes);
        expect(createHash("sha256").update(text).digest("hex")).toBe(file.sha256);
        const rows =
          format === "json"
            ? (JSON.parse(text) as unknown[]).map((r) => JSON.stringify(r))
            : text
                .split("\r\n")
                .slice(1, -1)
                .map((r) => `${r}\r\n`);
        if (format === "csv") expect(text.startsWith("Key,")).toBe(true); // every part has the header
        expect(file.records).toBe(rows.length);
        records.push(...rows);
      }
      expect(records).toEqual(format === "json" ? json : csv);
    }
  });

  it("refuses a record too large for any file", async () => {
    await expect(writeDataset(40)).rejects.toThrow(/would be \d+ bytes, over the limit of 40/);
  });

  it("adds a gzip copy of every file over the threshold, listed with its own hash", async () => {
    const { sink, manifest } = await writeDataset(1_000_000, 250);
    const copies = manifest.files.filter((f) => f.gzipOf !== undefined);
    const big = manifest.files.filter((f) => f.gzipOf === undefined && f.bytes > 250);
    expect(copies.map((f) => f.gzipOf).sort()).toEqual(big.map((f) => f.path).sort());
    expect(big.map((f) => f.format).sort()).toEqual(["csv", "json"]);
    for (const copy of copies) {
      const data = sink.files.get(copy.path) as Uint8Array;
      expect(copy.mediaType).toBe("application/gzip");
      expect(createHash("sha256").update(data).digest("hex")).toBe(copy.sha256);
      expect(gunzipSync(data).toString("utf8")).toBe(sink.text(copy.gzipOf ?? ""));
      expect(copy.records).toBe(lines.length);
    }
  });

  it("lists every file in the manifest with hash, size, media type, records and credits", async () => {
    const { sink, manifest } = await writeDataset(1_000_000);
    const index = JSON.parse(sink.text("/downloads/index.json") ?? "") as {
      builtAt: string;
      files: DownloadFile[];
    };
    expect(index.builtAt).toBe("2026-11-22T00:00:00.000Z");
    expect(index.files).toEqual(manifest.files);
    for (const file of index.files) {
      expect(Object.keys(file).slice(0, 5)).toEqual([
        "path",
        "mediaType",
        "bytes",
        "sha256",
        "records",
      ]);
      expect(file.credits).toEqual([
        expect.objectContaining({ licence: "Open Database License (ODbL) 1.0", asOf: "2025" }),
      ]);
    }
  });
});
