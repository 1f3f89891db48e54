import {
  foldWords,
  skeletonOf,
  spellingOf,
  withoutLeadingWords,
  type FoldedWord,
} from "../contract/suggest/fold.ts";
import {
  encodeNamePayload,
  encodeNameShard,
  LEFT_OUT_WORDS,
  pairsOf,
  shapesOf,
} from "../contract/suggest/names.ts";
import { type Alphabet, encodeTrie, type TrieEntry } from "../contract/suggest/trie.ts";

/** A name shard is cut at about this many bytes of tries (never inside a pair's trie). */
const SHARD_TARGET_BYTES = 16 * 1024;

/** A street name of the country with its streets: [position, position + count) of the street order. */
export interface NameRun {
  readonly name: string;
  readonly position: number;
  readonly count: number;
}

/** The runs of one name in the street order (a name's streets follow one another: one run each). */
export function nameRuns(names: ArrayLike<string>): NameRun[] {
  const runs: NameRun[] = [];
  for (let position = 0; position < names.length;) {
    const name = names[position] as string;
    let end = position + 1;
    while (end < names.length && names[end] === name) end++;
    runs.push({ name, position, count: end - position });
    position = end;
  }
  return runs;
}

/** A skeleton of a name: its words, whether they leave out the name's leading words, the skeleton. */
export interface NameSkeleton {
  readonly words: FoldedWord[];
  readonly flags: number;
  readonly skeleton: string;
}

/** A name's skeletons: its own, and without its leading words (flagged). */
export function nameSkeletons(name: string): NameSkeleton[] {
  const words = foldWords(name);
  const shorter = withoutLeadingWords(words);
  return [
    { words, flags: 0, skeleton: skeletonOf(words) },
    ...(shorter === undefined
      ? []
      : [{ words: shorter, flags: LEFT_OUT_WORDS, skeleton: skeletonOf(shorter) }]),
  ];
}

/**
 * The name shards: every run's skeletons (`skeletons`, by run) in the trie of each of their pairs,
 * pairs in order, cut into shards of about SHARD_TARGET_BYTES. Returns the shards' first keys and
 * files.
 */
export function nameShards(
  runs: readonly NameRun[],
  skeletons: readonly (readonly NameSkeleton[])[],
  alphabet: Alphabet,
): { readonly firstKeys: string[]; readonly tries: Uint8Array[] } {
  // Names of one skeleton (`Dessauer Straße`, `Dessauerstraße`) say how each is written.
  const namesOf = new Map<string, Set<string>>();
  runs.forEach((run, i) => {
    const skeleton = skeletons[i]?.[0]?.skeleton ?? "";
    namesOf.set(skeleton, (namesOf.get(skeleton) ?? new Set()).add(run.name));
  });
  const byPair = new Map<string, TrieEntry[]>();
  for (const [i, run] of runs.entries())
    for (const { words, flags, skeleton } of skeletons[i] ?? []) {
      const key = alphabet.encode(skeleton);
      const shared = flags === 0 && (namesOf.get(skeleton)?.size ?? 0) > 1;
      const entry = {
        key,
        payload: encodeNamePayload({
          flags,
          position: run.position,
          count: run.count,
          words: shapesOf(words),
          ...(shared ? { spelling: spellingOf(run.name) } : {}),
        }),
      };
      for (const pair of pairsOf(key)) {
        const entries = byPair.get(pair);
        if (entries === undefined) byPair.set(pair, [entry]);
        else entries.push(entry);
      }
    }
  const firstKeys: string[] = [];
  const tries: Uint8Array[] = [];
  let shard: (readonly [string, Uint8Array])[] = [];
  let size = 0;
  const flush = () => {
    if (shard.length > 0) tries.push(encodeNameShard(shard));
    [shard, size] = [[], 0];
  };
  for (const pair of [...byPair.keys()].sort()) {
    const trie = encodeTrie(byPair.get(pair) as TrieEntry[]);
    if (shard.length > 0 && size + trie.length > SHARD_TARGET_BYTES) flush();
    if (shard.length === 0) firstKeys.push(pair);
    shard.push([pair, trie]);
    size += trie.length;
  }
  flush();
  return { firstKeys, tries };
}
