import {
  foldWords,
  leadOf,
  skeletonOf,
  spellingOf,
  withoutLeadingWords,
  type FoldedWord,
} from "../contract/suggest/fold.ts";
import { encodeNamePayload, LEFT_OUT_WORDS, shapesOf } from "../contract/suggest/names.ts";
import type { Alphabet, TrieEntry } from "../contract/suggest/trie.ts";

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
  /** Characters of its leading words (fold.ts leadOf). */
  readonly lead: number;
}

/** A name's skeletons: its own, and without its leading words (flagged). */
export function nameSkeletons(name: string): NameSkeleton[] {
  const words = foldWords(name);
  const shorter = withoutLeadingWords(words);
  return [
    { words, flags: 0, skeleton: skeletonOf(words), lead: leadOf(words) },
    ...(shorter === undefined
      ? []
      : [{ words: shorter, flags: LEFT_OUT_WORDS, skeleton: skeletonOf(shorter), lead: 0 }]),
  ];
}

/** The entries of the name tries: every run's skeletons (`skeletons`, by run) with their payloads. */
export function nameEntries(
  runs: readonly NameRun[],
  skeletons: readonly (readonly NameSkeleton[])[],
  alphabet: Alphabet,
): TrieEntry[] {
  // Names of one skeleton (`Dessauer Straße`, `Dessauerstraße`) say how each is written.
  const namesOf = new Map<string, Set<string>>();
  runs.forEach((run, i) => {
    const skeleton = skeletons[i]?.[0]?.skeleton ?? "";
    namesOf.set(skeleton, (namesOf.get(skeleton) ?? new Set()).add(run.name));
  });
  return runs.flatMap((run, i) =>
    (skeletons[i] ?? []).map(({ words, flags, skeleton, lead }) => {
      const shared = flags === 0 && (namesOf.get(skeleton)?.size ?? 0) > 1;
      return {
        key: alphabet.encode(skeleton),
        lead,
        payload: encodeNamePayload({
          flags,
          position: run.position,
          count: run.count,
          words: shapesOf(words),
          ...(shared ? { spelling: spellingOf(run.name) } : {}),
        }),
      };
    }),
  );
}
