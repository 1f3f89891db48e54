import { formatMismatch } from "../contract/layout.ts";
import type { ReadBudget } from "./suggest-streets.ts";
import {
  shardOfPair,
  suggestLocalitiesPath,
  suggestMetaPath,
  suggestNamesPath,
  suggestPlacesPath,
  type SuggestMeta,
} from "../contract/suggest/meta.ts";
import { pairTrie } from "../contract/suggest/names.ts";
import { SuggestPlaces } from "../contract/suggest/places.ts";
import { Alphabet } from "../contract/suggest/trie.ts";
import type { AssetStore } from "./assets.ts";

/**
 * One country's suggestions index as the Worker reads it (contract/suggest/meta.ts): the meta,
 * name shards and places, each file read whole once per isolate and charged to every request
 * that uses it, as the search index's files are.
 */
export class SuggestIndex {
  private readonly files = new Map<string, Uint8Array>();
  private placesRead: SuggestPlaces | undefined;
  readonly alphabet: Alphabet;

  private constructor(
    private readonly store: AssetStore,
    private readonly origin: string,
    readonly country: string,
    readonly meta: SuggestMeta,
    private readonly metaBytes: number,
  ) {
    this.alphabet = new Alphabet(meta.alphabet);
  }

  static async open(store: AssetStore, origin: string, country: string): Promise<SuggestIndex> {
    let byCountry = opened.get(store);
    if (byCountry === undefined) opened.set(store, (byCountry = new Map()));
    const known = byCountry.get(country);
    if (known !== undefined) return known;
    const path = suggestMetaPath(country);
    const bytes = new Uint8Array(await (await store.require(origin, path)).arrayBuffer());
    const meta = JSON.parse(new TextDecoder().decode(bytes)) as SuggestMeta;
    const mismatch = formatMismatch(path, meta.formatVersion);
    if (mismatch !== undefined) throw new Error(mismatch);
    const index = new SuggestIndex(store, origin, country, meta, bytes.byteLength);
    byCountry.set(country, index);
    return index;
  }

  /** Charges the meta, which every request reads. */
  chargeMeta(budget: ReadBudget): void {
    budget.charge(suggestMetaPath(this.country), this.metaBytes);
  }

  /** The name shards of some pair keys, read and charged; then each pair's trie (undefined: no name has it). */
  nameShards(
    pairs: Iterable<string>,
    budget: ReadBudget,
  ): Promise<(pair: string) => Uint8Array | undefined> {
    return this.pairTries(this.meta.shards, suggestNamesPath, pairs, budget);
  }

  /**
   * The name shards of some pair keys, as many as fit the budget with `reserve` of it left (in
   * the order of the keys; a shard this request read already fits at no cost), read and charged;
   * then each pair's trie among them.
   */
  async nameShardsThatFit(
    keys: Iterable<string>,
    budget: ReadBudget,
    reserve: number,
  ): Promise<(pair: string) => Uint8Array | undefined> {
    const { shards, shardBytes } = this.meta;
    // The shards taken so far, with their bytes: a pair is read when its shard fits beside them.
    const taken = new Map<string, number>();
    const fitting = [...keys].filter((pair) => {
      const n = shardOfPair(shards, pair);
      const path = suggestNamesPath(this.country, n);
      if (taken.has(path)) return true;
      taken.set(path, shardBytes[n] ?? 0);
      if (budget.fits(taken, reserve)) return true;
      taken.delete(path);
      return false;
    });
    return this.nameShards(fitting, budget);
  }

  /** Likewise the locality shards. */
  localityShards(
    pairs: Iterable<string>,
    budget: ReadBudget,
  ): Promise<(pair: string) => Uint8Array | undefined> {
    return this.pairTries(this.meta.localityShards, suggestLocalitiesPath, pairs, budget);
  }

  private async pairTries(
    shards: readonly string[],
    pathOf: (country: string, n: number) => string,
    pairs: Iterable<string>,
    budget: ReadBudget,
  ): Promise<(pair: string) => Uint8Array | undefined> {
    if (shards.length === 0) return () => undefined;
    const numbers = new Set([...pairs].map((pair) => shardOfPair(shards, pair)));
    const read = new Map(
      await Promise.all(
        [...numbers].map(
          async (n) => [n, await this.file(pathOf(this.country, n), budget)] as const,
        ),
      ),
    );
    return (pair) => {
      const shard = read.get(shardOfPair(shards, pair));
      return shard === undefined ? undefined : pairTrie(shard, pair);
    };
  }

  /** The postal codes and each place's locality, read and charged. */
  async places(budget: ReadBudget): Promise<SuggestPlaces> {
    const bytes = await this.file(suggestPlacesPath(this.country), budget);
    if (this.placesRead?.bytes !== bytes) this.placesRead = new SuggestPlaces(bytes);
    return this.placesRead;
  }

  private async file(path: string, budget: ReadBudget): Promise<Uint8Array> {
    let bytes = this.files.get(path);
    if (bytes === undefined) {
      bytes = new Uint8Array(await (await this.store.require(this.origin, path)).arrayBuffer());
      this.files.set(path, bytes);
      if (this.files.size > FILES_KEPT) this.files.delete(this.files.keys().next().value ?? "");
    } else {
      this.files.delete(path);
      this.files.set(path, bytes);
    }
    budget.charge(path, bytes.byteLength);
    return bytes;
  }
}

/** Files kept per isolate, the least recently used dropped first (shards of about 16 KB, places of about 100 KB nationally). */
const FILES_KEPT = 64;

/** Suggestion indexes opened per isolate, by store and country. */
const opened = new WeakMap<AssetStore, Map<string, SuggestIndex>>();
