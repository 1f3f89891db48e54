import { pageBounds } from "./paging.ts";
import type { Format } from "./query.ts";

/**
 * Builds a page of any size from the canonical pages that hold its records, byte-identical to the
 * page the generator would have written: JSON pages are `JSON.stringify` of the record array, CSV
 * pages a header line plus one CRLF-terminated line per record.
 *
 * `sources` are the consecutive canonical page bodies starting at canonical page `firstPage`.
 */
export function slicePage(
  format: Format,
  sources: readonly string[],
  firstPage: number,
  canonicalSize: number,
  page: number,
  pageSize: number,
  total: number,
): string {
  const { start, end } = pageBounds(page, pageSize, total);
  const offset = (firstPage - 1) * canonicalSize;
  const whole = sources[0];
  if (sources.length === 1 && whole !== undefined && start === offset && end === Math.min(offset + canonicalSize, total)) return whole;
  if (format === "json") {
    const records = sources.flatMap((body) => JSON.parse(body) as unknown[]);
    return JSON.stringify(records.slice(start - offset, end - offset));
  }
  let header = "";
  const rows: string[] = [];
  for (const body of sources) {
    const split = splitCsv(body);
    header = split.header;
    rows.push(...split.rows);
  }
  return header + rows.slice(start - offset, end - offset).join("");
}

/** Splits a CSV body into its header line and its records, each with its CRLF. */
export function splitCsv(body: string): { header: string; rows: string[] } {
  const lines: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body.charCodeAt(i);
    if (ch === 34 /* " */) quoted = !quoted;
    else if (!quoted && ch === 10 /* \n */) {
      lines.push(body.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < body.length) lines.push(body.slice(start));
  return { header: lines[0] ?? "", rows: lines.slice(1) };
}

/** The canonical pages (1-based, inclusive) that hold a page's records; none past the end. */
export function canonicalPagesFor(page: number, pageSize: number, total: number, canonicalSize: number): { first: number; last: number } | undefined {
  const { start, end } = pageBounds(page, pageSize, total);
  if (start >= end) return undefined;
  return { first: Math.floor(start / canonicalSize) + 1, last: Math.floor((end - 1) / canonicalSize) + 1 };
}
