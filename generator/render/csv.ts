import type { Column } from "../resources/resource.ts";

/** RFC 4180: comma-separated, CRLF after every record, fields quoted when they hold `,` `"` CR or LF. */
export const CSV_NEWLINE = "\r\n";

export function csvField(value: string | undefined): string {
  if (value === undefined) return "";
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvHeader(columns: readonly Column<never>[]): string {
  return columns.map((column) => csvField(column.header)).join(",") + CSV_NEWLINE;
}

export function csvRow<R>(columns: readonly Column<R>[], record: R): string {
  return columns.map((column) => csvField(column.value(record))).join(",") + CSV_NEWLINE;
}
