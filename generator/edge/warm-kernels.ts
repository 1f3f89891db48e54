/**
 * The warm-up's second half (warm-up.ts): the loops that a national first request runs over
 * thousands of elements, run at startup until V8 has compiled them. On the warm-up's small build
 * they run over a few hundred, too few for V8 to move them past its interpreter, and the first
 * national request paid their compiling (Cloudflare compiles on the request's thread,
 * bench/cloudflare-v8.ts): `placesAt` in 55 of 115 costly first suggestions, a lexicon shard's
 * parse in 43 of 60 costly first searches, the place table's columns in 22, the bitmap and list
 * kernels (TurboFan, about 2 ms each) in 12 (`bench:fresh --deopts`, 2026-11-29; docs/SEARCH.md);
 * and the places' streets a place filter beside a name reads, each looked up in the name's runs
 * (`name=Ring&postalCode=^74`: 13 ms as a first request, 8 of them in that loop), and a postal-code
 * literal's scan over the place table's codes (compiled inside 50 of 150 address-form first
 * requests; 2026-11-30); and a full-text prefix's many lists decoded, united through a bitmap and
 * checked on a term's bits, a page's entries found in them with their heads and its tail shards
 * read (`Straße ri`: 157 lists, 24,043 entries; compiled inside 15 of the 24 costliest first
 * searches of the query, address and adversarial mixes, 2026-11-30).
 * Each runs here through the functions and classes requests use, on the warm-up build's files or on
 * arrays of a national request's size, so that V8's feedback is what a request gives it.
 */
import { ByteReader, ByteWriter, codesHolding, frontCode } from "../contract/search/bytes.ts";
import {
  filesOf,
  placesAt,
  placeTable,
  recordFiles,
  streetStarts,
  streetsOfPlaces,
} from "../contract/search/leaves.ts";
import {
  combineBits,
  countRange,
  gallop,
  inRuns,
  intersect,
  merge,
  readUints,
  runningSums,
  unite,
  withBit,
} from "../contract/search/kernels.ts";
import { decodePostings, entryAt } from "../contract/search/postings.ts";
import {
  BLOCK_ENTRIES,
  encodeBlock,
  PLACE_STREETS_PER_FILE as PER_FILE,
  TAILS_PER_SHARD,
} from "../contract/search/store.ts";
import { TailShard } from "../contract/search/tails.ts";
import { decodePlaceTable, encodePlaceTable, placeLocality } from "../contract/search/meta.ts";
import { ListShard } from "../contract/search/shards.ts";
import { placesPath } from "../contract/layout.ts";
import { Automaton } from "../contract/regex/automaton.ts";
import { parsePattern } from "../contract/regex/parse.ts";
import { AssetStore, type Assets } from "./assets.ts";
import { SearchFiles } from "./search-reader.ts";
import { SuggestIndex } from "./suggest-index.ts";

/** Rounds of each loop (warm-up.test.ts checks that they run; the census in docs/SEARCH.md that they suffice). */
export const KERNEL_ROUNDS = 8;

/** Streets and places per round of the per-street and per-place loops. */
const ELEMENTS = 256;

/**
 * Places of the long place table: columns of two- and three-byte values, as a national table's,
 * long enough that its column loops reach TurboFan at startup (with 512 places they reached
 * Maglev only, and national requests then compiled them with TurboFan, 2 ms each, in 16 of 60).
 */
const LONG_TABLE_PLACES = 2_048;

/** Words of the bitmap counted, and positions of the list galloped through, each round (a national bitmap has about 37,500 words). */
const BITMAP_WORDS = 8_192;

/**
 * Patterns whose automata (contract/regex/automaton.ts) each round builds anew and runs over
 * ELEMENTS values: classes, `.*`, counted repeats, alternations and anchors, so that building
 * states and stepping through them are compiled before a request's pattern meets thousands of
 * localities (a Localities pattern's first request cost up to 22 ms in the engine's lower tiers).
 */
const AUTOMATON_PATTERNS = [
  ".*[aeiou].*[aeiou].*[^aeiou]{2}",
  "^(\\w+[\\s-]?){1,3}[^\\d ]{2,}$",
  "(.{1,4}){1,3}(z|ei|[0-9]{3}(0|5)?)$",
];

/** Runs the loops over the files of `assets` (the warm-up build) for `rounds` rounds; resolves to a checksum. */
export async function warmKernels(
  assets: Assets,
  origin: string,
  country: string,
  rounds = KERNEL_ROUNDS,
): Promise<number> {
  const store = new AssetStore(assets);
  const r = (await SearchFiles.open(store, origin, country)).reader();
  const { meta } = r;
  // Every lexicon and n-gram shard of the warm-up build.
  const shards = new Map([
    ...filesOf(meta, "l", meta.fileBytes.l.keys()),
    ...filesOf(meta, "g", meta.fileBytes.g.keys()),
  ]);
  const tails = filesOf(meta, "t", meta.fileBytes.t.keys());
  const tailPaths = [...tails.keys()];
  await r.need(
    new Map([
      ...recordFiles(meta, Int32Array.of(0)),
      ...filesOf(meta, "s", Array.from({ length: Math.ceil(meta.count / PER_FILE) }, (_, f) => f)),
      ...shards,
      ...tails,
      [placesPath(country), meta.fileBytes.places],
    ]),
  );
  const places = await (await SuggestIndex.open(store, origin, country)).places(r);
  const starts = streetStarts(r, placeTable(r));
  // Places of the warm-up build over and over, as many as a big city's (München: about 100).
  const placeIds = Array.from({ length: ELEMENTS }, (_, i) => i % meta.places);
  const positions = Int32Array.from({ length: ELEMENTS }, (_, i) => i % meta.count);
  const longTable = longPlaceTable(r.bytes(placesPath(country)));
  const bits = Uint32Array.from({ length: BITMAP_WORDS }, (_, i) => Math.imul(i, 0x9e3779b1));
  const every = Int32Array.from({ length: BITMAP_WORDS }, (_, i) => 3 * i);
  const some = Int32Array.from({ length: ELEMENTS }, (_, i) => 211 * i);
  // The run loop's streets (every other position) in the list's runs [3i, 3i + 2), the numbers it
  // writes, the sums of the list's positions, and the list read back from bytes: arrays written
  // over each round (no garbage), never through the reader (a call there on a branch the warm-up's
  // requests did not take would leave their code deoptimised for the first request).
  const runLengths = new Int32Array(BITMAP_WORDS).fill(2);
  const streets = Int32Array.from({ length: BITMAP_WORDS }, (_, i) => 2 * i);
  const found = new Int32Array(2 * BITMAP_WORDS);
  const sums = new Int32Array(BITMAP_WORDS + 1);
  const listBytes = new Uint8Array(3 * BITMAP_WORDS).map((_, i) => (i * 37) & 0xff);
  const codes = frontCodedCodes(BITMAP_WORDS);
  const scratchBits = new Uint32Array(BITMAP_WORDS);
  const longList = encodedList(LIST_BLOCKS);
  const listEntries = LIST_BLOCKS * BLOCK_ENTRIES;
  const patterns = AUTOMATON_PATTERNS.map((pattern) => parsePattern(pattern, true));
  const named = decodePlaceTable(longTable);
  const values = Array.from(
    { length: ELEMENTS },
    (_, i) => `${placeLocality(named, i)} ${(i * 7919).toString(36)}`,
  );
  let sum = 0;
  for (let round = 0; round < rounds; round++) {
    for (const pattern of patterns) {
      const automaton = new Automaton(pattern);
      for (const value of values) sum += automaton.test(value) ? 1 : 0;
    }
    sum += placesAt(r, positions)[round % ELEMENTS] ?? 0;
    for (const path of shards.keys()) sum += ListShard.parse(r.bytes(path)).get("") ? 1 : 0;
    const long = decodePlaceTable(longTable);
    sum += (long.postalCodeOf[1] ?? 0) + (long.counts[1] ?? 0) + (long.listStarts[1] ?? 0);
    for (let i = 0; i < ELEMENTS; i++) {
      const place = i % places.places;
      sum += places.codeOfPlace(place).length + places.localityOf(place);
      sum += placeLocality(long, i).length + gallop(every, 97 * i + round, i);
    }
    sum += countRange(bits, round, BITMAP_WORDS * 32 - round) + intersect(some, every).length;
    sum += inRuns(streets, every, runLengths, found) + (runningSums(every, sums)[round] ?? 0);
    // A prefix's many lists united through a bitmap (fill, count, select), checked on a term's
    // bits, and the bitmap plan's word loops: a full-text prefix beside a word
    // (`Straße ri`, 157 lists) compiled each of them inside the request.
    const united = unite([every, some, streets], BITMAP_WORDS * 32);
    sum += withBit(united, bits, 1).length + withBit(united, bits, 0).length;
    // Two common words' lists merged (`Alt or Allee`: 4.7 of its 9.6 ms in the merge's lower tiers).
    // Both ways, so that each list's rest is copied (`every` ends last).
    sum += merge(every, streets).length + merge(streets, every).length;
    // A universe ending inside the last word (as a national count does): the complement masks it.
    for (let op = 0; op < 3; op++)
      combineBits(scratchBits, bits, scratchBits, op, BITMAP_WORDS * 32 - 1);
    // A long list decoded (blocks of BLOCK_ENTRIES entries, numbers of one to three bytes) and
    // entries of it found with their names, as a page's are.
    let list = decodePostings(longList, listEntries);
    for (let again = 1; again < LIST_DECODES; again++) list = decodePostings(longList, listEntries);
    const lists = [list];
    for (let i = 0; i < PAGES_FOUND * PAGE_ENTRIES; i++)
      sum += entryAt(lists, list.positions[(round * 997 + i * 61) % listEntries] ?? 0)?.place ?? 0;
    // A page's tail shards, a shard a row when its rows lie all over the place order.
    for (let i = 0; i < PAGE_ENTRIES; i++) {
      const path = tailPaths[i % tailPaths.length] as string;
      sum += new TailShard(r.bytes(path)).tail(i % TAILS_PER_SHARD, (i & 1) as 0 | 1).length;
    }
    readUints(listBytes, 0, 3, sums, 0, BITMAP_WORDS);
    // A place filter's places' streets (`name=straße&locality=München`: placeStreets compiled inside 3 of 4 such requests, 1 ms each).
    sum += streetsOfPlaces(r, starts, placeIds).length;
    // A postal-code literal's scan: unanchored, at the end, at the start (contract/search/values.ts).
    for (const [atStart, atEnd] of [
      [false, false],
      [false, true],
      [true, false],
    ] as const)
      sum +=
        codesHolding(codes.lengths, codes.units, 5, String(round * 7 + 10), atStart, atEnd)[1] ?? 0;
  }
  return sum;
}

/** Blocks of the long list decoded each round (a common lexeme's list has thousands of entries). */
const LIST_BLOCKS = 4;

/** Times the long list is decoded each round: fewer left its TurboFan compile (6 ms) to a prefix's 157 lists. */
const LIST_DECODES = 4;

/** Tail shards read each round, and entries of the long list found per page: a page's rows. */
const PAGE_ENTRIES = 50;

/** Pages of entries found each round: with one, `entryAt` was still compiled inside prefix requests. */
const PAGES_FOUND = 4;

/**
 * A list of `blocks` full blocks as the build writes them (store.ts encodeBlock): increasing
 * positions, places of one to three bytes, a name per entry. Never served.
 */
function encodedList(blocks: number): Uint8Array {
  const out = new ByteWriter();
  // Names in order sharing prefixes of different lengths, as a block's do: a head is rebuilt by
  // walking back over the names before it (heads.ts), which a page's rows do in most requests.
  const heads = Array.from({ length: BLOCK_ENTRIES }, (_, h) => [
    `Warm-up-Straße ${(h + 36 ** 2).toString(36)}`,
  ]);
  const entries = Array.from({ length: BLOCK_ENTRIES }, (_, i) => i);
  for (let b = 0; b < blocks; b++)
    encodeBlock(
      out,
      heads,
      entries.map((i) => 37 * (b * BLOCK_ENTRIES + i)),
      entries.map((i) => (i * 613 + b) % 100_000),
      entries,
      BLOCK_ENTRIES,
    );
  return out.view().slice();
}

/**
 * `count` five-digit postal codes in order, front-coded by the place table's own encoder (bytes.ts
 * frontCode) and read back as the table's reader hands them to codesHolding: per code the units it
 * shares with the one before and the length of its rest, and the rests' units. Never served.
 */
function frontCodedCodes(count: number): { lengths: Int32Array; units: Uint16Array } {
  const writer = new ByteWriter();
  const rests = frontCode(
    Array.from({ length: count }, (_, i) => String(10_000 + 11 * i)),
    writer,
  );
  return {
    lengths: new ByteReader(writer.view()).varints(new Int32Array(2 * count)),
    units: Uint16Array.from({ length: rests.length }, (_, i) => rests.charCodeAt(i)),
  };
}

/**
 * A place table of LONG_TABLE_PLACES places with the warm-up table's localities: its columns
 * hold values of two and three bytes, which the warm-up's few places (a byte each, read without
 * the varint loop) never have. Not served: it only gives the column loops a national table's shape.
 */
function longPlaceTable(warmUpTable: Uint8Array): Uint8Array {
  const table = decodePlaceTable(warmUpTable);
  const localities = Math.max(1, table.localities.length);
  return encodePlaceTable(
    Array.from({ length: LONG_TABLE_PLACES }, (_, i) => ({
      postalCode: String(10_000 + 7 * i),
      locality: table.locality(i % localities),
      count: 1 + ((i * 37) % 4_000),
      listBytes: (i * 613) % 100_000,
    })),
    0,
  );
}
