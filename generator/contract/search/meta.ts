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
 * The place table as the Worker reads it. The columns of numbers are decoded at once, each a
 * column of varints read in one loop (ByteReader.varints); the distinct postal codes and
 * localities (some 20,000 strings nationally) become strings only when a request asks for them:
 * a literal postal code is tested on the front-coded codes' units, a locality searched for in
 * the localities' one text, a check of a few candidates reads a few localities.
 */
export function decodePlaceTable(bytes: Uint8Array): PlaceTable {
  const reader = new ByteReader(bytes);
  const size = reader.varint();
  const codeCount = reader.varint();
  const localityCount = reader.varint();
  const listsAt = reader.varint();
  const text = reader.text(reader.varint());
  const codesAt = reader.at;
  // Per distinct postal code: units shared with the previous one, and the length of its rest.
  const codeLengths = reader.varints(new Int32Array(2 * codeCount));
  const localityLengths = reader.varints(new Int32Array(localityCount));
  const perPlace = reader.varints(new Int32Array(4 * size));
  let at = 0;
  let longest = 0;
  for (let i = 0; i < codeCount; i++) {
    const rest = codeLengths[2 * i + 1] as number;
    longest = Math.max(longest, (codeLengths[2 * i] as number) + rest);
    at += rest;
  }
  // The localities' text follows the postal codes' rests.
  const localityStarts = new Int32Array(localityCount + 1);
  localityStarts[0] = at;
  for (let i = 0; i < localityCount; i++)
    localityStarts[i + 1] = at += localityLengths[i] as number;
  const postalCodeOf = new Int32Array(size);
  const localityOf = new Int32Array(size);
  const counts = new Int32Array(size);
  const listStarts = new Float64Array(size + 1);
  // A step (see the file comment): 0 the previous place's value, 1 the next unused one, k + 2 number k.
  let nextCode = 0;
  let nextLocality = 0;
  let code = 0;
  let locality = 0;
  let start = listsAt;
  listStarts[0] = listsAt;
  for (let p = 0, q = 0; p < size; p++, q += 4) {
    const codeStep = perPlace[q] as number;
    code = codeStep === 0 ? code : codeStep === 1 ? nextCode++ : codeStep - 2;
    const localityStep = perPlace[q + 1] as number;
    locality =
      localityStep === 0 ? locality : localityStep === 1 ? nextLocality++ : localityStep - 2;
    postalCodeOf[p] = code;
    localityOf[p] = locality;
    counts[p] = perPlace[q + 2] as number;
    listStarts[p + 1] = start += perPlace[q + 3] as number;
  }
  let postalCodes: readonly string[] | undefined;
  let localities: readonly string[] | undefined;
  const localityAt = (i: number) => text.slice(localityStarts[i], localityStarts[i + 1]);
  const holding = (literal: string, atStart: boolean, atEnd: boolean) =>
    codesHolding(codeLengths, text, longest, literal, atStart, atEnd);
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
    postalCodesHolding: holding,
    postalCodesStartingWith: (prefix) => {
      const codes = holding(prefix, true, false);
      const first = codes.indexOf(1);
      return first < 0 ? [0, 0] : [first, codes.lastIndexOf(1) + 1];
    },
    locality: (i) => (i >= 0 && i < localityCount ? localityAt(i) : ""),
    localityText: { text, starts: localityStarts },
    postalCodeOf,
    localityOf,
    counts,
    listStarts,
  };
}

/**
 * Per front-coded sorted string (readFrontCoded's layout, its lengths as pairs), 1 when it holds
 * `literal` (compared as UTF-16 units), at its start and/or end when anchored there: each string
 * rebuilt in one buffer of units, no string made. Anchored at the start, the walk stops after the
 * strings that start with the literal's first units (sorted: none comes later).
 */
function codesHolding(
  lengths: Int32Array,
  text: string,
  longest: number,
  literal: string,
  atStart: boolean,
  atEnd: boolean,
): Uint8Array {
  const count = lengths.length >>> 1;
  const out = new Uint8Array(count);
  const units = new Uint16Array(longest);
  const m = literal.length;
  for (let i = 0, at = 0; i < count; i++) {
    const shared = lengths[2 * i] as number;
    const n = shared + (lengths[2 * i + 1] as number);
    for (let k = shared; k < n; k++) units[k] = text.charCodeAt(at++);
    if (atStart) {
      // Below the literal, starting with it, or past it (then so is every later string).
      let order = 0;
      for (let k = 0; k < m && order === 0; k++)
        order = k >= n ? -1 : (units[k] as number) - literal.charCodeAt(k);
      if (order > 0) break;
      if (order === 0 && n >= m && (!atEnd || n === m)) out[i] = 1;
      continue;
    }
    // Unanchored, the literal at every offset; anchored at the end, at the last only.
    for (let o = atEnd ? n - m : 0; o >= 0 && o <= n - m && out[i] === 0; o++) {
      let k = 0;
      while (k < m && units[o + k] === literal.charCodeAt(k)) k++;
      if (k === m) out[i] = 1;
    }
  }
  return out;
}
