import { csvRow, type CsvColumn } from "../contract/csv.ts";
import { jsonRecord } from "../contract/page.ts";
import { headCsv, headJson } from "../contract/search/store.ts";
import { isSearchedStreets } from "../contract/routes.ts";
import type { AnyResource } from "../resources/resource.ts";
import { encodeRecords, type EncodedRecords } from "./encode.ts";

/**
 * Renders and encodes a view's records (views.ts `PreparedView.encoded`); `transient`: the bytes may
 * be the encoder's own buffers, valid until its next call (`PreparedView.encodedOnce`).
 */
export type RecordEncoder = (records: readonly unknown[], transient?: boolean) => EncodedRecords;

/**
 * How a resource's views are rendered and encoded: a Streets resource's records from their heads
 * and shared tails (`streetEncoder`), any other's one by one; the same bytes either way.
 */
export function encoderOf(resource: AnyResource): RecordEncoder {
  const streets = isSearchedStreets(resource) ? streetEncoder(resource) : undefined;
  if (streets !== undefined) return streets;
  const columns = resource.record.columns;
  return (records) =>
    encodeRecords({
      json: records.map(jsonRecord),
      csv: records.map((record) => csvRow(columns, record)),
    });
}

/**
 * A street's head: the properties of the resource's leading CSV columns up to the name (the search
 * index's head table, search-records.ts, and the part of a record rendered per street here); undefined
 * when a column up to the name reads a nested property, or there is no name column.
 */
export function headKeysOf(resource: AnyResource): string[] | undefined {
  const columns = resource.record.columns;
  const nameAt = columns.findIndex((c) => c.path.length === 1 && c.path[0] === "name");
  const head = columns.slice(0, nameAt + 1);
  return nameAt < 0 || head.some((c) => c.path.length !== 1)
    ? undefined
    : head.map((c) => c.path[0] ?? "");
}

/**
 * A street's record is its head (the plain properties up to the name, as the search index splits
 * it: search-records.ts) and its tail (postal code, locality and the municipality, district and
 * state objects the model shares). A view's streets share few tails (one locality's postal codes
 * and boroughs), so each tail is rendered once per view, in both formats, and every street is
 * encoded as its own head followed by its tail's bytes: the bytes `jsonRecord` and `csvRow` give,
 * without rendering the same municipality, district and state again for each of a national list's
 * 1.2 million streets.
 *
 * Two streets share a tail when they have the same properties in the same order, the head's first,
 * with string values there and the same values (nested objects: the same object) after. Each tail is
 * rendered in full from its first street and checked to start with that street's head; a street
 * that fits none of this is rendered in full. Undefined for a resource whose CSV columns do not start
 * with the head's (its records are rendered in full).
 */
export function streetEncoder(resource: AnyResource): RecordEncoder | undefined {
  const columns = resource.record.columns;
  const headKeys = headKeysOf(resource);
  if (headKeys === undefined) return undefined;
  // A tail column must read the tail alone; nor may the head be all the columns.
  const tailColumns = columns.slice(headKeys.length);
  if (tailColumns.length === 0) return undefined;
  if (tailColumns.some((c) => headKeys.includes(c.path[0] ?? ""))) return undefined;
  return (records, transient) => encodeStreets(records, headKeys, columns, transient === true);
}

/** One tail: its first street, that street's properties, and the tail's bytes in both formats. */
interface Tail {
  readonly street: Readonly<Record<string, unknown>>;
  readonly keys: readonly string[];
  readonly json: Buffer;
  readonly csv: Buffer;
}

function encodeStreets(
  records: readonly unknown[],
  headKeys: readonly string[],
  columns: readonly CsvColumn[],
  transient: boolean,
): EncodedRecords {
  const count = records.length;
  const jsonOffsets = new Float64Array(count + 1);
  const csvOffsets = new Float64Array(count + 1);
  const json = new Scratch(SCRATCH.json);
  const csv = new Scratch(SCRATCH.csv);
  /** A view's tails, by postal code (a view is mostly one locality). */
  const tails = new Map<unknown, Tail[]>();
  const values = new Array<string>(headKeys.length);
  for (let i = 0; i < count; i++) {
    const street = records[i] as Readonly<Record<string, unknown>>;
    const keys = Object.keys(street);
    let tail: Tail | undefined;
    let jsonHead = "";
    let csvHead = "";
    if (headOf(street, keys, headKeys, values)) {
      // As the Worker renders a head (the CSV's with its comma), and the tail after it.
      jsonHead = headJson(headKeys, values);
      csvHead = headCsv(values);
      tail = tailFor(street, keys, headKeys.length, tails, jsonHead, csvHead, columns);
    }
    if (tail === undefined) {
      json.text(jsonRecord(street));
      csv.text(csvRow(columns, street));
    } else {
      json.text(jsonHead);
      json.bytes(tail.json);
      csv.text(csvHead);
      csv.bytes(tail.csv);
    }
    // A JSON record is followed by its comma (see `encodeRecords`).
    json.comma();
    jsonOffsets[i + 1] = json.length;
    csvOffsets[i + 1] = csv.length;
  }
  SCRATCH.json = json.buffer;
  SCRATCH.csv = csv.buffer;
  return {
    count,
    bytes: transient
      ? { json: json.buffer.subarray(0, json.length), csv: csv.buffer.subarray(0, csv.length) }
      : { json: json.copy(), csv: csv.copy() },
    offsets: { json: jsonOffsets, csv: csvOffsets },
  };
}

/** The buffers a view is encoded in, kept from view to view (grown as needed). */
const SCRATCH: { json: Buffer; csv: Buffer } = {
  json: Buffer.allocUnsafeSlow(1 << 20),
  csv: Buffer.allocUnsafeSlow(1 << 20),
};

/** Bytes appended to a buffer that grows as needed; `copy` gives them in a buffer of their own. */
class Scratch {
  length = 0;

  constructor(public buffer: Buffer) {}

  text(value: string): void {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    this.reserve(value.length * 3);
    this.length += this.buffer.write(value, this.length);
  }

  bytes(value: Uint8Array): void {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  comma(): void {
    this.reserve(1);
    this.buffer[this.length++] = 0x2c;
  }

  copy(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    this.buffer.copy(out, 0, 0, this.length);
    return out;
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** Whether the street's properties start with the head's, each a string (then in `values`). */
function headOf(
  street: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  headKeys: readonly string[],
  values: string[],
): boolean {
  if (keys.length <= headKeys.length) return false;
  for (let k = 0; k < headKeys.length; k++) {
    const key = headKeys[k] as string;
    const value = street[key];
    if (keys[k] !== key || typeof value !== "string") return false;
    values[k] = value;
  }
  return true;
}

/** The street's tail: one seen before, or a new one rendered from it; undefined when its render does not split at the head. */
function tailFor(
  street: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  headLength: number,
  tails: Map<unknown, Tail[]>,
  jsonHead: string,
  csvHead: string,
  columns: readonly CsvColumn[],
): Tail | undefined {
  let seen = tails.get(street.postalCode);
  if (seen === undefined) tails.set(street.postalCode, (seen = []));
  for (const tail of seen) if (sameTail(tail, street, keys, headLength)) return tail;
  const json = jsonRecord(street);
  const csv = csvRow(columns, street);
  if (!json.startsWith(jsonHead) || !csv.startsWith(csvHead)) return undefined;
  const tail: Tail = {
    street,
    keys,
    json: Buffer.from(json.slice(jsonHead.length)),
    csv: Buffer.from(csv.slice(csvHead.length)),
  };
  seen.push(tail);
  return tail;
}

/** The same properties in the same order, and after the head the same values. */
function sameTail(
  tail: Tail,
  street: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  headLength: number,
): boolean {
  if (tail.keys.length !== keys.length) return false;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    if (tail.keys[k] !== key) return false;
    if (k >= headLength && tail.street[key] !== street[key]) return false;
  }
  return true;
}
