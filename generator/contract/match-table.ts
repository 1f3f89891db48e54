/**
 * The match table of a resource with pattern filters (`…/Localities`): for each filter, the
 * distinct values and each record's value as an index into them, records in API order (the order
 * of the resource's one view, `ALL_SLUG`). The build encodes it, the Worker decodes it once per
 * isolate and tests each distinct value at most once per request.
 *
 *   {"records":n,"columns":{"postalCode":{"values":["01067",…],"rows":[0,0,1,…]},"name":{…,"folded":[…]}}}
 *
 * A column matched ignoring case also holds its values case-folded (search/filter.ts caseFoldKey),
 * for the literals every match must contain (regex/literals.ts): a value without them is never
 * handed to the engine.
 */
import { satisfies, type LiteralQuery } from "./regex/literals.ts";

export interface MatchColumn {
  readonly values: readonly string[];
  /** The values case-folded, for a column matched ignoring case. */
  readonly folded?: readonly string[];
  /** Per record, the index of its value in `values`. */
  readonly rows: readonly number[];
}

export interface MatchTable {
  readonly records: number;
  readonly columns: ReadonlyMap<string, MatchColumn>;
}

/** A filter as the matcher applies it: the column it tests and the test. */
export interface ColumnTest {
  readonly param: string;
  readonly test: (value: string) => boolean;
  /**
   * What every matching value contains, a cheap test first: case-folded literals (`~*`) apply to a
   * column's folded values and are not used on a column without them; exact ones to its values.
   */
  readonly literals?: { readonly query: LiteralQuery; readonly folded: boolean };
}

/** The table of records whose values are given per column, in record order. */
export function encodeMatchTable(
  records: number,
  columns: readonly {
    readonly param: string;
    readonly valueOf: (record: number) => string;
    readonly fold?: (value: string) => string;
  }[],
): string {
  const encoded: Record<string, MatchColumn> = {};
  for (const { param, valueOf, fold } of columns) {
    const index = new Map<string, number>();
    const rows = Array.from({ length: records }, (_, record) => {
      const value = valueOf(record);
      let at = index.get(value);
      if (at === undefined) index.set(value, (at = index.size));
      return at;
    });
    const values = [...index.keys()];
    encoded[param] =
      fold === undefined ? { values, rows } : { values, rows, folded: values.map(fold) };
  }
  return JSON.stringify({ records, columns: encoded });
}

export function decodeMatchTable(text: string): MatchTable {
  const wire = JSON.parse(text) as { records: number; columns: Record<string, MatchColumn> };
  return { records: wire.records, columns: new Map(Object.entries(wire.columns)) };
}

const UNKNOWN = 0;
const YES = 1;
const NO = 2;

/**
 * The positions of the records every test accepts, in record order. Each distinct value is tested
 * at most once, and only when a record that passed the earlier tests has it.
 */
export function matchRecords(table: MatchTable, tests: readonly ColumnTest[]): number[] {
  const checks = tests.map((test) => {
    const { param } = test;
    const column = table.columns.get(param);
    if (column === undefined) throw new Error(`the match table has no column ${param}`);
    const literals = test.literals;
    const keys = literals?.folded === true ? column.folded : column.values;
    const query = literals?.query;
    const check =
      query === undefined || query.op === "all" || keys === undefined
        ? test.test
        : (value: string, at: number) => satisfies(query, keys[at] ?? "") && test.test(value);
    return { column, check, verdicts: new Uint8Array(column.values.length) };
  });
  const matched: number[] = [];
  for (let record = 0; record < table.records; record++) {
    let accepted = true;
    for (const { column, check, verdicts } of checks) {
      const value = column.rows[record] ?? 0;
      let verdict = verdicts[value] ?? UNKNOWN;
      if (verdict === UNKNOWN)
        verdicts[value] = verdict = check(column.values[value] ?? "", value) ? YES : NO;
      if (verdict === NO) {
        accepted = false;
        break;
      }
    }
    if (accepted) matched.push(record);
  }
  return matched;
}
