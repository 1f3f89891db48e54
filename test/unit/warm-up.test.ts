import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  SETTLING_REQUESTS,
  SUGGESTION_ROUNDS,
  WARM_UP_REQUESTS,
  WARM_UP_ROUNDS,
  WARM_UP_SUGGESTIONS,
  memoryAssets,
  ORIGIN,
  warmUp,
} from "../../generator/edge/warm-up.ts";
import { warmKernels } from "../../generator/edge/warm-kernels.ts";
import {
  madeUpTrie,
  primeWalkCallbacks,
  PRIME_ROUNDS,
  TRIE_NAMES,
  warmSuggestKernels,
} from "../../generator/edge/warm-suggest.ts";
import { namePayloads } from "../../generator/contract/suggest/names.ts";
import { Alphabet } from "../../generator/contract/suggest/trie.ts";
import { TrieWalker } from "../../generator/contract/suggest/walk.ts";
import { WARM_UP_FILES } from "../../generator/edge/warm-up-files.ts";
import { renderWarmUpModule, WARM_UP_MODULE } from "../support/warm-up-build.ts";

/** What each warm-up request must answer on the bundle's build: the kinds of work it is there to compile. */
const EXPECTED: Readonly<Record<string, number>> = {
  "/de/Streets?name=[": 400,
  "/de/Nowhere": 404,
};

describe("the Worker's startup warm-up", () => {
  it("answers every request on the build in the bundle as it would on a real one", async () => {
    const statuses = await warmUp();
    expect(
      Object.fromEntries(WARM_UP_REQUESTS.map(([target], i) => [target, statuses[i]])),
    ).toEqual(
      Object.fromEntries(WARM_UP_REQUESTS.map(([target]) => [target, EXPECTED[target] ?? 200])),
    );
    // Then the suggestion rounds, each suggestion answered again, then the whole list again.
    expect(WARM_UP_SUGGESTIONS.length).toBeGreaterThan(0);
    const roundsEnd = WARM_UP_REQUESTS.length + SUGGESTION_ROUNDS * WARM_UP_SUGGESTIONS.length;
    expect(statuses.slice(WARM_UP_REQUESTS.length, roundsEnd)).toEqual(
      Array(SUGGESTION_ROUNDS * WARM_UP_SUGGESTIONS.length).fill(200),
    );
    expect(WARM_UP_ROUNDS).toBeGreaterThan(1);
    const againEnd = roundsEnd + (WARM_UP_ROUNDS - 1) * WARM_UP_REQUESTS.length;
    expect(statuses.slice(roundsEnd, againEnd)).toEqual(
      Array.from({ length: WARM_UP_ROUNDS - 1 }, () =>
        statuses.slice(0, WARM_UP_REQUESTS.length),
      ).flat(),
    );
    // Last, every request on a page of one row, answered as on a whole page.
    expect(SETTLING_REQUESTS.map(([target]) => target)).toContain(
      "/de/Streets?locality=Berlin&page=2&pageSize=1",
    );
    expect(statuses.slice(againEnd)).toEqual(statuses.slice(0, WARM_UP_REQUESTS.length));
  });

  it("runs the long loops on the build in the bundle (warm-kernels.ts), and fails where it has no index", async () => {
    const assets = memoryAssets(WARM_UP_FILES);
    expect(await warmKernels(assets, ORIGIN, "de", 2)).toBeGreaterThan(0);
    await expect(warmKernels(assets, ORIGIN, "xx", 1)).rejects.toThrow();
  });

  it("runs the loops of suggestions beside a place on the build in the bundle (warm-suggest.ts)", async () => {
    const assets = memoryAssets(WARM_UP_FILES);
    expect(await warmSuggestKernels(assets, ORIGIN, "de", 2)).toBeGreaterThan(0);
    await expect(warmSuggestKernels(assets, ORIGIN, "xx", 1)).rejects.toThrow();
  });

  it("calls a walk's callback from both of its call sites (a node's, a collected subtree's), with each of two callbacks", () => {
    // Two hits a walk, one of them collected, for each callback: anything less leaves a call site with one target.
    expect(primeWalkCallbacks()).toEqual([2 * PRIME_ROUNDS, 2 * PRIME_ROUNDS]);
  });

  it("makes up a trie of names of every kind: spelled, of one to three words, within the build's streets", () => {
    const trie = madeUpTrie(Alphabet.of([]), 100);
    const payloads: ReturnType<typeof namePayloads> = [];
    // In prefix mode a walk for nothing collects every skeleton.
    new TrieWalker().walk(trie, new Uint8Array(0), 0, true, (from, to) => {
      payloads.push(...namePayloads(trie, from, to));
      return true;
    });
    expect(payloads).toHaveLength(TRIE_NAMES);
    expect(payloads.filter((p) => p.spelling !== undefined).length).toBeGreaterThan(TRIE_NAMES / 6);
    expect(new Set(payloads.map((p) => p.words.length))).toEqual(new Set([1, 2, 3]));
    expect(payloads.filter((p) => p.words.some((word) => word.length <= 0))).toEqual([]);
    expect(Math.max(...payloads.map((p) => p.position + p.count))).toBeLessThanOrEqual(100);
  });

  it("holds the files of today's format: warm-up-files.ts is what `npm run warm-up-files` writes", async () => {
    const { source } = await renderWarmUpModule();
    expect(source === readFileSync(WARM_UP_MODULE, "utf8"), "run `npm run warm-up-files`").toBe(
      true,
    );
  });
});
