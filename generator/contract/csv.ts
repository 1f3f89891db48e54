/** RFC 4180: comma-separated, CRLF after every record, fields quoted when they hold `,` `"` CR or LF. */
export const CSV_NEWLINE = "\r\n";

/**
 * One CSV column: OpenPLZ's dotted header name (`Municipality.Key`) and the path of the JSON
 * property it holds (`["municipality", "key"]`). Plain data, so the Worker can render CSV rows of
 * records it holds as JSON.
 */
export interface CsvColumn {
  readonly header: string;
  readonly path: readonly string[];
}

const SPECIAL = /[",\r\n]/;

/**
 * What a spreadsheet reads as the start of a formula (OWASP's list: `=`, `+`, `-`, `@`, tab and
 * carriage return). The CSV downloads are meant to be opened in spreadsheets, and street names
 * come from OpenStreetMap, which anyone can edit: a name like `=HYPERLINK(…)` must stay text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field. A value a spreadsheet would take for a formula is written with a leading `'` (and
 * quoted), which spreadsheets show as the text itself; no value of the publishers' files starts
 * so, and the JSON keeps every value as it is. Every CSV the project writes, downloads and pages
 * alike, goes through here.
 */
export function csvField(value: string | undefined): string {
  if (value === undefined) return "";
  if (FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  return SPECIAL.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvHeader(columns: readonly CsvColumn[]): string {
  return columns.map((column) => csvField(column.header)).join(",") + CSV_NEWLINE;
}

/** A record's row: each column's value as text (`true`/`false` for booleans), empty when absent. */
export function csvRow(columns: readonly CsvColumn[], record: unknown): string {
  let row = "";
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) row += ",";
    row += csvField(textAt(record, (columns[i] as CsvColumn).path));
  }
  return row + CSV_NEWLINE;
}

function textAt(record: unknown, path: readonly string[]): string | undefined {
  let value = record;
  for (const name of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Readonly<Record<string, unknown>>)[name];
  }
  return value === undefined || value === null ? undefined : String(value);
}
