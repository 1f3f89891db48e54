/**
 * The street names and localities within a part's typos (text.ts Part): walks over the tries
 * (walk.ts), each skeleton found checked word by word (distance.ts), each name kept with its
 * fewest typos and its tier.
 */
import { typosOf } from "./distance.ts";
import { LEFT_OUT_WORDS, namePayloads, pairsOf, type NamePayload } from "./names.ts";
import { localityPayloads } from "./places.ts";
import type { Alphabet } from "./trie.ts";
import type { Part } from "./text.ts";
import { FAR, TrieWalker } from "./walk.ts";

/**
 * How exactly a name matched, best first: 0 the whole name (written as typed, or the only name of
 * its skeleton), 1 the whole name where another name of its skeleton is written as typed
 * (`Dessauerstraße` for `Dessauer Straße`), 2 the whole name without its leading words
 * (`Kupfergraben` for `Am Kupfergraben`), 3 a name begun (typing), 4 a name begun without its
 * leading words.
 */
export const TIERS = 5;

/** A street name found: its streets [position, position + count) of the street order. */
export interface NameHit {
  readonly position: number;
  readonly count: number;
  readonly typos: number;
  readonly tier: number;
}

/** Names a part may find at most: a shorter prefix shared by more names finds the first ones in order. */
export const MAX_NAMES = 2000;

const walker = new TrieWalker();

/** The skeletons a part is walked for: its own, and in prefix mode as typed (`Str` may begin `Strelitzer`). */
export function queriesOf(part: Part, alphabet: Alphabet): Uint8Array[] {
  const own = alphabet.encode(part.skeleton);
  return part.raw === undefined ? [own] : [own, alphabet.encode(part.raw)];
}

/** The pair keys whose shards hold every name a walk for `query` may find (names.ts). */
export function pairsToRead(query: Uint8Array, k: number): string[] {
  const pairs = pairsOf(query);
  return k === 0 ? pairs.slice(0, 1) : pairs;
}

const better = (a: { typos: number; tier: number }, b: { typos: number; tier: number }) =>
  a.typos < b.typos || (a.typos === b.typos && a.tier < b.tier);

/** Typos and tier of a skeleton found (full, prefix: the walk's distances) for a payload's words, flags and spelling. */
function judge(
  query: Uint8Array,
  part: Part,
  full: number,
  prefix: number,
  path: Uint8Array,
  depth: number,
  payload: Pick<NamePayload, "words" | "flags" | "spelling">,
): { typos: number; tier: number } | undefined {
  let [f, p] = [full, prefix];
  // A walk counts every edit alike: an edit needs the words' check, an exact match does not.
  if ((f > 0 && f < FAR) || (p > 0 && p < FAR)) {
    const typos = typosOf(query, path, depth, payload.words, f < FAR, part.prefix);
    [f, p] = [f < FAR ? typos.full : FAR, part.prefix ? typos.prefix : FAR];
  }
  const leftOut = (payload.flags & LEFT_OUT_WORDS) !== 0;
  const otherwise = payload.spelling !== undefined && payload.spelling !== part.spelling;
  const whole = f < FAR ? { typos: f, tier: leftOut ? 2 : otherwise ? 1 : 0 } : undefined;
  const begun = p < FAR ? { typos: p, tier: leftOut ? 4 : 3 } : undefined;
  if (whole === undefined) return begun;
  return begun !== undefined && better(begun, whole) ? begun : whole;
}

/** Walks name shards for a part; adds each name found to `found` (by its first position) with its best typos and tier. */
export function findNames(
  part: Part,
  alphabet: Alphabet,
  shardOf: (pair: string) => Uint8Array | undefined,
  found: Map<number, NameHit>,
): void {
  // Names as typed first: a short prefix's many names must not be crowded out by names with typos.
  for (const k of part.k === 0 ? [0] : [0, part.k]) {
    if (k > 0 && found.size >= MAX_NAMES) return;
    const limit = found.size + MAX_NAMES;
    walkNames(part, k, alphabet, shardOf, found, limit);
  }
}

function walkNames(
  part: Part,
  k: number,
  alphabet: Alphabet,
  shardOf: (pair: string) => Uint8Array | undefined,
  found: Map<number, NameHit>,
  limit: number,
): void {
  for (const query of queriesOf(part, alphabet)) {
    const tries = new Set(pairsToRead(query, k).map(shardOf));
    for (const trie of tries) {
      if (trie === undefined) continue;
      walker.walk(trie, query, k, part.prefix, (from, to, full, prefix, path, depth) => {
        for (const payload of namePayloads(trie, from, to)) {
          const judged = judge(query, part, full, prefix, path, depth, payload);
          if (judged === undefined) continue;
          const known = found.get(payload.position);
          if (known === undefined || better(judged, known))
            found.set(payload.position, {
              position: payload.position,
              count: payload.count,
              ...judged,
            });
        }
        return found.size < limit;
      });
    }
  }
}

/** Per place, the fewest typos of a locality of the part that holds it, one more for a locality found by its first name alone (NO_PLACE: none); undefined when no locality is near the part. */
export function findLocalities(
  part: Part,
  alphabet: Alphabet,
  trie: Uint8Array,
  places: number,
): Uint8Array | undefined {
  const typos = new Uint8Array(places).fill(NO_PLACE);
  let any = false;
  const prefix = part.prefix && Array.from(part.skeleton).length >= 3;
  const localityPart = { ...part, prefix };
  for (const query of queriesOf(localityPart, alphabet))
    walker.walk(trie, query, part.k, prefix, (from, to, full, pre, path, depth) => {
      for (const payload of localityPayloads(trie, from, to)) {
        const judged = judge(query, localityPart, full, pre, path, depth, {
          words: payload.words,
          flags: 0,
        });
        if (judged === undefined) continue;
        any = true;
        // A locality found by its first name only (`Frankfurt` for `Frankfurt am Main`) is one step further.
        const cost = judged.typos + (payload.flags & 1);
        for (const place of payload.places)
          if (cost < (typos[place] ?? NO_PLACE)) typos[place] = cost;
      }
      return true;
    });
  return any ? typos : undefined;
}

/** A place no locality of the text holds. */
export const NO_PLACE = 255;
