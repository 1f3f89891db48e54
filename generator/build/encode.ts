import { createHash, hash } from "node:crypto";
import type { Format } from "../contract/query.ts";

/** A view's records as the API serves them: each record's compact JSON and its CSV row. */
export interface RenderedView {
  readonly json: readonly string[];
  readonly csv: readonly string[];
}

/**
 * A view's records as bytes, encoded once: its packed records, page files, download bytes and
 * hashes are all cut from these. In each format the records follow each other as packs hold them
 * (pack.ts): a JSON record with its comma, a CSV row with its CRLF.
 */
export interface EncodedRecords {
  readonly count: number;
  readonly bytes: Readonly<Record<Format, Buffer>>;
  /** Where each record starts, per format: `count + 1` offsets, the last the end. */
  readonly offsets: Readonly<Record<Format, Float64Array>>;
}

export function encodeRecords(rendered: RenderedView): EncodedRecords {
  const json = encode(rendered.json, ",");
  const csv = encode(rendered.csv, "");
  return {
    count: rendered.json.length,
    bytes: { json: json.bytes, csv: csv.bytes },
    offsets: { json: json.offsets, csv: csv.offsets },
  };
}

/** The records `keep` chooses (by index), as bytes cut from the encoded ones: nothing is rendered again. */
export function pickRecords(
  encoded: EncodedRecords,
  keep: (index: number) => boolean,
): EncodedRecords {
  const chosen = Array.from({ length: encoded.count }, (_, i) => i).filter(keep);
  const pick = (format: Format) => {
    const from = encoded.offsets[format];
    const offsets = new Float64Array(chosen.length + 1);
    chosen.forEach(
      (record, i) =>
        (offsets[i + 1] = (offsets[i] ?? 0) + (from[record + 1] ?? 0) - (from[record] ?? 0)),
    );
    const bytes = Buffer.allocUnsafe(offsets[chosen.length] ?? 0);
    chosen.forEach((record, i) =>
      encoded.bytes[format].copy(bytes, offsets[i] ?? 0, from[record] ?? 0, from[record + 1] ?? 0),
    );
    return { bytes, offsets };
  };
  const json = pick("json");
  const csv = pick("csv");
  return {
    count: chosen.length,
    bytes: { json: json.bytes, csv: csv.bytes },
    offsets: { json: json.offsets, csv: csv.offsets },
  };
}

/** The `index`th record's compact JSON, as rendered (without the comma packs put after it). */
export function jsonRecordAt(encoded: EncodedRecords, index: number): string | undefined {
  if (index < 0 || index >= encoded.count) return undefined;
  return encoded.bytes.json.toString(
    "utf8",
    encoded.offsets.json[index] ?? 0,
    (encoded.offsets.json[index + 1] ?? 0) - 1,
  );
}

/** Every record's compact JSON, as rendered. */
export function jsonRecordsOf(encoded: EncodedRecords): string[] {
  return Array.from({ length: encoded.count }, (_, i) => jsonRecordAt(encoded, i) ?? "");
}

function encode(
  rows: readonly string[],
  separator: "," | "",
): { bytes: Buffer; offsets: Float64Array } {
  const offsets = new Float64Array(rows.length + 1);
  const extra = separator.length;
  for (let i = 0; i < rows.length; i++)
    offsets[i + 1] = (offsets[i] ?? 0) + Buffer.byteLength(rows[i] ?? "") + extra;
  const bytes = Buffer.allocUnsafe(offsets[rows.length] ?? 0);
  for (let i = 0; i < rows.length; i++) {
    const at = bytes.write(rows[i] ?? "", offsets[i] ?? 0) + (offsets[i] ?? 0);
    if (extra === 1) bytes[at] = 0x2c;
  }
  return { bytes, offsets };
}

const OPEN = Buffer.from("[");
const CLOSE = Buffer.from("]");

/**
 * The pieces of the page (or download) of records [start, end) in a format: concatenated they
 * are the bytes `renderPage` gives for the same records (a JSON slice drops its last comma).
 */
export function pagePieces(
  encoded: EncodedRecords,
  format: Format,
  start: number,
  end: number,
  csvHeaderLine: Buffer,
): Buffer[] {
  const from = encoded.offsets[format][start] ?? 0;
  const to = encoded.offsets[format][end] ?? 0;
  if (format === "csv") return [csvHeaderLine, encoded.bytes.csv.subarray(from, to)];
  return [OPEN, encoded.bytes.json.subarray(from, end > start ? to - 1 : to), CLOSE];
}

/** A short hash of a view's records: part of every page's ETag, so it changes when the records do. */
export function viewHash(encoded: EncodedRecords): string {
  return hash("sha256", encoded.bytes.json, "hex").slice(0, 16);
}

/** SHA-256 of a page's pieces, without joining them. */
export function sha256Of(pieces: readonly Buffer[]): Buffer {
  const hash = createHash("sha256");
  for (const piece of pieces) hash.update(piece);
  return hash.digest();
}
