import { createHash } from "node:crypto";
import { SEARCH_READ_BUDGET } from "../contract/search/plan.ts";
import {
  bitmapPath,
  FORMAT_VERSION,
  gramCountsPath,
  placeStreetsPath,
} from "../contract/layout.ts";
import { encodePlaceTable, type SearchMeta } from "../contract/search/meta.ts";
import { decodeBitmap } from "../contract/search/bitmaps.ts";
import { countBits } from "../contract/search/kernels.ts";
import { encodeListShard, type ShardEntry } from "../contract/search/shards.ts";
import {
  compareText,
  lexiconKey,
  lexiconPath,
  listBytes,
  listChunkPath,
  placesPath,
  RECORD_CHUNK_STREETS,
  recordsPath,
  headsPath,
  searchMetaPath,
  TAILS_PER_SHARD,
  tailsPath,
  trigramPath,
} from "../contract/search/store.ts";
import { encodeTailShard } from "../contract/search/tails.ts";
import { columnShape } from "../contract/regex/universal.ts";
import type { FileSink } from "../io/sink.ts";
import type { Searched } from "../contract/routes.ts";
import type { AnyResource } from "../resources/resource.ts";
import {
  headChunk,
  headRuns,
  lexemePositions,
  nameCharacters,
  trigramRuns,
} from "./search-keys.ts";
import { writeBitmaps } from "./search-bitmaps.ts";
import { writeGramCounts } from "./search-gram-counts.ts";
import { writePlaceBitmaps } from "./search-place-bitmaps.ts";
import { ListWriter, PairList, writePlaceStreets } from "./search-lists.ts";
import type { IndexedStreets } from "./search-records.ts";
/** Lexicon and trigram shards are cut at about this size (never inside a key's group), so a lookup reads little. */
const SHARD_TARGET_BYTES = 16 * 1024;

export interface SearchIndexSummary {
  readonly country: string;
  readonly streets: number;
  readonly files: number;
  readonly bytes: number;
}

/** What the search emitter emits: a FullTextSearch and the Streets whose records its index holds. */
export interface SearchUnit {
  readonly resource: Searched<AnyResource>;
  readonly streets: { readonly resource: AnyResource; readonly records: readonly unknown[] };
}

/**
 * The search emitter: writes a country's street-search index (contract/search/store.ts) from its
 * Streets resource's records as numberStreets (search-records.ts) numbers them; the index answers
 * that resource's filters and its FullTextSearch.
 * Words are lexized once per distinct name and per place; the lists are built from flat arrays of
 * (word, position) pairs, so memory stays a few bytes per pair.
 */
export function emitSearch(
  country: string,
  indexed: IndexedStreets,
  sink: FileSink,
  readBudget = SEARCH_READ_BUDGET,
): SearchIndexSummary {
  const { headOf, placeOf, places } = indexed;
  const count = headOf.length;
  const headNames = indexed.heads.map((values) => values.at(-1) ?? "");
  let files = 0;
  let bytes = 0;
  // The files of format 5 go into the hash, so an answer's ETag changes with anything it is made
  // of; the streets of places (format 6) are the place lists' positions again, and the meta only
  // describes the files.
  const hash = createHash("sha256");
  const bitmapStreets: number[] = [];
  const fileBytes: Record<"l" | "g" | "t" | "h" | "c", number[]> = {
    l: [],
    g: [],
    t: [],
    h: [],
    c: [],
  };
  const put = (path: string, data: string | Uint8Array) => {
    files++;
    const written = sink.write(path, data).bytes;
    bytes += written;
    const [, family, n] = /\/([lgthcb])\/(\d+)\.bin$/.exec(path) ?? [];
    if (family === "b") bitmapStreets[Number(n)] = countBits(decodeBitmap(data as Uint8Array));
    else if (family !== undefined) fileBytes[family as keyof typeof fileBytes][Number(n)] = written;
  };
  const write = (path: string, data: string | Uint8Array) => {
    hash.update(path).update(data);
    put(path, data);
  };
  const writer = new ListWriter(indexed.heads, (chunk, data) =>
    write(listChunkPath(country, chunk), data),
  );
  const ofStreet = {
    place: (_: number, position: number) => placeOf[position] ?? 0,
    head: (_: number, position: number) => headOf[position] ?? 0,
  };

  const lexemes = lexemePositions(indexed);
  const bitmaps = writeBitmaps(
    lexemes.map(({ lexeme, positions }) => [lexeme, positions] as const),
    count,
    (n, data) => write(bitmapPath(country, n), data),
  );
  const placeBitmaps = writePlaceBitmaps(places, placeOf, count, bitmaps.files.length, (n, data) =>
    write(bitmapPath(country, n), data),
  );
  const lexicon: ShardEntry[] = lexemes.map(({ lexeme, positions, inName }) => ({
    key: lexeme,
    ref: writer.list(positions, ofStreet.place, ofStreet.head, inName),
  }));
  const runs = headRuns(headOf);
  const gramRuns = trigramRuns(indexed, runs);
  const gramCounts = writeGramCounts(gramRuns, runs, placeOf, places.length, count, (n, data) =>
    write(gramCountsPath(country, n), data),
  );
  const trigrams: ShardEntry[] = gramRuns.map(([key, ofRuns]) => {
    const starts = ofRuns.map((run) => runs.start[run] ?? 0);
    const streetsIn = ofRuns.reduce((sum, run) => sum + (runs.length[run] ?? 0), 0);
    return {
      key,
      streets: streetsIn,
      ref: writer.list(
        starts,
        (i) => runs.length[ofRuns[i] ?? 0] ?? 0,
        (i) => headOf[starts[i] ?? 0] ?? 0,
      ),
    };
  });
  const placeLists = new PairList(count);
  for (let position = 0; position < count; position++)
    placeLists.push(placeOf[position] ?? 0, position);
  const byPlace = placeLists.group(places.length);
  const placeRefs = byPlace.map((positions) =>
    writer.list(positions, ofStreet.place, ofStreet.head),
  );
  const streamBytes = writer.finish();
  writePlaceStreets(byPlace, (n, data) => put(placeStreetsPath(country, n), data));

  const placeWidth = places.length <= 0x10000 ? 2 : 3;
  for (let start = 0, chunk = 0; start < count; start += RECORD_CHUNK_STREETS, chunk++) {
    const end = Math.min(count, start + RECORD_CHUNK_STREETS);
    const table = Buffer.alloc((end - start) * placeWidth);
    for (let position = start; position < end; position++)
      table.writeUIntLE(placeOf[position] ?? 0, (position - start) * placeWidth, placeWidth);
    write(recordsPath(country, chunk), table);
    write(headsPath(country, chunk), headChunk(indexed, start, end));
  }
  const lexiconShards = writeShards(lexicon, lexiconKey, (n) => lexiconPath(country, n), write);
  const trigramShards = writeShards(
    trigrams,
    (t) => t,
    (n) => trigramPath(country, n),
    write,
  );
  for (let shard = 0; shard * TAILS_PER_SHARD < places.length; shard++) {
    write(
      tailsPath(country, shard),
      encodeTailShard(
        places
          .slice(shard * TAILS_PER_SHARD, (shard + 1) * TAILS_PER_SHARD)
          .map((place) => [place.json, place.csv] as const),
      ),
    );
  }
  const placeTable = places.map((place, i) => {
    const ref = placeRefs[i] ?? [0];
    if (i > 0 && ref[1] !== placeRefs[i - 1]?.at(-1))
      throw new Error(`the search index of ${country}: its place lists are not back to back`);
    return {
      postalCode: place.postalCode,
      locality: place.locality,
      count: ref[0] ?? 0,
      listBytes: listBytes(ref),
    };
  });
  const placeBytes = encodePlaceTable(placeTable, placeRefs[0]?.[1] ?? 0);
  write(placesPath(country), placeBytes);
  const meta: SearchMeta = {
    formatVersion: FORMAT_VERSION,
    country,
    count: count,
    places: places.length,
    hash: hash.digest("hex").slice(0, 16),
    headKeys: indexed.headKeys,
    placeWidth,
    lexiconShards,
    trigramShards,
    readBudget,
    nameCharacters: nameCharacters(headNames),
    bitmaps: [...bitmaps.files, ...placeBitmaps],
    bitmapAliases: bitmaps.aliases,
    bitmapStreets,
    gramCounts,
    streamBytes,
    fileBytes: { places: placeBytes.byteLength, ...fileBytes },
    columns: {
      name: lengthsOf(headNames),
      postalCode: columnShape(distinct(places.map((place) => place.postalCode))),
      locality: columnShape(distinct(places.map((place) => place.locality))),
    },
  };
  put(searchMetaPath(country), JSON.stringify(meta));
  return { country, streets: count, files, bytes };
}

const distinct = (values: readonly string[]) => [...new Set(values)];
/** The shortest and longest value (the names' characters are nameCharacters). */
const lengthsOf = (values: readonly string[]) => {
  const { shortest, longest } = columnShape(distinct(values));
  return { shortest, longest };
};

/**
 * Cuts entries (in key order) into shards of about SHARD_TARGET_BYTES, never inside a group (the
 * keys a lookup must find together), and writes them; returns each shard's first group key.
 */
function writeShards(
  entries: readonly ShardEntry[],
  groupOf: (key: string) => string,
  pathOf: (shard: number) => string,
  write: (path: string, data: Uint8Array) => void,
): string[] {
  const firstKeys: string[] = [];
  let shard: ShardEntry[] = [];
  let size = 0;
  const flush = () => {
    write(pathOf(firstKeys.length - 1), encodeListShard(shard));
    [shard, size] = [[], 0];
  };
  let previous: string | undefined;
  for (let i = 0; i < entries.length;) {
    const group = groupOf((entries[i] as ShardEntry).key);
    // The Worker finds a key's shard by a binary search over the first keys.
    if (previous !== undefined && compareText(previous, group) >= 0)
      throw new Error(`search index: key groups out of order at ${JSON.stringify(group)}`);
    previous = group;
    let end = i;
    let groupSize = 0;
    for (; end < entries.length && groupOf((entries[end] as ShardEntry).key) === group; end++)
      groupSize +=
        (entries[end] as ShardEntry).key.length + 6 * (entries[end] as ShardEntry).ref.length + 8;
    if (shard.length > 0 && size + groupSize > SHARD_TARGET_BYTES) flush();
    if (shard.length === 0) firstKeys.push(group);
    shard.push(...entries.slice(i, end));
    size += groupSize;
    i = end;
  }
  if (firstKeys.length === 0) firstKeys.push("");
  flush();
  return firstKeys;
}
