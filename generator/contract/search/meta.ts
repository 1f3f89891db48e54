/**
 * What a search request reads first: `/_s/{cc}/meta.json` (SearchMeta, a few hundred bytes),
 * and, when it filters by place or checks candidates against their places, `/_s/{cc}/places.bin`:
 * the places as columns, so a cold isolate reads a few hundred KiB, not a megabyte of JSON:
 *
 *   varints: places, distinct postal codes, distinct localities, listsAt, then the bytes of
 *            each of the eight sections that follow, back to back:
 *   1. the postal codes' front-coded rests (UTF-8), in order of first use
 *   2. the locality names (UTF-8), in order of first use
 *   3. varints: per distinct postal code units shared with the previous one and the length of
 *      its rest (UTF-16 units)
 *   4. varints: per distinct locality its length (UTF-16 units)
 *   5.–8. one varint per place each: its postal code as a step (0: the previous place's, 1: the
 *      next unused one, k + 2: number k), its locality so, its street count, its list's bytes
 *
 * Section by section, so that a request decodes only what it uses (a postal-code filter no
 * locality), and a column of values below 128 (the postal-code steps of places in code order)
 * is its bytes. Place lists follow each other in the stream from `listsAt`, in place order, so a
 * place's list is where the previous one ends: lengths, not offsets.
 */
import { ByteReader, ByteWriter, codesHolding, frontCode, readFrontCoded } from "./bytes.ts";
import type { ListRef } from "./store.ts";
import type { ColumnShape } from "../regex/universal.ts";

/** A column's values as one text: value i is text[starts[i], starts[i + 1]). */
export interface ColumnText {
  readonly text: string;
  readonly starts: Int32Array;
}

export interface SearchMeta {
  /** The layout the build wrote (layout.ts FORMAT_VERSION): a Worker of another one refuses it. */
  readonly formatVersion: number;
  /** The country (`de`): its files are under `/_s/{country}/`. */
  readonly country: string;
  /** Streets in the country, and places (§ 7.2). */
  readonly count: number;
  readonly places: number;
  /** A short hash of the index: part of every answer's ETag. */
  readonly hash: string;
  /** The record properties that make the head, in order; the last is `name`. */
  readonly headKeys: readonly string[];
  /** Bytes per street in the record table: 2, or 3 for more than 65,536 places. */
  readonly placeWidth: number;
  /** The first key (lexiconKey) of each lexicon shard, in order. */
  readonly lexiconShards: readonly string[];
  /** The first trigram of each trigram shard, in order. */
  readonly trigramShards: readonly string[];
  /** Bytes of index files one search may read, every file it reads counted (budget.ts). */
  readonly readBudget: number;
  /** Every character of the street names, once, in code point order: which n-gram lists need no name test (filter.ts foldIsExact). */
  readonly nameCharacters: string;
  /**
   * The shape of each filtered column's values (regex/universal.ts; the names' characters are
   * nameCharacters): a pattern that matches every value of its column is not tested.
   */
  readonly columns: {
    readonly name: Omit<ColumnShape, "characters">;
    readonly postalCode: ColumnShape;
    readonly locality: ColumnShape;
  };
  /** The terms with a bitmap (bitmaps.ts), as fulltext.ts termKey: file n is the n-th's. */
  readonly bitmaps: readonly string[];
  /** Terms whose streets are those of a bitmap file already (a prefix of one lexeme's): [termKey, file]. */
  readonly bitmapAliases: readonly (readonly [string, number])[];
  /** The streets of each bitmap file (its set bits), so a plan knows them before it reads one. */
  readonly bitmapStreets: readonly number[];
  /** The case-folded n-grams with per-place counts (gram-counts.ts): file n is the n-th's. */
  readonly gramCounts: readonly string[];
  /** Bytes of the list stream (§ 7.5): its last chunk's are the rest after the full ones. */
  readonly streamBytes: number;
  /**
   * The bytes of the files whose size varies, so that a plan knows what it will read before it
   * reads it: the place table, and per family (lexicon `l` and n-gram `g` shards, tails `t`, head
   * table `h`, place counts `c`) file n's bytes.
   */
  readonly fileBytes: { readonly places: number } & Readonly<
    Record<"l" | "g" | "t" | "h" | "c", readonly number[]>
  >;
}

/** The places (a place: what the tails of its streets share), column by column. */
export interface PlaceTable {
  readonly size: number;
  /** Distinct postal codes and localities; a place holds the number of its own. */
  readonly postalCodes: readonly string[];
  readonly localities: readonly string[];
  /** Numbers [first, last) of the postal codes that start with `prefix` (the codes are sorted), without building their strings. */
  postalCodesStartingWith(prefix: string): readonly [number, number];
  /** Per postal code, 1 when it holds `literal` (at its start, its end, or both when anchored), without building their strings. */
  postalCodesHolding(literal: string, atStart: boolean, atEnd: boolean): Uint8Array;
  /** Locality number i (without building `localities`). */
  locality(i: number): string;
  /** Every locality in one text (without building `localities`): a pattern's literals are searched in it at once. */
  readonly localityText: ColumnText;
  readonly postalCodeOf: Int32Array;
  readonly localityOf: Int32Array;
  /** Streets per place. */
  readonly counts: Int32Array;
  /** Place p's list is bytes [listStarts[p], listStarts[p + 1]) of the stream. */
  readonly listStarts: Float64Array;
}

/** One place as the build knows it. */
export interface MetaPlace {
  readonly postalCode: string;
  readonly locality: string;
  readonly count: number;
  readonly listBytes: number;
}

export const placePostalCode = (places: PlaceTable, place: number) =>
  places.postalCodes[places.postalCodeOf[place] ?? 0] ?? "";
export const placeLocality = (places: PlaceTable, place: number) =>
  places.locality(places.localityOf[place] ?? 0);
export const placeList = (places: PlaceTable, place: number): ListRef => [
  places.counts[place] ?? 0,
  places.listStarts[place] ?? 0,
  places.listStarts[place + 1] ?? 0,
];

/** Numbers distinct values in order of first use, each use written as a step (see the file comment). */
class Steps {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  private last = -1;
  step(value: string): number {
    const known = this.ids.get(value);
    if (known === undefined) {
      this.last = this.values.push(value) - 1;
      this.ids.set(value, this.last);
      return 1;
    }
    const step = known === this.last ? 0 : known + 2;
    this.last = known;
    return step;
  }
}

export function encodePlaceTable(places: readonly MetaPlace[], listsAt: number): Uint8Array {
  const postalCodes = new Steps();
  const localities = new Steps();
  const columns = [new ByteWriter(), new ByteWriter(), new ByteWriter(), new ByteWriter()];
  for (const place of places) {
    columns[0]?.varint(postalCodes.step(place.postalCode));
    columns[1]?.varint(localities.step(place.locality));
    columns[2]?.varint(place.count);
    columns[3]?.varint(place.listBytes);
  }
  const codeLengths = new ByteWriter();
  const codeText = frontCode(postalCodes.values, codeLengths);
  const localityLengths = new ByteWriter();
  for (const locality of localities.values) localityLengths.varint(locality.length);
  const encoder = new TextEncoder();
  const sections = [
    encoder.encode(codeText),
    encoder.encode(localities.values.join("")),
    codeLengths.view(),
    localityLengths.view(),
    ...columns.map((column) => column.view()),
  ];
  const out = new ByteWriter();
  for (const n of [places.length, postalCodes.values.length, localities.values.length, listsAt])
    out.varint(n);
  for (const section of sections) out.varint(section.length);
  for (const section of sections) out.raw(section);
  return out.view().slice();
}

/**
 * The place table as the Worker reads it, each section decoded when a request first uses it (a
 * fresh isolate's first request runs this in V8's lower tiers, where every value costs; column
 * loops are functions of their own: code after a loop V8 optimises part-way lacks feedback). The
 * distinct postal codes and localities (some 20,000 strings nationally) become strings only when
 * asked for: a literal postal code is tested on the front-coded codes' units, a locality searched
 * for in the localities' one text, a check of a few candidates reads a few localities.
 */
export function decodePlaceTable(bytes: Uint8Array): PlaceTable {
  const reader = new ByteReader(bytes);
  const size = reader.varint();
  const codeCount = reader.varint();
  const localityCount = reader.varint();
  const listsAt = reader.varint();
  // Where each section starts, and after the last where it ends.
  const at = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let k = 0; k < 8; k++) at[k + 1] = (at[k] as number) + reader.varint();
  for (let k = 0; k < 9; k++) at[k] = (at[k] as number) + reader.at;
  const section = (k: number) => bytes.subarray(at[k], at[k + 1]);
  const codeText = lazy(() => new ByteReader(section(0)).text(section(0).length));
  // The rests' UTF-16 units: the bytes themselves when they are ASCII (postal codes are digits).
  const codeUnits = lazy(() => {
    const text = codeText();
    if (text.length === section(0).length) return new Uint16Array(section(0));
    const units = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
    return units;
  });
  // Per distinct postal code: units shared with the previous one, and the length of its rest.
  const codeLengths = lazy(() => new ByteReader(section(2)).varints(new Int32Array(2 * codeCount)));
  // Section k's `length` varints, `spare` slots after them; every value below 128: its bytes.
  const column = (k: number, length = size, spare = 0): Int32Array => {
    const values = new Int32Array(length + spare);
    if (section(k).length === length) values.set(section(k));
    else new ByteReader(section(k)).varints(values.subarray(0, length));
    return values;
  };
  const localityText = lazy((): ColumnText => ({
    text: new ByteReader(section(1)).text(section(1).length),
    starts: lengthsToStarts(column(3, localityCount, 1), localityCount),
  }));
  const postalCodeOf = lazy(() => stepsToNumbers(column(4)));
  const localityOf = lazy(() => stepsToNumbers(column(5)));
  const counts = lazy(() => column(6));
  const listStarts = lazy(() => listStartsOf(column(7), listsAt));
  const postalCodes = lazy(
    () => readFrontCoded(codeCount, new ByteReader(section(2)), codeText()).strings,
  );
  const localityAt = (i: number) => {
    const { text, starts } = localityText();
    return text.slice(starts[i], starts[i + 1]);
  };
  const localities = lazy(() => Array.from({ length: localityCount }, (_, i) => localityAt(i)));
  const longest = lazy(() => {
    const lengths = codeLengths();
    let most = 0;
    for (let i = 0; i < lengths.length; i += 2)
      most = Math.max(most, (lengths[i] as number) + (lengths[i + 1] as number));
    return most;
  });
  const holding = (literal: string, atStart: boolean, atEnd: boolean) =>
    codesHolding(codeLengths(), codeUnits(), longest(), literal, atStart, atEnd);
  return {
    size,
    get postalCodes() {
      return postalCodes();
    },
    get localities() {
      return localities();
    },
    postalCodesHolding: holding,
    postalCodesStartingWith: (prefix) => {
      const codes = holding(prefix, true, false);
      const first = codes.indexOf(1);
      return first < 0 ? [0, 0] : [first, codes.lastIndexOf(1) + 1];
    },
    locality: (i) => (i >= 0 && i < localityCount ? localityAt(i) : ""),
    get localityText() {
      return localityText();
    },
    get postalCodeOf() {
      return postalCodeOf();
    },
    get localityOf() {
      return localityOf();
    },
    get counts() {
      return counts();
    },
    get listStarts() {
      return listStarts();
    },
  };
}

/** Lengths in values[0, count) turned in place into where each value starts, their sum at count. */
function lengthsToStarts(values: Int32Array, count: number): Int32Array {
  for (let i = 0, sum = 0; i <= count; i++) {
    const length = values[i] as number;
    values[i] = sum;
    sum += length;
  }
  return values;
}

/** Steps (the file comment: 0 the previous value, 1 the next unused one, k + 2 number k) to numbers. */
function stepsToNumbers(of: Int32Array): Int32Array {
  for (let p = 0, next = 0, value = 0; p < of.length; p++) {
    const step = of[p] as number;
    const number = step - 2; // worked out for every step: the warm-up's table has few of these
    value = step === 0 ? value : step === 1 ? next++ : number;
    of[p] = value;
  }
  return of;
}

/** Where each place's list starts in the stream, from their lengths: the end of the last at the end. */
function listStartsOf(lengths: Int32Array, listsAt: number): Float64Array {
  const starts = new Float64Array(lengths.length + 1);
  starts[0] = listsAt;
  for (let p = 0; p < lengths.length; p++)
    starts[p + 1] = (starts[p] as number) + (lengths[p] as number);
  return starts;
}

/** A value made when first asked for. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
