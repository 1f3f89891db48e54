import { parseString } from "fast-csv";
import { SourceError } from "./errors.ts";
import { fieldLengthCheck, LIST_FIELD_LIMIT } from "./field-limits.ts";

export interface CsvOptions {
  readonly delimiter?: string;
  /** The exact header row the file must start with; `undefined` for a file without header. */
  readonly header: readonly string[] | undefined;
  /** Columns per row when there is no header. */
  readonly columns?: number;
  /** The quote character; `null` for formats without quoting (tab-separated registers). */
  readonly quote?: string | null;
  /** Characters each column takes, by position; `FIELD_LIMIT` for a column not given. */
  readonly limits?: readonly number[];
  /**
   * Fail (a plain Error) where quoted lines do not read as one row each and the rest of the file
   * would be read as a whole instead: a part of a file read on its own (street-halves.ts) is
   * read again whole then.
   */
  readonly lineByLine?: boolean;
}

type Take = (row: string[], line: number) => void;

/**
 * Parses CSV text and turns each row into a record with `toRecord` (which may throw a SourceError
 * for its line). Every defect fails with file and line: a field over its length limit (found
 * before the line is split or parsed, field-limits.ts), a wrong header, a wrong column count, a
 * field spanning lines, unbalanced quotes, a control character, no rows.
 *
 * fast-csv reads every line that uses anything of the CSV grammar (a quote, a carriage return
 * inside, white space at the start of a field, a blank line); any other line is split at the
 * delimiter, which is exactly what fast-csv makes of it, only without its per-character scanner
 * (a national street list is 1.2 million lines, almost none of them quoted). A record is one line
 * (the readers refuse fields that span lines): where fast-csv does not read a line on its own as
 * one row, it reads the rest of the file as it would have from the start, and reports the defect.
 */
export async function parseCsv<T>(
  text: string,
  file: string,
  options: CsvOptions,
  toRecord: (row: string[], line: number) => T,
): Promise<T[]> {
  const delimiter = options.delimiter ?? ",";
  const quote = options.quote === undefined ? '"' : options.quote;
  const width = options.header?.length ?? options.columns;
  const records: T[] = [];
  let headerSeen = options.header === undefined;
  const take: Take = (row, line) => {
    if (!headerSeen) {
      headerSeen = true;
      const expected = options.header?.join(delimiter) ?? "";
      if (row.join(delimiter) !== expected)
        throw new SourceError(
          file,
          1,
          `expected the header '${expected}', found '${row.join(delimiter)}'`,
        );
      return;
    }
    if (width !== undefined && row.length !== width)
      throw new SourceError(file, line, `expected ${width} columns, found ${row.length}`);
    if (row.some((field) => /[\r\n]/.test(field)))
      throw new SourceError(file, line, "a field spans lines");
    if (row.some((field) => /[\u0000-\u001f\u007f]/.test(field)))
      throw new SourceError(file, line, "a field holds a control character");
    records.push(toRecord(row, line));
  };

  const grammar = grammarTest(delimiter, quote);
  const checkLengths = fieldLengthCheck(file, {
    delimiter,
    quote,
    ...(options.limits === undefined ? {} : { columns: options.limits }),
    ...(options.header === undefined ? {} : { names: options.header }),
  });
  const lines = text.split("\n");
  const terminated = lines.at(-1) === "";
  if (terminated) lines.pop(); // the last line's end
  let batch: number[] = [];
  /** Reads the batch of grammar lines; true when it had to read the rest of the file instead. */
  const flush = async (): Promise<boolean> => {
    const pending = batch;
    batch = [];
    if (pending.length === 0) return false;
    // The file's last line without a line end is read as fast-csv reads it at the end of a file.
    const end = pending.at(-1) === lines.length - 1 && !terminated ? "" : "\n";
    if (await readLines(lines, pending, end, { file, delimiter, quote }, take)) return false;
    if (options.lineByLine === true) throw new Error(`${file}: a row is not read line by line`);
    if (quote !== null) checkOpenQuote(lines, pending[0] ?? 0, quote, file);
    await readRest(lines, pending[0] ?? 0, terminated, { file, delimiter, quote }, take);
    return true;
  };
  let rest = false;
  for (let i = 0; i < lines.length && !rest; i++) {
    const line = lines[i] ?? "";
    const body = line.endsWith("\r") ? line.slice(0, -1) : line;
    checkLengths(body, i + 1);
    if (grammar(body)) batch.push(i);
    else {
      rest = await flush();
      if (!rest) take(body.split(delimiter), i + 1);
    }
  }
  if (!rest) await flush();
  if (!headerSeen) throw new SourceError(file, 1, "the file is empty");
  if (records.length === 0)
    throw new SourceError(file, options.header === undefined ? 1 : 2, "the file has no data rows");
  return records;
}

/** Whether a line needs fast-csv: a quote, a carriage return inside, white space at a field's start (fast-csv drops it before a delimiter), or nothing at all. */
function grammarTest(delimiter: string, quote: string | null): (line: string) => boolean {
  const leadingSpace = new RegExp(`(^|${delimiter.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})\\s`);
  return (line) =>
    line === "" ||
    (quote !== null && line.includes(quote)) ||
    line.includes("\r") ||
    leadingSpace.test(line);
}

interface Grammar {
  readonly file: string;
  readonly delimiter: string;
  readonly quote: string | null;
}

/** Lines read by fast-csv together; false when they are not one row each (a quote left open): nothing is taken then. */
async function readLines(
  lines: readonly string[],
  indices: readonly number[],
  end: string,
  grammar: Grammar,
  take: Take,
): Promise<boolean> {
  const rows: string[][] = [];
  const error = await fastCsv(
    `${indices.map((i) => lines[i]).join("\n")}${end}`,
    grammar,
    (row) => {
      rows.push(row);
      return true;
    },
  );
  if (error !== undefined || rows.length !== indices.length) return false;
  rows.forEach((row, i) => take(row, (indices[i] ?? 0) + 1));
  return true;
}

/** The lines from `from` on, read by fast-csv as one text, as it reads a whole file; a defect names the line of the row it is in. */
async function readRest(
  lines: readonly string[],
  from: number,
  terminated: boolean,
  grammar: Grammar,
  take: Take,
): Promise<void> {
  let parsed = 0;
  let failure: unknown;
  const error = await fastCsv(
    `${lines.slice(from).join("\n")}${terminated ? "\n" : ""}`,
    grammar,
    (row) => {
      try {
        take(row, from + parsed + 1);
        parsed++;
        return true;
      } catch (thrown) {
        failure = thrown;
        return false;
      }
    },
  );
  if (failure !== undefined) throw failure;
  if (error !== undefined)
    throw new SourceError(
      grammar.file,
      from + parsed + 1,
      `malformed CSV (${error.message.replace(/ in line: .*| at '.*/s, "")})`,
    );
}

/** Runs fast-csv over `text`, row by row while `onRow` says to go on; resolves with its parse error, if any. */
function fastCsv(
  text: string,
  { delimiter, quote }: Grammar,
  onRow: (row: string[]) => boolean,
): Promise<Error | undefined> {
  return new Promise((resolve) => {
    const stream = parseString<string[], string[]>(text, {
      headers: false,
      delimiter,
      ...(quote === null ? { quote: null } : { quote }),
    });
    stream
      .on("error", (error: Error) => resolve(error))
      .on("data", (row: string[]) => {
        if (!onRow(row)) {
          stream.destroy();
          resolve(undefined);
        }
      })
      .on("end", () => resolve(undefined));
  });
}

/**
 * Before the rest of the file is read as one text (from line index `from`): a quote left open at
 * the end of a line must close within `LIST_FIELD_LIMIT` characters, else fast-csv would gather
 * the rest of the file into one field before it reported the defect.
 */
function checkOpenQuote(lines: readonly string[], from: number, quote: string, file: string): void {
  let open = -1;
  let spanned = 0;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? "";
    let quotes = 0;
    for (let at = line.indexOf(quote); at !== -1; at = line.indexOf(quote, at + 1)) quotes++;
    if (open !== -1) spanned += line.length + 1;
    if (quotes % 2 === 1) [open, spanned] = [open === -1 ? i : -1, 0];
    if (open !== -1 && spanned > LIST_FIELD_LIMIT)
      throw new SourceError(
        file,
        open + 1,
        `a quoted field is not closed within ${LIST_FIELD_LIMIT.toLocaleString("en-US")} characters (a field spans lines)`,
      );
  }
}
