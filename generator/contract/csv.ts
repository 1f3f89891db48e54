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

/**
 * The one CSV reader of the project's own output (and of source lines in the same dialect): cuts
 * `text` just after each `separator` that lies outside double quotes, so the pieces keep their
 * separators and join back to `text`. With "\n" the pieces are records with their line ends
 * (a field may hold a line break); with "," the fields of one record with their commas. The last
 * piece is whatever follows the last cut ("" when `text` ends with a separator). A doubled quote
 * inside a quoted field toggles twice, so it needs no case of its own.
 */
export function cutOutsideQuotes(text: string, separator: "," | "\n"): string[] {
  const code = separator.charCodeAt(0);
  const pieces: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quoted = !quoted;
    else if (c === code && !quoted) {
      pieces.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** One record's values (its CRLF or LF, if any, dropped): quotes removed, doubled quotes made single. */
export function parseCsvLine(line: string): string[] {
  const record = line.endsWith("\n") ? line.slice(0, line.endsWith("\r\n") ? -2 : -1) : line;
  return cutOutsideQuotes(record, ",").map((piece) => {
    const field = piece.endsWith(",") ? piece.slice(0, -1) : piece;
    return field.length >= 2 && field.startsWith('"') && field.endsWith('"')
      ? field.slice(1, -1).replaceAll('""', '"')
      : field;
  });
}

/** Every record of a CSV text as its values; nothing after the last line end is no record. */
export function parseCsvRows(text: string): string[][] {
  const records = cutOutsideQuotes(text, "\n");
  if (records.at(-1) === "") records.pop();
  return records.map(parseCsvLine);
}
