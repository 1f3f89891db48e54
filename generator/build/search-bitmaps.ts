import { BITMAP_DENSITY, bitmapBytes, bitmapWords } from "../contract/search/bitmaps.ts";
import { popcount } from "../contract/search/bitsets.ts";
import { termKey } from "../contract/search/fulltext.ts";

/**
 * The bitmaps of a country's index (contract/search/bitmaps.ts): of every lexeme, and of every
 * two-character prefix (the shortest search as you type sends), on at least one street in
 * BITMAP_DENSITY. `lexemes` in key order, so a prefix's lexemes follow each other; `write` takes
 * the n-th bitmap's bytes. Returns the keys (termKey) of the bitmaps, the n-th file's n-th.
 */
export function writeBitmaps(
  lexemes: readonly (readonly [string, Int32Array])[],
  count: number,
  write: (n: number, bytes: Uint8Array) => void,
): string[] {
  const keys: string[] = [];
  const dense = (streets: number) => streets * BITMAP_DENSITY >= count;
  const words = new Uint32Array(bitmapBytes(count) / 4);
  let prefix = "";
  const flush = () => {
    let streets = 0;
    for (const word of words) streets += popcount(word);
    if (prefix !== "" && dense(streets))
      write(keys.push(termKey({ lexeme: prefix, prefix: true })) - 1, bitmapWords(words));
    words.fill(0);
  };
  for (const [lexeme, positions] of lexemes) {
    if (dense(positions.length))
      write(
        keys.push(termKey({ lexeme, prefix: false })) - 1,
        bitmapWords(fill(new Uint32Array(words.length), positions)),
      );
    const [a = "", b = ""] = lexeme;
    const own = b === "" ? "" : a + b;
    if (own !== prefix) {
      flush();
      prefix = own;
    }
    if (own !== "") fill(words, positions);
  }
  flush();
  return keys;
}

function fill(words: Uint32Array, positions: Int32Array): Uint32Array {
  for (const position of positions) words[position >>> 5]! |= 1 << (position & 31);
  return words;
}
