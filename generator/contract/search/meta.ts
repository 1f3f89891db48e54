/**
 * What a search request reads first: `/_s/{cc}/meta.json` (SearchMeta, a few hundred bytes),
 * and, when it filters by place or checks candidates against their places, `/_s/{cc}/places.bin`:
 * the places as columns, so a cold isolate reads a few hundred KiB, not a megabyte of JSON:
 *
 *   varints: places, distinct postal codes, distinct localities, listsAt, textBytes
 *   text (UTF-8): the postal codes' front-coded rests, then the locality names
 *   varints: per distinct postal code (in order of first use) units shared with the previous one
 *            and the length of its rest; per distinct locality its length (UTF-16 units);
 *            per place: its postal code and its locality as a step (0: the previous place's,
 *            1: the next unused one, k + 2: number k), its street count, its list's bytes
 *
 * Place lists follow each other in the stream from `listsAt`, in place order, so a place's list
 * is where the previous one ends: lengths, not offsets.
 */
import { ByteReader, ByteWriter, frontCode, readFrontCoded } from "./bytes.ts";
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
  const perPlace = new ByteWriter();
  for (const place of places) {
    perPlace.varint(postalCodes.step(place.postalCode));
    perPlace.varint(localities.step(place.locality));
    perPlace.varint(place.count);
    perPlace.varint(place.listBytes);
  }
  const lengths = new ByteWriter();
  let text = frontCode(postalCodes.values, lengths);
  for (const locality of localities.values) {
    lengths.varint(locality.length);
    text += locality;
  }
  const out = new ByteWriter();
  const textBytes = new TextEncoder().encode(text);
  for (const n of [
    places.length,
    postalCodes.values.length,
    localities.values.length,
    listsAt,
    textBytes.length,
  ])
    out.varint(n);
  out.raw(textBytes);
  out.raw(lengths.view());
  out.raw(perPlace.view());
  return out.view().slice();
}

/**
 * The place table as the Worker reads it. The columns of numbers are decoded at once; the
 * distinct postal codes and localities (some 20,000 strings nationally) only when a request asks
 * for them: a postal-code filter needs no locality, a check of a few candidates a few localities.
 */
export function decodePlaceTable(bytes: Uint8Array): PlaceTable {
  const reader = new ByteReader(bytes);
  const [size, codeCount, localityCount, listsAt, textBytes] = [
    reader.varint(),
    reader.varint(),
    reader.varint(),
    reader.varint(),
    reader.varint(),
  ];
  const text = reader.text(textBytes);
  const codesAt = reader.at;
  let at = 0;
  for (let i = 0; i < codeCount; i++) {
    reader.varint();
    at += reader.varint();
  }
  // The localities' text follows the postal codes' rests.
  const localityStarts = new Int32Array(localityCount + 1);
  localityStarts[0] = at;
  for (let i = 0; i < localityCount; i++) localityStarts[i + 1] = at += reader.varint();
  const postalCodeOf = new Int32Array(size);
  const localityOf = new Int32Array(size);
  const counts = new Int32Array(size);
  const listStarts = new Float64Array(size + 1);
  // A step (see the file comment): 0 the previous place's value, 1 the next unused one, k + 2 number k.
  let [nextCode, nextLocality, code, locality, start] = [0, 0, 0, 0, listsAt];
  listStarts[0] = listsAt;
  for (let p = 0; p < size; p++) {
    const codeStep = reader.varint();
    code = codeStep === 0 ? code : codeStep === 1 ? nextCode++ : codeStep - 2;
    const localityStep = reader.varint();
    locality =
      localityStep === 0 ? locality : localityStep === 1 ? nextLocality++ : localityStep - 2;
    postalCodeOf[p] = code;
    localityOf[p] = locality;
    counts[p] = reader.varint();
    listStarts[p + 1] = start += reader.varint();
  }
  let postalCodes: readonly string[] | undefined;
  let localities: readonly string[] | undefined;
  const localityAt = (i: number) => text.slice(localityStarts[i], localityStarts[i + 1]);
  return {
    size,
    get postalCodes() {
      return (postalCodes ??= readFrontCoded(
        codeCount,
        new ByteReader(bytes, codesAt),
        text,
      ).strings);
    },
    get localities() {
      return (localities ??= Array.from({ length: localityCount }, (_, i) => localityAt(i)));
    },
    postalCodesStartingWith: (prefix) =>
      codesStartingWith(new ByteReader(bytes, codesAt), codeCount, text, prefix),
    locality: (i) => (i >= 0 && i < localityCount ? localityAt(i) : ""),
    localityText: { text, starts: localityStarts },
    postalCodeOf,
    localityOf,
    counts,
    listStarts,
  };
}

/**
 * Numbers [first, last) of the front-coded sorted strings (readFrontCoded's layout) that start
 * with `prefix`: each string is rebuilt as code units in one buffer and compared with the prefix,
 * stopping after the last that starts with it.
 */
function codesStartingWith(
  lengths: ByteReader,
  count: number,
  text: string,
  prefix: string,
): readonly [number, number] {
  const units: number[] = [];
  let first = count;
  for (let i = 0, at = 0; i < count; i++) {
    units.length = lengths.varint();
    const rest = lengths.varint();
    for (let k = 0; k < rest; k++) units.push(text.charCodeAt(at + k));
    at += rest;
    // Compare the first min(length, prefix) units: below, starting with the prefix, or past it.
    let order = 0;
    for (let k = 0; k < prefix.length && order === 0; k++)
      order = k >= units.length ? -1 : Math.sign((units[k] as number) - prefix.charCodeAt(k));
    if (order < 0) continue;
    if (order > 0) return [Math.min(first, i), i];
    first = Math.min(first, i);
  }
  return [first, count];
}
