import {
  BITMAP_DENSITY,
  bitmapBytes,
  bitmapWords,
  LONG_PREFIX_DENSITY,
  termKey,
} from "../contract/search/bitmaps.ts";
import { popcount } from "../contract/search/kernels.ts";

/** The bitmaps of an index: the keys of files 0, 1, … and the keys whose set is a file's already. */
export interface WrittenBitmaps {
  readonly files: string[];
  readonly aliases: [string, number][];
}

/**
 * The bitmaps of a country's index (contract/search/bitmaps.ts): of every lexeme and every
 * two-character prefix on at least one street in BITMAP_DENSITY, and of every longer prefix (search
 * as you type sends them) on at least one in LONG_PREFIX_DENSITY. `lexemes` in key order, so a prefix's lexemes follow each other; `write` takes
 * the n-th bitmap's bytes. A prefix whose streets are those of a shorter prefix or of one of its
 * lexemes (`straß*` of `straß`) is no file of its own but an alias of that one's.
 */
export function writeBitmaps(
  lexemes: readonly (readonly [string, Int32Array])[],
  count: number,
  write: (n: number, bytes: Uint8Array) => void,
): WrittenBitmaps {
  const files: string[] = [];
  const aliases: [string, number][] = [];
  const dense = (streets: number) => streets * BITMAP_DENSITY >= count;
  const densePrefix = (prefix: string, streets: number) =>
    streets * (prefix.length > 2 ? LONG_PREFIX_DENSITY : BITMAP_DENSITY) >= count;
  const emit = (key: string, words: Uint32Array) => write(files.push(key) - 1, bitmapWords(words));
  const words = new Uint32Array(bitmapBytes(count) / 4);
  // Each lexeme's file, if it has one: a prefix of the same streets is its alias.
  const lexemeFile = new Int32Array(lexemes.length).fill(-1);
  lexemes.forEach(([lexeme, positions], i) => {
    if (!dense(positions.length)) return;
    lexemeFile[i] = files.length;
    emit(termKey({ lexeme, prefix: false }), fill(words.fill(0), positions));
  });
  // Prefixes whose lists sum to dense (a bound on their streets), shortest first: a parent before its children.
  const byPrefix = new Map<string, { count: number; file: number }>();
  for (const { prefix, from, to } of densePrefixes(lexemes, densePrefix)) {
    words.fill(0);
    let largest = -1;
    for (let i = from; i < to; i++) {
      const positions = (lexemes[i] as readonly [string, Int32Array])[1];
      fill(words, positions);
      if (lexemeFile[i] !== -1 && (largest === -1 || positions.length > largestCount(largest)))
        largest = i;
    }
    let streets = 0;
    for (const word of words) streets += popcount(word);
    if (!densePrefix(prefix, streets)) continue;
    const key = termKey({ lexeme: prefix, prefix: true });
    const parent = byPrefix.get(prefix.slice(0, -1));
    // A subset of the same size is the same set.
    const file =
      parent !== undefined && parent.count === streets
        ? parent.file
        : largest !== -1 && largestCount(largest) === streets
          ? (lexemeFile[largest] as number)
          : -1;
    if (file === -1) {
      byPrefix.set(prefix, { count: streets, file: files.length });
      emit(key, words);
    } else {
      byPrefix.set(prefix, { count: streets, file });
      aliases.push([key, file]);
    }
  }
  return { files, aliases };

  function largestCount(i: number): number {
    return (lexemes[i] as readonly [string, Int32Array])[1].length;
  }
}

/**
 * The prefixes of two or more characters whose lexemes' lists sum to dense, with the range
 * [from, to) of their lexemes, shortest prefixes first. One pass over the sorted lexemes: the
 * prefixes of the current lexeme are a stack, a level closed when the next lexeme leaves it.
 */
function densePrefixes(
  lexemes: readonly (readonly [string, Int32Array])[],
  dense: (prefix: string, streets: number) => boolean,
): { prefix: string; from: number; to: number }[] {
  const found: { prefix: string; from: number; to: number }[] = [];
  const open: { prefix: string; from: number; sum: number }[] = [];
  const close = (keep: number, to: number) => {
    while (open.length > keep) {
      const level = open.pop() as { prefix: string; from: number; sum: number };
      if (dense(level.prefix, level.sum))
        found.push({ prefix: level.prefix, from: level.from, to });
    }
  };
  lexemes.forEach(([lexeme, positions], i) => {
    // Levels are prefixes of length 2, 3, …: keep those this lexeme still starts with.
    let keep = 0;
    while (keep < open.length && lexeme.startsWith((open[keep] as { prefix: string }).prefix))
      keep++;
    close(keep, i);
    for (let length = keep + 2; length <= lexeme.length; length++)
      open.push({ prefix: lexeme.slice(0, length), from: i, sum: 0 });
    for (const level of open) level.sum += positions.length;
  });
  close(0, lexemes.length);
  return found.sort((a, b) => a.prefix.length - b.prefix.length || (a.prefix < b.prefix ? -1 : 1));
}

function fill(words: Uint32Array, positions: Int32Array): Uint32Array {
  for (const position of positions) words[position >>> 5]! |= 1 << (position & 31);
  return words;
}
