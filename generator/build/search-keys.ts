/** The build side of the search index's keys: the lexemes, n-grams, heads and runs of the indexed streets. */
import { ByteWriter } from "../contract/search/bytes.ts";
import { caseFoldKey } from "../contract/search/filter.ts";
import { lexemesOf, streetDocument } from "../contract/postgres/lexize.ts";
import {
  anchoredGrams,
  compareText,
  EVERY_NAME,
  BLOCK_ENTRIES,
  encodeBlock,
  gramsOf,
  NAME_END,
  NAME_START,
  PLAIN_NAME_LENGTH,
} from "../contract/search/store.ts";
import { Interner, PairList } from "./search-lists.ts";
import { namesOf, type IndexedStreets } from "./search-records.ts";

/** Every character of the names, once, in code point order. */
export function nameCharacters(names: readonly string[]): string {
  const seen = new Set<number>();
  let last = "";
  for (const name of names) {
    if (name === last) continue;
    last = name;
    for (const ch of name) seen.add(ch.codePointAt(0) ?? 0);
  }
  return String.fromCodePoint(...[...seen].sort((a, b) => a - b));
}

/** A lexeme's list: its streets' positions and, per street, its name bit (store.ts PLAIN_NAME_LENGTH). */
export interface LexemeList {
  readonly lexeme: string;
  readonly positions: Int32Array;
  readonly inName: Uint8Array;
}

/**
 * Every lexeme's list, by lexeme: a street has its name's lexemes and its place's (`Name PostalCode
 * Locality` is one document). A street's name bit is set when the lexeme is one of its name's, or
 * its name is not plain (long, or lexized whole with its place).
 */
export function lexemePositions(indexed: IndexedStreets): LexemeList[] {
  const { places, placeOf } = indexed;
  const ids = new Interner();
  const lexemeIds = (text: string) => [...lexemesOf(text).keys()].map((lexeme) => ids.id(lexeme));
  const placeLexemes = places.map((place) => lexemeIds(` ${place.postalCode} ${place.locality}`));
  const nameLexemes = new Map<string, number[]>();
  /** The lexemes of names with a tag, by position: a tag could span the fields, so the document is lexized whole. */
  const documents = new Map<number, number[]>();
  const names = namesOf(indexed);
  // The lexemes of each name (once per name) first, and the pairs they make at most, so that the
  // pairs' arrays are made at their size.
  let most = 0;
  names.forEach((text, position) => {
    if (text.includes("<")) {
      const place = places[placeOf[position] ?? 0];
      const document = lexemeIds(
        streetDocument(text, place?.postalCode ?? "", place?.locality ?? ""),
      );
      documents.set(position, document);
      most += document.length;
      return;
    }
    let name = nameLexemes.get(text);
    if (name === undefined) nameLexemes.set(text, (name = lexemeIds(text)));
    most += name.length + (placeLexemes[placeOf[position] ?? 0]?.length ?? 0);
  });
  // Pairs (lexeme, position * 2 + name bit): the counting sort keeps positions in order.
  const pairs = new PairList(most);
  names.forEach((text, position) => {
    const document = documents.size === 0 ? undefined : documents.get(position);
    if (document !== undefined) {
      for (const id of document) pairs.push(id, position * 2 + 1);
      return;
    }
    const name = nameLexemes.get(text) ?? [];
    const plain = text.length < PLAIN_NAME_LENGTH;
    for (const id of name) pairs.push(id, position * 2 + 1);
    for (const id of placeLexemes[placeOf[position] ?? 0] ?? [])
      if (!name.includes(id)) pairs.push(id, position * 2 + (plain ? 0 : 1));
  });
  const grouped = pairs.group(ids.values.length);
  return ids.values
    .map((lexeme, id) => {
      // The grouped pairs are this function's own: positions are taken out of them in place.
      const positions = grouped[id] as Int32Array;
      const inName = new Uint8Array(positions.length);
      for (let i = 0; i < positions.length; i++) {
        inName[i] = (positions[i] as number) & 1;
        positions[i] = (positions[i] as number) >>> 1;
      }
      return { lexeme, positions, inName };
    })
    .sort((a, b) => compareText(a.lexeme, b.lexeme));
}

/** The heads of streets [start, end): their runs (cut at start and end) in blocks of at most BLOCK_ENTRIES runs. */
export function headChunk(
  { heads, headOf }: IndexedStreets,
  start: number,
  end: number,
): Uint8Array {
  const starts: number[] = [];
  for (let position = start; position < end; position++)
    if (position === start || headOf[position] !== headOf[position - 1]) starts.push(position);
  const out = new ByteWriter();
  for (let from = 0; from < starts.length; from += BLOCK_ENTRIES) {
    const block = starts.slice(from, from + BLOCK_ENTRIES);
    const lengths = block.map((first, i) => (starts[from + i + 1] ?? end) - first);
    encodeBlock(
      out,
      block.map((first) => heads[headOf[first] ?? 0] ?? []),
      block,
      lengths,
      block.map((_, i) => i),
      block.length,
    );
  }
  return out.view().slice();
}

export interface Runs {
  readonly start: Int32Array;
  readonly length: Int32Array;
}

/** Runs of neighbouring streets with the same head. */
export function headRuns(headOf: Int32Array): Runs {
  const starts: number[] = [];
  for (let position = 0; position < headOf.length; position++)
    if (position === 0 || headOf[position] !== headOf[position - 1]) starts.push(position);
  const start = Int32Array.from(starts);
  const length = start.map((first, run) => (start[run + 1] ?? headOf.length) - first);
  return { start, length };
}

/**
 * Every case-folded 1-, 2- and 3-gram of the names, each name's first one and two characters
 * after NAME_START and last one and two before NAME_END, and every longer n-gram (NAME_START and
 * NAME_END counted as characters) in at least COMMON_GRAM_RUNS runs, with the runs of streets of
 * those names, by n-gram; EVERY_NAME with every run.
 */
export function trigramRuns(
  { heads, headOf }: Pick<IndexedStreets, "heads" | "headOf">,
  runs: Runs,
): [string, Int32Array][] {
  const ids = new Interner();
  const everyName = ids.id(EVERY_NAME);
  // Each run's name's n-grams (worked out once per name), counted first so that the pairs' arrays
  // are made at their size: the national list's are tens of millions of pairs.
  const byName = new Map<string, number[]>();
  const runsOfName = new Map<string, number[]>();
  const gramsOfRun: number[][] = [];
  let count = 0;
  runs.start.forEach((position, run) => {
    const name = heads[headOf[position] ?? 0]?.at(-1) ?? "";
    let own = byName.get(name);
    if (own === undefined) {
      const folded = caseFoldKey(name);
      const grams = [1, 2, 3].flatMap((n) => gramsOf(folded, n));
      grams.push(...anchoredGrams(folded));
      byName.set(name, (own = grams.map((t) => ids.id(t))));
      runsOfName.set(name, []);
    }
    runsOfName.get(name)?.push(run);
    gramsOfRun.push(own);
    count += 1 + own.length;
  });
  const pairs = new PairList(count);
  gramsOfRun.forEach((own, run) => {
    pairs.push(everyName, run);
    for (const id of own) pairs.push(id, run);
  });
  const grouped = pairs.group(ids.values.length);
  const out = ids.values.map(
    (trigram, id) => [trigram, grouped[id] as Int32Array] as [string, Int32Array],
  );
  out.push(...commonGramRuns(runsOfName, out));
  return out.sort((a, b) => compareText(a[0], b[0]));
}

/**
 * A name filter whose every trigram is common (`straße`, `stra`) would test the names of tens of
 * thousands of runs; the list of the literal's own n-gram is exactly its runs. So the n-grams of
 * four and more characters in at least this many runs have lists too.
 */
export const COMMON_GRAM_RUNS = 1024;

/**
 * The n-grams of four and more code points in at least COMMON_GRAM_RUNS runs, with their runs in
 * order: an n-gram is counted only where both of its (n-1)-grams are common, so each length looks
 * at a few positions of a few names.
 */
function commonGramRuns(
  runsOfName: ReadonlyMap<string, readonly number[]>,
  trigrams: readonly (readonly [string, Int32Array])[],
): [string, Int32Array][] {
  const out: [string, Int32Array][] = [];
  let common = new Set(
    trigrams
      .filter(([gram, ofRuns]) => [...gram].length === 3 && ofRuns.length >= COMMON_GRAM_RUNS)
      .map(([gram]) => gram),
  );
  // Per name: its folded code points and where its (n-1)-gram is common, for the length at hand.
  // NAME_START first and NAME_END last, so that a common prefix is a common n-gram that starts
  // with the one and a common suffix one that ends with the other.
  const names = [...runsOfName].map(([name, ofRuns]) => {
    const chars = Array.from(NAME_START + caseFoldKey(name) + NAME_END);
    const at: number[] = [];
    for (let i = 0; i + 3 <= chars.length; i++)
      if (common.has(chars.slice(i, i + 3).join(""))) at.push(i);
    return { chars, ofRuns, at };
  });
  for (let n = 4; common.size > 0; n++) {
    const byGram = new Map<string, number[]>();
    const gramsAt = names.map((name) => {
      const grams: [number, string][] = [];
      const seen = new Set<string>();
      for (let k = 0; k + 1 < name.at.length; k++) {
        const i = name.at[k] as number;
        if (name.at[k + 1] !== i + 1) continue;
        const gram = name.chars.slice(i, i + n).join("");
        grams.push([i, gram]);
        if (seen.has(gram)) continue;
        seen.add(gram);
        let list = byGram.get(gram);
        if (list === undefined) byGram.set(gram, (list = []));
        for (const run of name.ofRuns) list.push(run);
      }
      return grams;
    });
    common = new Set();
    for (const [gram, list] of byGram)
      if (list.length >= COMMON_GRAM_RUNS) {
        common.add(gram);
        out.push([gram, Int32Array.from(list).sort()]);
      }
    names.forEach((name, j) => {
      name.at = (gramsAt[j] ?? []).filter(([, gram]) => common.has(gram)).map(([i]) => i);
    });
  }
  return out;
}
