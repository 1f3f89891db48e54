/**
 * The street names and localities within a part's typos (text.ts Part): walks over the tries
 * (walk.ts), each skeleton found checked word by word (distance.ts), each name kept with its
 * fewest typos and its tier.
 */
import { typosIn, type WordShape } from "./distance.ts";
import { MAX_TYPOS, typoAllowance } from "./fold.ts";
import { LEFT_OUT_WORDS, namePayloads, queryPairs, type NamePayload } from "./names.ts";
import { localityPayloads } from "./places.ts";
import type { Alphabet } from "./trie.ts";
import type { Part } from "./text.ts";
import { FAR, TrieWalker, type OnHit } from "./walk.ts";

/**
 * How exactly a name matched, best first: 0 the whole name written as typed (its skeleton, and
 * among names of one skeleton its spelling), 1 the whole name written otherwise (`Jaehnstraße`
 * for `Jahnstraße`, `Dessauerstraße` for `Dessauer Straße`), 2 the whole name without its leading words
 * (`Kupfergraben` for `Am Kupfergraben`), 3 a name begun as typed (its skeleton starts with the
 * query), 4 a name begun otherwise (through a free letter: `Raue` begins Rauchstraße as `Rau`),
 * 5 a name begun without its leading words.
 */
export const TIERS = 6;

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

/**
 * The pair keys whose shards hold every name a walk for `query` within `k` typos may find
 * (names.ts). A query that starts with leading words reads the pairs after them; with typos its
 * own pairs too, since a typo may make a leading word of another word (`Hinter Achmühlerstraße`
 * for `Hintere …`).
 */
export function pairsToRead(query: Uint8Array, k: number, lead = 0): string[] {
  if (lead <= 0 || lead >= query.length) return queryPairs(query, k);
  const after = queryPairs(query.subarray(lead), k);
  return k === 0 ? after : [...new Set([...after, ...queryPairs(query, k)])];
}

const better = (a: { typos: number; tier: number }, b: { typos: number; tier: number }) =>
  a.typos < b.typos || (a.typos === b.typos && a.tier < b.tier);

/**
 * Typos and tier of a skeleton found (full, prefix: the walk's distances) for a payload's words,
 * flags and spelling; `subtree`: the collected subtree it is in (walk.ts), -1 when none.
 */
function judge(
  query: Uint8Array,
  part: Part,
  full: number,
  prefix: number,
  path: Uint8Array,
  depth: number,
  payload: Pick<NamePayload, "words" | "flags" | "spelling">,
  subtree: number,
): { typos: number; tier: number } | undefined {
  let f = full;
  let p = prefix;
  // A walk counts every edit alike: an edit needs the words' check, unless every word tolerates
  // one (then the walk's count is the check's) and the words reached tolerate as many. Loops, not
  // every/reduce/some: this runs per name found, in a fresh isolate's lower tiers.
  const words = payload.words;
  let everyWord = true;
  let allowances = 0;
  for (let i = 0; i < words.length; i++) {
    const allowance = (words[i] as WordShape).allowance;
    if (allowance === 0) everyWord = false;
    allowances += allowance;
  }
  const all = Math.min(MAX_TYPOS, allowances);
  // The check only adds to the walk's count (an edit costs at least one there): a name whose words
  // tolerate fewer typos than the walk counted is out without it.
  if (f > all && p > all) return undefined;
  const first = words[0]?.allowance ?? 0;
  const fullDone = f === 0 || f >= FAR || (everyWord && f <= all);
  // The prefix's typos lie in the words the path reaches [0, depth): when each of those tolerates
  // one, the walk's count is the check's (a short prefix beside a number: `Straße` of Straße 223).
  let reachedTolerate = true;
  for (let i = 0, end = 0; i < words.length && end < depth; i++) {
    const word = words[i] as WordShape;
    if (word.allowance === 0) {
      reachedTolerate = false;
      break;
    }
    end += word.length;
  }
  const prefixDone = p === 0 || p >= FAR || (reachedTolerate && p <= first);
  if (!fullDone || !prefixDone) {
    const typos = typosIn(query, path, depth, words, f < FAR, part.prefix, subtree);
    f = f < FAR ? typos.full : FAR;
    p = part.prefix ? typos.prefix : FAR;
  }
  const leftOut = (payload.flags & LEFT_OUT_WORDS) !== 0;
  // Written as typed: the same skeleton (and spelling); begun as typed: a path (as far as the
  // walk computed it) that starts with the whole query.
  const m = query.length;
  let same = 0;
  while (same < depth && same < m && path[same] === query[same]) same++;
  const otherwise =
    depth !== m ||
    same < m ||
    (payload.spelling !== undefined && payload.spelling !== part.spelling);
  const whole = f < FAR ? { typos: f, tier: leftOut ? 2 : otherwise ? 1 : 0 } : undefined;
  const begun = p < FAR ? { typos: p, tier: leftOut ? 5 : same < m ? 4 : 3 } : undefined;
  if (whole === undefined) return begun;
  return begun !== undefined && better(begun, whole) ? begun : whole;
}

/**
 * Fewer names found as typed than this by a part being typed (none by a whole one), and names with
 * typos are looked for too (Typesense's typo_tokens_threshold): a name being typed is found as
 * typed, a misspelt one with its typos, also when what was typed begins a few other names
 * (`Ahornwag` for Ahornweg beside Ahornwagen).
 */
export const TYPO_THRESHOLD = 5;

/**
 * Whether a part leaves room for names with `typos` typos, having found `found` names with fewer:
 * one typo when it found fewer than TYPO_THRESHOLD names being typed or none as a whole; two when
 * it found none (Typesense's typo escalation: a name within one typo is not crowded by names
 * within two).
 */
export const wantsTypos = (part: Part, typos: number, found: number): boolean =>
  typos <= part.k && (typos === 1 ? found < (part.prefix ? TYPO_THRESHOLD : 1) : found === 0);

/** A pass over a street part: within `typos` typos, its skeleton as written out or as typed (`raw`). */
export interface Pass {
  readonly typos: number;
  readonly raw: boolean;
}

/** A street part and the names it has found so far (by their first position). */
export interface PartNames {
  readonly part: Part;
  readonly found: Map<number, NameHit>;
}

/** A part's walk in a pass: its query, and the parts whose queries begin it (walked along). */
interface Walk extends PartNames {
  readonly query: Uint8Array;
  /** The pair keys of the tries it reads (pairsToRead), once. */
  readonly pairs: readonly string[];
  readonly riders: Walk[];
}

/**
 * One pass over some street parts: each part's names within `pass.typos` typos (0: as typed), for
 * its skeleton with abbreviations written out, or as typed (`Kralshorstr`); each name added to its
 * `found` by its first position, with its best typos and tier. A part whose query is a beginning
 * of another's, not being typed, with the same tries to read (`Gaenlusstraße` beside the postal
 * code 9, and `Gaenlusstraße 9` as typed), rides along that one's walk (walk.ts `also`): the same
 * names, with the table's rows computed once.
 */
export function findNames(
  parts: readonly PartNames[],
  alphabet: Alphabet,
  shardOf: (pair: string) => Uint8Array | undefined,
  pass: Pass,
): void {
  const walks: Walk[] = parts.flatMap(({ part, found }) => {
    const query = queriesOf(part, alphabet)[pass.raw ? 1 : 0];
    if (query === undefined) return [];
    return [{ part, found, query, pairs: pairsToRead(query, pass.typos, part.lead), riders: [] }];
  });
  const sameTries = (a: Walk, b: Walk) =>
    a.pairs.length === b.pairs.length && a.pairs.every((pair, i) => b.pairs[i] === pair);
  // Longest first, so that a rider's leader rides nothing itself.
  const byLength = [...walks].sort((a, b) => b.query.length - a.query.length);
  const riding = new Set<Walk>();
  for (const walk of byLength) {
    if (walk.part.prefix) continue;
    const leader = byLength.find(
      (other) =>
        !riding.has(other) &&
        other.query.length > walk.query.length &&
        walk.query.every((code, i) => other.query[i] === code) &&
        sameTries(other, walk),
    );
    if (leader === undefined) continue;
    leader.riders.push(walk);
    riding.add(walk);
  }
  for (const walk of walks) if (!riding.has(walk)) walkNames(walk, pass.typos, shardOf);
}

/** Walks the tries of a query's pairs; adds each name found to its part and its riders' (each at most MAX_NAMES more per trie). */
function walkNames(lead: Walk, k: number, shardOf: (pair: string) => Uint8Array | undefined): void {
  const walks = [lead, ...lead.riders];
  const limits = walks.map((walk) => walk.found.size + MAX_NAMES);
  const open = walks.map(() => true);
  const riderLengths = lead.riders.map((walk) => walk.query.length);
  for (const trie of lead.pairs.map(shardOf)) {
    if (trie === undefined) continue;
    open.fill(true);
    const onHit: OnHit = (from, to, full, prefix, path, depth) => {
      // Decoded once for the lead and its riders, and only when one of them takes the hit.
      let payloads: NamePayload[] | undefined;
      const subtree = walker.subtree;
      let anyOpen = false;
      for (let i = 0; i < walks.length; i++) {
        const { part, found, query } = walks[i] as Walk;
        const f = i === 0 ? full : walker.fullAt(query.length);
        const p = i === 0 ? prefix : FAR;
        if (open[i] && (f <= k || p <= k)) {
          payloads ??= namePayloads(trie, from, to);
          for (let n = 0; n < payloads.length; n++) {
            const payload = payloads[n] as NamePayload;
            const judged = judge(query, part, f, p, path, depth, payload, subtree);
            if (judged === undefined) continue;
            const known = found.get(payload.position);
            if (known === undefined || better(judged, known))
              found.set(payload.position, {
                position: payload.position,
                count: payload.count,
                typos: judged.typos,
                tier: judged.tier,
              });
          }
          if (found.size >= (limits[i] ?? 0)) open[i] = false;
        }
        if (open[i]) anyOpen = true;
      }
      return anyOpen;
    };
    walker.walk(trie, lead.query, k, lead.part.prefix, onHit, riderLengths);
  }
}

/**
 * The localities near a part, within `upTo` typos: each locality's number with its fewest typos,
 * one more when found by its first name alone (`Frankfurt` for `Frankfurt am Main`); undefined
 * when none is near. Typos only when none is found with fewer.
 */
export function findLocalities(
  part: Part,
  alphabet: Alphabet,
  trieOf: (pair: string) => Uint8Array | undefined,
  upTo = MAX_TYPOS,
): Map<number, number> | undefined {
  const found = new Map<number, number>();
  // A locality being typed is found as typed; a whole one, or one typed that begins none, with typos.
  const prefix = part.prefix && Array.from(part.skeleton).length >= 3;
  const localityPart = { ...part, prefix };
  const walk = (k: number, prefixed: boolean) => {
    for (const query of queriesOf(localityPart, alphabet))
      // The pairs within one typo: two typos among a locality's first three letters are not found.
      for (const trie of pairsToRead(query, Math.min(k, 1)).map(trieOf)) {
        if (trie === undefined) continue;
        const walked = { ...localityPart, prefix: prefixed };
        walker.walk(trie, query, k, prefixed, (from, to, full, pre, path, depth) => {
          for (const payload of localityPayloads(trie, from, to)) {
            const judged = judge(
              query,
              walked,
              full,
              pre,
              path,
              depth,
              { words: payload.words, flags: 0 },
              walker.subtree,
            );
            if (judged === undefined) continue;
            const cost = judged.typos + (payload.flags & 1);
            if (cost < (found.get(payload.locality) ?? NO_PLACE)) found.set(payload.locality, cost);
          }
          return true;
        });
      }
  };
  walk(0, prefix);
  for (let k = 1; k <= Math.min(upTo, localityTypos(part)) && found.size === 0; k++) walk(k, false);
  return found.size === 0 ? undefined : found;
}

/** The typos a walk for a locality allows: a locality is no abbreviation, so a word may have lost one letter only. */
const localityTypos = (part: Part): number =>
  Math.min(
    part.k,
    MAX_TYPOS,
    part.words.reduce((sum, word) => sum + typoAllowance(word.letters + 1), 0),
  );

/** The cost of a place no locality of the text holds. */
export const NO_PLACE = 255;
