/**
 * Per-place counts of a short name n-gram (`/_s/{cc}/c/{n}.bin`): for a case-folded 1- or 2-gram
 * on at least one street in BITMAP_DENSITY, or a 3-gram on one in LONG_PREFIX_DENSITY, the number
 * of streets of each place whose name has it, as one varint per place in place order. A
 * `/Streets` name of one to three characters whose n-gram list is exactly its passing runs
 * (filter.ts foldIsExact) beside `postalCode` or `locality` is then counted as the sum over the
 * passing places, exactly, with no list read; only the page's streets are looked for
 * (edge/search-streets.ts scanMatching). `name=a&postalCode=1` holds half a million streets on
 * either side, more than a search may read. The common longer n-grams (the build lists them in at
 * least COMMON_GRAM_RUNS runs) have counts too when on one street in LONG_PREFIX_DENSITY:
 * `name=straße&postalCode=^53` is counted from them, and its page merged from the places' lists
 * (edge/search-short-names.ts countedOnPlaceLists), testing only the names up to the page's end.
 */
import { ByteReader, ByteWriter } from "./bytes.ts";

/** A place-count file's bytes: each place's count, a varint. */
export function encodeGramCounts(counts: Int32Array): Uint8Array {
  const out = new ByteWriter();
  for (const count of counts) out.varint(count);
  return out.view().slice();
}

/** The counts of `places` places. */
export function decodeGramCounts(bytes: Uint8Array, places: number): Int32Array {
  return new ByteReader(bytes).varints(new Int32Array(places));
}
