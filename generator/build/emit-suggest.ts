import { createHash } from "node:crypto";
import { FORMAT_VERSION } from "../contract/layout.ts";
import {
  suggestLocalitiesPath,
  suggestMetaPath,
  suggestNamesPath,
  suggestPlacesPath,
  type SuggestMeta,
} from "../contract/suggest/meta.ts";
import { Alphabet } from "../contract/suggest/trie.ts";
import type { FileSink } from "../io/sink.ts";
import { namesOf, type IndexedStreets } from "./search-records.ts";
import { nameEntries, nameRuns, nameSkeletons } from "./suggest-names.ts";
import { localityTexts, suggestPlaces } from "./suggest-places.ts";
import { pairShards } from "./suggest-shards.ts";

export interface SuggestIndexSummary {
  readonly country: string;
  readonly names: number;
  readonly files: number;
  readonly bytes: number;
}

/**
 * The suggestions emitter: writes a country's suggestions index (contract/suggest/meta.ts) beside
 * its street-search index, from the same numbering of streets and places (the search emitter's
 * IndexedStreets), so that a name's streets are positions of the search index and a locality's
 * places its place numbers.
 */
export function emitSuggest(
  country: string,
  indexed: IndexedStreets,
  sink: FileSink,
): SuggestIndexSummary {
  const runs = nameRuns(namesOf(indexed));
  const skeletons = runs.map((run) => nameSkeletons(run.name));
  const alphabet = Alphabet.of([
    ...skeletons.flatMap((ofRun) => ofRun.map(({ skeleton }) => skeleton)),
    ...localityTexts(indexed.places),
  ]);
  let [files, bytes] = [0, 0];
  const hash = createHash("sha256");
  const write = (path: string, data: Uint8Array) => {
    hash.update(path).update(data);
    files++;
    bytes += sink.write(path, data).bytes;
  };
  const names = pairShards(nameEntries(runs, skeletons, alphabet));
  names.files.forEach((file, n) => write(suggestNamesPath(country, n), file));
  const places = suggestPlaces(indexed.places, alphabet);
  write(suggestPlacesPath(country), places.file);
  const localities = pairShards(places.localities);
  localities.files.forEach((file, n) => write(suggestLocalitiesPath(country, n), file));
  const meta: SuggestMeta = {
    formatVersion: FORMAT_VERSION,
    hash: hash.digest("hex").slice(0, 16),
    alphabet: alphabet.characters,
    shards: names.firstKeys,
    shardBytes: names.files.map((file) => file.byteLength),
    localityShards: localities.firstKeys,
  };
  const text = JSON.stringify(meta);
  files++;
  bytes += sink.write(suggestMetaPath(country), text).bytes;
  return { country, names: runs.length, files, bytes };
}
