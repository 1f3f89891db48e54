import { BITMAP_DENSITY, LONG_PREFIX_DENSITY } from "../contract/search/bitmaps.ts";
import { encodeGramCounts } from "../contract/search/gram-counts.ts";
import { NAME_START } from "../contract/search/store.ts";

/**
 * The per-place counts of the dense short n-grams (contract/search/gram-counts.ts). `grams`: each
 * n-gram's runs (as the trigram lists hold them), `runs` the runs' first street and length,
 * `placeOf` each street's place. `write` takes the n-th file's bytes; returns the n-grams, the
 * n-th file's n-th.
 */
export function writeGramCounts(
  grams: readonly (readonly [string, Int32Array])[],
  runs: { readonly start: ArrayLike<number>; readonly length: ArrayLike<number> },
  placeOf: ArrayLike<number>,
  places: number,
  count: number,
  write: (n: number, bytes: Uint8Array) => void,
): string[] {
  const keys: string[] = [];
  for (const [gram, ofRuns] of grams) {
    const length = [...gram].length;
    // A name's start (NAME_START) has no counts: no path asks for them. N-grams longer than three
    // are the common ones (build/search-keys.ts), counted when as dense as 3-grams.
    if (length === 0 || gram.startsWith(NAME_START)) continue;
    let streets = 0;
    for (const run of ofRuns) streets += runs.length[run] ?? 0;
    if (streets * (length > 2 ? LONG_PREFIX_DENSITY : BITMAP_DENSITY) < count) continue;
    const counts = new Int32Array(places);
    for (const run of ofRuns) {
      const first = runs.start[run] ?? 0;
      const end = first + (runs.length[run] ?? 0);
      for (let position = first; position < end; position++) counts[placeOf[position] ?? 0]!++;
    }
    write(keys.push(gram) - 1, encodeGramCounts(counts));
  }
  return keys;
}
