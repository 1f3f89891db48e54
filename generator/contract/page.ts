import type { Format } from "./query.ts";

/**
 * A page's bytes from its records' rendered rows, the one way pages are made: the build writes
 * page files and downloads with it, and the Worker serves inlined pages with it, so all are
 * identical (a packed page is a slice of the same rows, see pack.ts).
 * JSON: the records' compact JSON in an array; CSV: the header line, then one CRLF-ended row each.
 */
export function renderPage(format: Format, csvHeaderLine: string, rows: readonly string[]): string {
  return format === "json" ? jsonArray(rows) : csvHeaderLine + rows.join("");
}

/** Compact JSON as the original writes it: properties in record order, absent ones omitted, non-ASCII raw. */
export function jsonRecord(record: unknown): string {
  return JSON.stringify(record);
}

export function jsonArray(renderedRecords: readonly string[]): string {
  return `[${renderedRecords.join(",")}]`;
}
