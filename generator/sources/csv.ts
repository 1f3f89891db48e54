import { parseString } from "fast-csv";
import { SourceError } from "./errors.ts";

export interface CsvOptions {
  readonly delimiter?: string;
  /** The exact header row the file must start with; `undefined` for a file without header. */
  readonly header: readonly string[] | undefined;
  /** Columns per row when there is no header. */
  readonly columns?: number;
  /** The quote character; `null` for formats without quoting (tab-separated registers). */
  readonly quote?: string | null;
}

/**
 * Parses CSV text with fast-csv and turns each row into a record with `toRecord` (which may throw a
 * SourceError for its line). Every defect fails with file and line:
 * a wrong header, a wrong column count, a field spanning lines, unbalanced quotes, no rows.
 * Rows before a defect are all single-line, so `line` is exact.
 */
export async function parseCsv<T>(text: string, file: string, options: CsvOptions, toRecord: (row: string[], line: number) => T): Promise<T[]> {
  // Rows become records as they arrive, so the raw field arrays of a national file never pile up.
  const rows: T[] = [];
  const width = options.header?.length ?? options.columns;
  const firstLine = options.header === undefined ? 1 : 2;
  let headerSeen = options.header === undefined;
  let failure: SourceError | undefined;
  await new Promise<void>((resolve) => {
    const stream = parseString<string[], string[]>(text, { headers: false, delimiter: options.delimiter ?? ",", ...(options.quote === undefined ? {} : { quote: options.quote }) });
    const fail = (error: SourceError) => {
      failure ??= error;
      stream.destroy();
      resolve();
    };
    stream
      .on("error", (error: Error) => fail(new SourceError(file, firstLine + rows.length, `malformed CSV (${error.message.replace(/ in line: .*| at '.*/s, "")})`)))
      .on("data", (row: string[]) => {
        if (failure !== undefined) return;
        if (!headerSeen) {
          headerSeen = true;
          const expected = options.header?.join(options.delimiter ?? ",") ?? "";
          if (row.join(options.delimiter ?? ",") !== expected) fail(new SourceError(file, 1, `expected the header '${expected}', found '${row.join(options.delimiter ?? ",")}'`));
          return;
        }
        const line = firstLine + rows.length;
        if (width !== undefined && row.length !== width) return fail(new SourceError(file, line, `expected ${width} columns, found ${row.length}`));
        if (row.some((field) => /[\r\n]/.test(field))) return fail(new SourceError(file, line, "a field spans lines"));
        if (row.some((field) => /[\u0000-\u001f\u007f]/.test(field))) return fail(new SourceError(file, line, "a field holds a control character"));
        try {
          rows.push(toRecord(row, line));
        } catch (error) {
          if (!(error instanceof SourceError)) throw error;
          fail(error);
        }
      })
      .on("end", () => resolve());
  });
  if (failure !== undefined) throw failure;
  if (!headerSeen) throw new SourceError(file, 1, "the file is empty");
  if (rows.length === 0) throw new SourceError(file, firstLine, "the file has no data rows");
  return rows;
}
