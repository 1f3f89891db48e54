/**
 * The match table of a resource with pattern filters (`…/Localities`): for each filter, the
 * distinct values and each record's value as an index into them, records in API order (the order
 * of the resource's one view, `ALL_SLUG`). The build encodes it, the Worker decodes it once per
 * isolate and tests each distinct value at most once per request.
 *
 * Binary, so that a new isolate's first request decodes only the columns it filters on: a
 * little-endian u32 (the header's length), the header (UTF-8 JSON), then the sections it points
 * to, each at a multiple of 4 from the start of the file:
 *
 *   {"records":n,"columns":{"postalCode":{"count":n,"values":[at,bytes],"starts":at,"rows":at,
 *    "alphabet":[[48,57]],"shortest":4,"longest":5},"name":{"count":n,"values":[…],"starts":at,
 *    "folded":[…],"foldedStarts":at,"rows":at,"alphabet":[…],…}}}
 *
 * `values` (and `folded`) are the distinct values as UTF-8, each after a newline and the last also
 * before one (`\nA\nB\n`; no value holds one): decoded, that is the text every search runs over,
 * anchored ones included, with no copy; `starts` (`foldedStarts`) where each value begins in
 * that text (UTF-16 offsets, little-endian u32, one more than `count`: the text's length last), so
 * that the Worker need not look for every newline; `rows` one little-endian u16 per record, its value's index. `alphabet` is the set of
 * characters the column's values use, as ranges: a pattern's classes are cut down to it
 * (regex/alphabet.ts), which leaves every verdict as it is and makes the engine's classes small.
 * `shortest` and `longest` are its values' lengths in characters: with the alphabet they tell a
 * pattern that matches every value (regex/universal.ts), which is then not tested.
 *
 * A column matched ignoring case also holds its values case-folded (search/filter.ts caseFoldKey),
 * for the literals every match must contain (regex/literals.ts): a value without them is never
 * handed to the engine. The Worker keeps each joined text as one string (regex/joined.ts) and
 * searches it for those literals, or for all of a pattern made only of strings (regex/exact.ts).
 */
import { sectionsAt, type WireColumn } from "./match-table-encode.ts";
import type { Range } from "./regex/ast.ts";
import type { ExactLiterals } from "./regex/exact.ts";
import { exactlyMatching, JoinedValues, satisfying } from "./regex/joined.ts";
import type { LiteralQuery } from "./regex/literals.ts";

export interface MatchColumn {
  readonly values: readonly string[];
  /** The values case-folded, for a column matched ignoring case. */
  readonly folded: readonly string[] | undefined;
  /** The same, as the file holds them: one string each (the Worker cuts out only what it tests). */
  readonly joined: JoinedValues;
  readonly foldedJoined: JoinedValues | undefined;
  /** Whether the column holds its values case-folded (without decoding them). */
  readonly foldable: boolean;
  /** Per record, the index of its value in `values`. */
  readonly rows: ArrayLike<number>;
  /** The characters the values use. */
  readonly alphabet: readonly Range[];
  /** The shortest and longest value, in characters. */
  readonly shortest: number;
  readonly longest: number;
}

export interface MatchTable {
  readonly records: number;
  readonly columns: ReadonlyMap<string, MatchColumn>;
}

/** A filter as the matcher applies it: the column it tests and the test. */
export interface ColumnTest {
  readonly param: string;
  readonly test: (value: string) => boolean;
  /** `test` for the value at [from, to) of the column's joined text, when the engine can (no string cut out). */
  readonly testIn?: (text: string, from: number, to: number) => boolean;
  /**
   * What every matching value contains, a cheap test first: case-folded literals (`~*`) apply to a
   * column's folded values and are not used on a column without them; exact ones to its values.
   */
  readonly literals?: { readonly query: LiteralQuery; readonly folded: boolean };
  /**
   * The pattern is only these strings (regex/exact.ts), folded as `literals` says: searching for
   * them decides every value, and `test` is not called.
   */
  readonly exact?: ExactLiterals;
}

export function decodeMatchTable(bytes: Uint8Array): MatchTable {
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const wire = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as {
    records: number;
    columns: Record<string, WireColumn>;
  };
  const body = bytes.subarray(sectionsAt(length));
  return {
    records: wire.records,
    columns: new Map(
      Object.entries(wire.columns).map(([param, c]) => [
        param,
        new LazyColumn(body, c, wire.records),
      ]),
    ),
  };
}

const UNKNOWN = 0;
const YES = 1;
const NO = 2;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * `length` little-endian integers at `at`: read in place on a little-endian machine when aligned
 * (sections start at multiples of 4), else copied. The u32 starts (text offsets, far below 2^31)
 * are read as an Int32Array, the type the search kernels (`gallop`) take.
 */
function littleEndian<T extends Uint16Array | Int32Array>(
  Type: { new (buffer: ArrayBufferLike, at: number, length: number): T; new (length: number): T },
  size: 2 | 4,
  body: Uint8Array,
  at: number,
  length: number,
): T {
  if (LITTLE_ENDIAN && (body.byteOffset + at) % size === 0)
    return new Type(body.buffer, body.byteOffset + at, length);
  const copy = new Type(length);
  for (let i = 0; i < length; i++)
    for (let b = 0; b < size; b++)
      copy[i] = (copy[i] ?? 0) + (body[at + i * size + b] ?? 0) * 256 ** b;
  return copy;
}

/** A column decoded on first use: a request reads only the columns it filters on. */
class LazyColumn implements MatchColumn {
  #joined: JoinedValues | undefined;
  #foldedJoined: JoinedValues | undefined;
  #values: string[] | undefined;
  #folded: string[] | undefined;
  #rows: Uint16Array | undefined;
  constructor(
    private readonly body: Uint8Array,
    private readonly wire: WireColumn,
    private readonly records: number,
  ) {}
  get joined(): JoinedValues {
    return (this.#joined ??= this.text(this.wire.values, this.wire.starts));
  }
  get foldable(): boolean {
    return this.wire.folded !== undefined;
  }
  get foldedJoined(): JoinedValues | undefined {
    const { folded, foldedStarts } = this.wire;
    return folded === undefined || foldedStarts === undefined
      ? undefined
      : (this.#foldedJoined ??= this.text(folded, foldedStarts));
  }
  get values(): readonly string[] {
    return (this.#values ??= this.joined.all());
  }
  get folded(): readonly string[] | undefined {
    return this.wire.folded === undefined ? undefined : (this.#folded ??= this.foldedJoined?.all());
  }
  get rows(): ArrayLike<number> {
    return (this.#rows ??= littleEndian(Uint16Array, 2, this.body, this.wire.rows, this.records));
  }
  get alphabet(): readonly Range[] {
    return this.wire.alphabet;
  }
  get shortest(): number {
    return this.wire.shortest;
  }
  get longest(): number {
    return this.wire.longest;
  }
  // A column of records all empty is one empty value, not none: "\n\n".
  private text([at, bytes]: readonly [number, number], startsAt: number): JoinedValues {
    const { body } = this;
    const starts = littleEndian(Int32Array, 4, body, startsAt, this.wire.count + 1);
    return new JoinedValues(new TextDecoder().decode(body.subarray(at, at + bytes)), starts);
  }
}

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
    // A column's text is decoded only when searched or tested (exact strings search the folded
    // values; a pattern without literals, the plain ones for the engine).
    const searched =
      test.exact !== undefined || (literals !== undefined && literals.query.op !== "all");
    const keys = !searched
      ? undefined
      : literals?.folded === true
        ? column.foldedJoined
        : column.joined;
    const verdicts = new Uint8Array((keys ?? column.joined).count);
    if (test.exact !== undefined && keys !== undefined) {
      const found = exactlyMatching(test.exact, keys);
      for (let i = 0; i < verdicts.length; i++) verdicts[i] = found[i] === 1 ? YES : NO;
    } else if (literals !== undefined && keys !== undefined) {
      // The values without the literals are known before any is tested: they start out as NO.
      const satisfied = satisfying(literals.query, keys);
      if (satisfied !== undefined)
        for (let i = 0; i < verdicts.length; i++) if (satisfied[i] === 0) verdicts[i] = NO;
    }
    return { column, rows: column.rows, test: test.test, testIn: test.testIn, verdicts };
  });
  // Test by test, each over the records the earlier ones accepted: one plain loop over the rows.
  let records: number[] | undefined;
  for (const { column, rows, test, testIn, verdicts } of checks) {
    const accepted: number[] = [];
    const count = records === undefined ? table.records : records.length;
    const { text, starts } = column.joined;
    for (let k = 0; k < count; k++) {
      const record = records === undefined ? k : (records[k] ?? 0);
      const value = rows[record] ?? 0;
      let verdict = verdicts[value] ?? UNKNOWN;
      if (verdict === UNKNOWN) {
        const matches =
          testIn === undefined
            ? test(column.joined.at(value))
            : testIn(text, starts[value] ?? 0, (starts[value + 1] ?? 1) - 1);
        verdicts[value] = verdict = matches ? YES : NO;
      }
      if (verdict === YES) accepted.push(record);
    }
    records = accepted;
  }
  return records ?? Array.from({ length: table.records }, (_, record) => record);
}
