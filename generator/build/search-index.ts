import { createHash } from "node:crypto";
import { csvRow } from "../contract/csv.ts";
import { jsonRecord } from "../contract/page.ts";
import { caseFoldKey } from "../contract/search/filter.ts";
import { lexemesOf, streetDocument } from "../contract/search/lexize.ts";
import { headJson, lexiconKey, lexiconPath, listChunkPath, SEARCH_CHUNK_BYTES, searchMetaPath, shardOfKey, TAILS_PER_SHARD, tailsPath, trigramPath, trigramsOf, type ListRef, type Place, type SearchMeta } from "../contract/search/store.ts";
import type { FileSink } from "../io/sink.ts";
import type { AnyResource } from "../resources/resource.ts";
import { sortRecords } from "./views.ts";
import { ListWriter } from "./search-lists.ts";

/** Lexicon and trigram shards are kept about this size, so a lookup reads little. */
const SHARD_TARGET_BYTES = 48 * 1024;

export interface SearchIndexSummary {
  readonly country: string;
  readonly streets: number;
  readonly files: number;
  readonly bytes: number;
}

type Street = Readonly<Record<string, unknown>> & { readonly name: string; readonly postalCode: string; readonly locality: string };

/**
 * Writes a country's street-search index (contract/search/store.ts) from its Streets resource's
 * records. Words are lexized once per distinct name and per distinct place; the lists are built
 * from flat arrays of (word, position) pairs, so memory stays a few bytes per pair.
 */
export function writeSearchIndex(country: string, resource: AnyResource, records: readonly unknown[], sink: FileSink): SearchIndexSummary {
  const streets = sortRecords(records as readonly Street[], resource.sortKey as (s: Street) => readonly string[]);
  const first = streets[0];
  const keys = first === undefined ? ["name"] : Object.keys(first);
  const headKeys = keys.slice(0, keys.indexOf("name") + 1);
  const columns = resource.record.columns;
  if (headKeys.at(-1) !== "name" || headKeys.some((key, i) => columns[i]?.path.join(".") !== key)) throw new Error(`${resource.id}: the record and its CSV columns must start with the head ${headKeys.join(", ")}`);

  // Heads and places (tails), numbered in order of appearance; places renumbered by postal code below.
  const heads = new Interner();
  const tails = new Interner();
  const tailCsv: string[] = [];
  const tailPlace: [string, string][] = [];
  const headOf = new Int32Array(streets.length);
  const tailOf = new Int32Array(streets.length);
  streets.forEach((street, i) => {
    const values = headKeys.map((key) => String(street[key] ?? ""));
    const head = headJson(headKeys, values);
    const json = jsonRecord(street);
    if (!json.startsWith(head)) throw new Error(`${resource.id}: record ${i} does not start with its head ${head}`);
    headOf[i] = heads.id(JSON.stringify(values));
    const tail = tails.id(json.slice(head.length));
    if (tail === tailCsv.length) {
      tailCsv.push(csvRow(columns.slice(headKeys.length), street));
      tailPlace.push([street.postalCode, street.locality]);
    }
    tailOf[i] = tail;
  });
  const placeOrder = tailPlace.map((_, i) => i).sort((a, b) => compare(tailPlace[a]!, tailPlace[b]!) || compareText(tails.values[a]!, tails.values[b]!));
  const placeId = new Int32Array(placeOrder.length);
  placeOrder.forEach((tail, place) => (placeId[tail] = place));
  for (let i = 0; i < tailOf.length; i++) tailOf[i] = placeId[tailOf[i]!]!;

  let files = 0;
  let bytes = 0;
  const write = (path: string, data: string | Uint8Array) => {
    files++;
    bytes += sink.write(path, data).bytes;
  };
  const hash = createHash("sha256");
  const writer = new ListWriter(heads.values, headOf, tailOf, (chunk, data) => {
    hash.update(data);
    write(listChunkPath(country, chunk), data);
  });
  const lexemes = lexemePairs(streets, tailOf, placeOrder.map((tail) => tailPlace[tail]!));
  const lexicon = new Map<string, ListRef>();
  for (const [lexeme, positions] of lexemes) lexicon.set(lexeme, writer.list(positions));
  const trigrams = new Map<string, ListRef>();
  for (const [trigram, positions] of trigramPositions(streets)) trigrams.set(trigram, writer.list(positions));
  const placeLists = groupBy(streets.length, (i) => tailOf[i]!, placeOrder.length).map((positions) => writer.list(positions));
  writer.finish();

  const lexiconShards = writeShards(lexicon, lexiconKey, (n) => lexiconPath(country, n), write);
  const trigramShards = writeShards(trigrams, (t) => t, (n) => trigramPath(country, n), write);
  for (let shard = 0; shard * TAILS_PER_SHARD < placeOrder.length; shard++) {
    const slice = placeOrder.slice(shard * TAILS_PER_SHARD, (shard + 1) * TAILS_PER_SHARD);
    write(tailsPath(country, shard), JSON.stringify(slice.map((tail) => [tails.values[tail], tailCsv[tail]])));
  }
  const places: Place[] = placeOrder.map((tail, place) => [...tailPlace[tail]!, placeLists[place]!]);
  const meta: SearchMeta = { count: streets.length, hash: hash.digest("hex").slice(0, 16), headKeys, lexiconShards, trigramShards, places };
  write(searchMetaPath(country), JSON.stringify(meta));
  return { country, streets: streets.length, files, bytes };
}

/** Every lexeme's positions: a street has its name's lexemes and its place's (`Name PostalCode Locality`, as one document). */
function lexemePairs(streets: readonly Street[], placeOf: Int32Array, places: readonly (readonly [string, string])[]): Map<string, Int32Array> {
  const ids = new Interner();
  const placeLexemes = places.map(([postalCode, locality]) => [...lexemesOf(` ${postalCode} ${locality}`).keys()].map((l) => ids.id(l)));
  const nameLexemes = new Map<string, number[]>();
  const pairs = new PairList();
  const seen = new Set<number>();
  streets.forEach((street, position) => {
    let own: readonly number[];
    if (street.name.includes("<")) own = [...lexemesOf(streetDocument(street.name, street.postalCode, street.locality)).keys()].map((l) => ids.id(l));
    else {
      let name = nameLexemes.get(street.name);
      if (name === undefined) nameLexemes.set(street.name, (name = [...lexemesOf(street.name).keys()].map((l) => ids.id(l))));
      own = [...name, ...(placeLexemes[placeOf[position]!] ?? [])];
    }
    seen.clear();
    for (const id of own) if (!seen.has(id)) (seen.add(id), pairs.push(id, position));
  });
  const grouped = pairs.group(ids.values.length);
  return new Map(ids.values.map((lexeme, id) => [lexeme, grouped[id]!] as const).sort((a, b) => compareText(a[0], b[0])));
}

/** Every case-folded trigram of the names, with the positions of the streets of that name. */
function trigramPositions(streets: readonly Street[]): [string, Int32Array][] {
  const ids = new Interner();
  const byName = new Map<string, number[]>();
  const pairs = new PairList();
  streets.forEach((street, position) => {
    let own = byName.get(street.name);
    if (own === undefined) byName.set(street.name, (own = trigramsOf(caseFoldKey(street.name)).map((t) => ids.id(t))));
    for (const id of own) pairs.push(id, position);
  });
  const grouped = pairs.group(ids.values.length);
  return ids.values.map((trigram, id) => [trigram, grouped[id]!] as [string, Int32Array]).sort((a, b) => compareText(a[0], b[0]));
}

/** Shards a map of list refs by key, each shard a JSON object; returns how many. */
function writeShards(refs: ReadonlyMap<string, ListRef>, keyOf: (key: string) => string, pathOf: (shard: number) => string, write: (path: string, data: string) => void): number {
  const approxBytes = [...refs].reduce((sum, [key, ref]) => sum + key.length + 8 + ref.length * 8, 0);
  const shards = Math.max(1, Math.ceil(approxBytes / SHARD_TARGET_BYTES));
  const texts: string[][] = Array.from({ length: shards }, () => []);
  for (const [key, ref] of refs) texts[shardOfKey(keyOf(key), shards)]!.push(`${JSON.stringify(key)}:${JSON.stringify(ref)}`);
  texts.forEach((entries, shard) => write(pathOf(shard), `{${entries.join(",")}}`));
  return shards;
}

/** Positions 0…count-1 grouped by a key, each group in order. */
function groupBy(count: number, keyOf: (i: number) => number, groups: number): Int32Array[] {
  const pairs = new PairList();
  for (let i = 0; i < count; i++) pairs.push(keyOf(i), i);
  return pairs.group(groups);
}

/** Strings numbered in order of first appearance. */
class Interner {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.values.push(value) - 1));
    return id;
  }
}

/** (key, position) pairs in growable typed arrays, grouped by key with a counting sort (positions keep their order). */
class PairList {
  private keys = new Int32Array(1 << 16);
  private positions = new Int32Array(1 << 16);
  private length = 0;
  push(key: number, position: number): void {
    if (this.length === this.keys.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.keys = grow(this.keys);
      this.positions = grow(this.positions);
    }
    this.keys[this.length] = key;
    this.positions[this.length++] = position;
  }
  group(groups: number): Int32Array[] {
    const starts = new Int32Array(groups + 1);
    for (let i = 0; i < this.length; i++) starts[this.keys[i]! + 1]!++;
    for (let g = 0; g < groups; g++) starts[g + 1]! += starts[g]!;
    const sorted = new Int32Array(this.length);
    const fill = starts.slice(0, groups);
    for (let i = 0; i < this.length; i++) sorted[fill[this.keys[i]!]!++] = this.positions[i]!;
    return Array.from({ length: groups }, (_, g) => sorted.subarray(starts[g]!, starts[g + 1]!));
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compare = (a: readonly [string, string], b: readonly [string, string]) => compareText(a[0], b[0]) || compareText(a[1], b[1]);
