/**
 * The match table of a resource with pattern filters (`…/Localities`): for each filter, the
 * distinct values and each record's value as an index into them, records in API order (the order
 * of the resource's one view, `ALL_SLUG`). The build encodes it, the Worker decodes it once per
 * isolate and tests each distinct value at most once per request.
 *
 *   {"records":n,"columns":{"postalCode":{"values":"01067\n01069…","rows":"ĀĀā…","alphabet":[[48,57]]},
 *    "name":{…,"folded":"…"}}}
 *
 * Every list is one JSON string, so that a new isolate's first request parses a few long strings
 * instead of thousands of array items, and splits only the columns it filters on: `values` (and
 * `folded`) joined with newlines (no value holds one), `rows` one UTF-16 code unit per record, its
 * value's index plus ROW_OFFSET (below the surrogates, never escaped by JSON). `alphabet` is the
 * set of characters the column's values use, as ranges: a pattern's classes are cut down to it
 * (regex/alphabet.ts), which leaves every verdict as it is and makes the engine's classes small.
 *
 * A column matched ignoring case also holds its values case-folded (search/filter.ts caseFoldKey),
 * for the literals every match must contain (regex/literals.ts): a value without them is never
 * handed to the engine.
 */
import type { Range } from "./regex/ast.ts";
import { alphabetOf } from "./regex/alphabet.ts";
import { satisfies, type LiteralQuery } from "./regex/literals.ts";

const ROW_OFFSET = 0x100;
/** Most distinct values a column can hold: the indices stay below the surrogates. */
export const MAX_MATCH_VALUES = 0xd800 - ROW_OFFSET;

export interface MatchColumn {
  readonly values: readonly string[];
  /** The values case-folded, for a column matched ignoring case. */
  readonly folded: readonly string[] | undefined;
  /** Per record, the index of its value in `values`. */
  readonly rows: ArrayLike<number>;
  /** The characters the values use. */
  readonly alphabet: readonly Range[];
}

export interface MatchTable {
  readonly records: number;
  readonly columns: ReadonlyMap<string, MatchColumn>;
}

interface WireColumn {
  readonly values: string;
  readonly folded?: string;
  readonly rows: string;
  readonly alphabet: Range[];
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
  const encoded: Record<string, WireColumn> = {};
  for (const { param, valueOf, fold } of columns) {
    const index = new Map<string, number>();
    let rows = "";
    for (let record = 0; record < records; record++) {
      const value = valueOf(record);
      if (value.includes("\n")) throw new Error(`a ${param} holds a newline: ${value}`);
      let at = index.get(value);
      if (at === undefined) index.set(value, (at = index.size));
      if (at >= MAX_MATCH_VALUES) throw new Error(`more than ${MAX_MATCH_VALUES} ${param} values`);
      rows += String.fromCharCode(at + ROW_OFFSET);
    }
    const values = [...index.keys()];
    const alphabet = alphabetOf(values);
    encoded[param] =
      fold === undefined
        ? { values: values.join("\n"), rows, alphabet }
        : { values: values.join("\n"), folded: values.map(fold).join("\n"), rows, alphabet };
  }
  return JSON.stringify({ records, columns: encoded });
}

export function decodeMatchTable(text: string): MatchTable {
  const wire = JSON.parse(text) as { records: number; columns: Record<string, WireColumn> };
  return {
    records: wire.records,
    columns: new Map(Object.entries(wire.columns).map(([param, c]) => [param, new LazyColumn(c)])),
  };
}

/** A column split on first use: a request reads only the columns it filters on. */
class LazyColumn implements MatchColumn {
  #values: string[] | undefined;
  #folded: string[] | undefined;
  #rows: Uint16Array | undefined;
  constructor(private readonly wire: WireColumn) {}
  get values(): readonly string[] {
    return (this.#values ??= splitValues(this.wire.values));
  }
  get folded(): readonly string[] | undefined {
    const folded = this.wire.folded;
    return folded === undefined ? undefined : (this.#folded ??= splitValues(folded));
  }
  get rows(): ArrayLike<number> {
    if (this.#rows === undefined) {
      const text = this.wire.rows;
      const rows = new Uint16Array(text.length);
      for (let i = 0; i < text.length; i++) rows[i] = text.charCodeAt(i) - ROW_OFFSET;
      this.#rows = rows;
    }
    return this.#rows;
  }
  get alphabet(): readonly Range[] {
    return this.wire.alphabet;
  }
}

/** The joined values; a column of records all empty is one empty value, not none. */
const splitValues = (joined: string): string[] => joined.split("\n");

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
    const query = literals?.query;
    const keys =
      query === undefined || query.op === "all"
        ? undefined
        : literals?.folded === true
          ? column.folded
          : column.values;
    const check =
      query === undefined || keys === undefined
        ? test.test
        : (value: string, at: number) => satisfies(query, keys[at] ?? "") && test.test(value);
    return {
      values: column.values,
      rows: column.rows,
      check,
      verdicts: new Uint8Array(column.values.length),
    };
  });
  const matched: number[] = [];
  for (let record = 0; record < table.records; record++) {
    let accepted = true;
    for (const { values, rows, check, verdicts } of checks) {
      const value = rows[record] ?? 0;
      let verdict = verdicts[value] ?? UNKNOWN;
      if (verdict === UNKNOWN)
        verdicts[value] = verdict = check(values[value] ?? "", value) ? YES : NO;
      if (verdict === NO) {
        accepted = false;
        break;
      }
    }
    if (accepted) matched.push(record);
  }
  return matched;
}
