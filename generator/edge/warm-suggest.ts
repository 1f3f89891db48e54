/**
 * The warm-up's loops for suggestions (warm-up.ts) that its own requests, on a build of a few
 * hundred names, run too little or not at all for V8 to compile them at startup: measured with
 * `bench:fresh --deopts` (docs/SUGGESTIONS.md, "The warm-up's made-up names"), such code was
 * compiled or thrown away inside national first requests.
 *
 * - Names beside a place: a town and a street's first letters (`münchen str`) find hundreds of
 *   names, whose places are read and ranked by their nearness to the town (`placesOfNames`,
 *   `groupOf` and a place's proximity), with filters of each shape that suggest-find.ts
 *   Finder.filterOf makes (a locality, a postal code, both), made as it makes them.
 * - A national trie: a short prefix collects thousands of names, their payloads of every kind
 *   (spelled, of one to three words) and their places. Here whole suggestions (suggestGroups:
 *   every pass, the places, the groups) run on a trie of made-up names, with the build's own
 *   localities and places.
 */
import type { NameHit } from "../contract/suggest/find.ts";
import { spellingOf, typoAllowance } from "../contract/suggest/fold.ts";
import { encodeNamePayload, LEFT_OUT_WORDS } from "../contract/suggest/names.ts";
import {
  groupOf,
  localityFilter,
  postalFilter,
  proximities,
  type PlaceFilter,
} from "../contract/suggest/rank.ts";
import { readingsOf } from "../contract/suggest/text.ts";
import { encodeTrie, type Alphabet, type TrieEntry } from "../contract/suggest/trie.ts";
import { TrieWalker } from "../contract/suggest/walk.ts";
import { AssetStore, type Assets } from "./assets.ts";
import { Finder, PAGE_RESERVE, readFor, suggestGroups } from "./suggest-find.ts";
import { SuggestIndex } from "./suggest-index.ts";
import { SuggestStreets } from "./suggest-streets.ts";

/** Names placed each round: a short prefix's hundreds. */
const NAMES = 512;

/** Postal codes (their first digits) found each round, and the places each is compared with. */
const [POSTAL_CODES, SHARED_PLACES] = [100, 64];

/** Names of the made-up trie: a short prefix's thousands (`Str` finds 654 nationally, `Sch` 1,148). */
export const TRIE_NAMES = 1024;

/** Rounds of the passes over the made-up trie. */
const TRIE_ROUNDS = 3;

/** What the made-up names are made of. */
const SYLLABLES = ["sch", "ill", "er", "str", "asse", "berg", "weg", "ring", "bach", "lind", "en"];

/** Texts suggested on the made-up trie: short prefixes alone and beside a town or postal code, a name begun. */
const TEXTS = ["sch", "str", "bergweg", "lindenbach 9", "berlin str", "1011 sch"];

/** Runs the loops over the warm-up build (`assets`) for `rounds` rounds; resolves to a checksum. */
export async function warmSuggestKernels(
  assets: Assets,
  origin: string,
  country: string,
  rounds: number,
): Promise<number> {
  const store = new AssetStore(assets);
  const streets = await SuggestStreets.open(store, origin, country);
  const budget = streets.budget();
  const index = await SuggestIndex.open(store, origin, country);
  const places = await index.places(budget);
  // Two closures of each kind, as requests make one each: V8 then checks the closures' origin, not one closure.
  const near = new Map([[places.localityOf(0), 0]]);
  const filters: PlaceFilter[] = [
    { locality: localityFilter(places, near), postal: undefined },
    { locality: undefined, postal: postalFilter(places, "10117") },
    { locality: localityFilter(places, near), postal: postalFilter(places, "1011") },
  ];
  const names: NameHit[] = Array.from({ length: NAMES }, (_, i) => ({
    position: i % (streets.count - 2),
    count: 1 + (i % 3),
    typos: 0,
    tier: 0,
  }));
  const trie = madeUpTrie(index.alphabet, streets.count);
  const readings = TEXTS.flatMap(readingsOf);
  let sum = 0;
  for (let round = 0; round < rounds; round++) {
    const read = await streets.placesOfNames(names, budget, PAGE_RESERVE);
    // A proximity memo per name, not per filter: each name then works out its places' proximity
    // (placeProximity), as a national request does for its many places.
    for (const filter of filters)
      for (const [i, hit] of names.entries())
        sum += groupOf(hit, filter, read[i], proximities(streets.places))?.count ?? 1;
    // A postal code's places (binary searches) and the digits each place shares with it: per name
    // found beside a postal code nationally, a few times per request here.
    for (let digits = 0; digits < POSTAL_CODES; digits++) {
      const postal = postalFilter(places, String(digits));
      for (let place = 0; place < SHARED_PLACES; place++)
        sum += postal.shared(place % places.places);
    }
  }
  for (let round = 0; round < TRIE_ROUNDS; round++) {
    const spent = streets.budget();
    const read = await readFor(index, readings, spent);
    const finder = new Finder(index, { ...read, shardOf: () => trie });
    sum += (await suggestGroups(streets, finder, readings, spent)).length;
  }
  return sum;
}

/**
 * A trie of TRIE_NAMES made-up names of two to four syllables, of one to three words (in one in
 * four the first tolerating no typo, as `Am`), one in five spelled (another name has its
 * skeleton), one in seven without its leading words.
 */
export function madeUpTrie(alphabet: Alphabet, streets: number): Uint8Array {
  const entries: TrieEntry[] = [];
  for (let i = 0; i < TRIE_NAMES; i++) {
    let skeleton = "";
    for (let n = i, s = 0; s < 2 + (i % 3); s++, n = Math.floor(n / SYLLABLES.length))
      skeleton += SYLLABLES[n % SYLLABLES.length] ?? "";
    // One to three words, split where i says: shapes as many and as varied as a national trie's.
    const length = skeleton.length;
    const cuts = [...new Set([2 + (i % 5), 4 + (i % 7)])]
      .filter((cut) => cut < length)
      .sort((a, b) => a - b);
    const ends = [...cuts.slice(0, i % 3), length];
    const words = ends.map((end, w) => {
      const letters = end - (w === 0 ? 0 : (ends[w - 1] ?? 0));
      return { length: letters, allowance: w === 0 && i % 4 === 0 ? 0 : typoAllowance(letters) };
    });
    const payload = encodeNamePayload({
      flags: i % 7 === 0 ? LEFT_OUT_WORDS : 0,
      position: i % (streets - 4),
      count: 1 + (i % 4),
      words,
      ...(i % 5 === 0 ? { spelling: spellingOf(skeleton) } : {}),
    });
    entries.push({ key: alphabet.encode(skeleton), payload });
  }
  return encodeTrie(entries);
}

/** Walks of each callback in primeWalkCallbacks. */
export const PRIME_ROUNDS = 64;

/**
 * A trie of a node with one payload and a child with one (`a`): a walk for nothing reports the
 * first as a whole skeleton, and in prefix mode the second as a collected subtree.
 */
const TWO_HITS = new Uint8Array([0, 1, 0, 1, 5, 1, 1, 1, 0, 0]);

/**
 * Walks a trie with two callbacks of their own, before any suggestion: the walk's call of its
 * callback then has more targets than V8 inlines. The requests' two (names and localities,
 * find.ts) came one after the other in the warm-up, so TurboFan compiled `visit` with the first
 * inlined at startup and threw it away at the second ("wrong feedback cell"); the next compile
 * was inside the first real request (5–6 ms of a 10–13 ms `Schillerstr Dresden 01`). V8 keeps
 * no feedback for a function's first few calls, so the walks run a few dozen times.
 */
export function primeWalkCallbacks(): readonly [number, number] {
  const hits: [number, number] = [0, 0];
  const walker = new TrieWalker();
  for (let round = 0; round < PRIME_ROUNDS; round++) {
    walker.walk(TWO_HITS, new Uint8Array(0), 0, true, () => ++hits[0] > 0);
    walker.walk(TWO_HITS, new Uint8Array(0), 0, true, () => ++hits[1] > 0);
  }
  return hits;
}
