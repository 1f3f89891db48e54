import { pageBounds } from "./paging.ts";
import type { Format } from "./query.ts";

/**
 * A page's bytes from its records' rendered rows, the one way pages are made: the build writes
 * page files with it, and the Worker serves inlined and cut pages with it, so both are identical.
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

/**
 * Cuts a page of any size out of the canonical pages that hold its records (`bodies`, consecutive
 * canonical pages starting at `firstPage`), byte-identical to the page file of that size.
 */
export function cutPage(format: Format, bodies: readonly string[], firstPage: number, canonicalSize: number, page: number, pageSize: number, total: number): string {
  const { start, end } = pageBounds(page, pageSize, total);
  const offset = (firstPage - 1) * canonicalSize;
  const whole = bodies[0];
  if (bodies.length === 1 && whole !== undefined && start === offset && end === Math.min(offset + canonicalSize, total)) return whole;
  if (format === "json") {
    const records = bodies.flatMap((body) => JSON.parse(body) as unknown[]);
    return renderPage(format, "", records.slice(start - offset, end - offset).map(jsonRecord));
  }
  const split = bodies.map(splitCsv);
  return renderPage(format, split[0]?.header ?? "", split.flatMap((body) => body.rows).slice(start - offset, end - offset));
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
