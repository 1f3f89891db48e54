import { SourceError } from "./errors.ts";

/**
 * Official keys (a commune's, municipality's, district's or canton's number) are unique in their
 * register: one given twice would make two records answer to one key (`/li/Communes` listing two
 * communes 7001). Each reader checks its keys as it reads them; a key given twice fails naming
 * both lines.
 */
export class UniqueKeys {
  private readonly lines = new Map<string, number>();

  /** `what`: the key's name in messages, e.g. "commune number (BFS)". */
  constructor(
    private readonly file: string,
    private readonly what: string,
  ) {}

  add(key: string, line: number): void {
    const first = this.lines.get(key);
    if (first !== undefined)
      throw new SourceError(
        this.file,
        line,
        `${this.what} ${key} is given twice, on line ${first} and on line ${line}`,
      );
    this.lines.set(key, line);
  }
}

/** The line each row of a register came from, for a key that two registers both give (read.ts). */
const linesOfRows = new WeakMap<object, number>();

/** `row`, remembered as read from `line`. */
export function fromLine<T extends object>(row: T, line: number): T {
  linesOfRows.set(row, line);
  return row;
}

/** The line `row` was read from, if its reader remembered it. */
export function lineOf(row: object): number | undefined {
  return linesOfRows.get(row);
}

/** A register's rows with the file they came from. */
export interface KeyedRows {
  readonly file: string;
  readonly rows: readonly { readonly key: string }[];
}

/** Fails when a key is in both registers (two records would answer to it), naming both lines. */
export function disjointKeys(what: string, first: KeyedRows, second: KeyedRows): void {
  const seen = new Map(first.rows.map((row) => [row.key, row]));
  for (const row of second.rows) {
    const twin = seen.get(row.key);
    if (twin === undefined) continue;
    throw new SourceError(
      second.file,
      lineOf(row),
      `${what} ${row.key} is given here and in ${first.file}${lineOf(twin) === undefined ? "" : ` on line ${lineOf(twin)}`}`,
    );
  }
}
