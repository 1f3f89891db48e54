/**
 * The warm-up's second half (warm-up.ts): the loops that a national first request runs over
 * thousands of elements, run at startup until V8 has compiled them. On the warm-up's small build
 * they run over a few hundred, too few for V8 to move them past its interpreter, and the first
 * national request paid their compiling (Cloudflare compiles on the request's thread,
 * bench/cloudflare-v8.ts): a name's places from the record table (then `placesAt`, now `placesIn`,
 * which warm-suggest.ts also runs) in 55 of 115 costly first suggestions, a lexicon shard's
 * parse in 43 of 60 costly first searches, the place table's columns in 22, the bitmap and list
 * kernels (TurboFan, about 2 ms each) in 12 (`bench:fresh --deopts`, 2026-11-29; docs/SEARCH.md);
 * and the places' streets a place filter beside a name reads, each looked up in the name's runs
 * (`name=Ring&postalCode=^74`: 13 ms as a first request, 8 of them in that loop), and a postal-code
 * literal's scan over the place table's codes (compiled inside 50 of 150 address-form first
 * requests; 2026-11-30); and a full-text prefix's many lists decoded, united through a bitmap and
 * checked on a term's bits, a page's entries found in them with their heads and its tail shards
 * read (`Straße ri`: 157 lists, 24,043 entries; compiled inside 15 of the 24 costliest first
 * searches of the query, address and adversarial mixes, 2026-11-30); and a name's runs walked and
 * their names tested (`name=e$`: 40,000 runs; `Runs.passes`, `walk` and `countRange` compiled
 * inside 36 to 52 of the adversarial mix's 145 first requests over 7 ms, 2026-11-30); and the
 * counted plan over thousands of places, a stretch's record chunks and a big place set's files
 * (compiled inside 20, 29 and 9 of the whole sample's 60 costliest first requests); and a phrase's
 * candidates decided by their places (`"Berlin Straße"`: 3,874; 2.55 ms of compiling inside each
 * costly phrase, 2026-12-01). The made-up inputs are warm-inputs.ts'.
 * Each runs here through the functions and classes requests use, on the warm-up build's files or on
 * arrays of a national request's size, so that V8's feedback is what a request gives it.
 */
import { codesHolding } from "../contract/search/bytes.ts";
import {
  filesOf,
  placesAt,
  placeStreetFiles,
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
import { checked, type CheckInputs, type Phrase } from "../contract/search/checks.ts";
import { foldings } from "../contract/postgres/lexize.ts";
import { countedPlan, stretchRecordFiles, walk } from "../contract/search/cursor.ts";
import { parseStreetFilter } from "../contract/search/filter.ts";
import { nameSide, Runs } from "../contract/search/names.ts";
import { passingPlaces } from "../contract/search/values.ts";
import { BLOCK_ENTRIES, TAILS_PER_SHARD } from "../contract/search/store.ts";
import type { PhraseTerm } from "../contract/postgres/tsquery.ts";
import { TailShard } from "../contract/search/tails.ts";
import { decodePlaceTable, placeLocality } from "../contract/search/meta.ts";
import { ListShard } from "../contract/search/shards.ts";
import { placesPath } from "../contract/layout.ts";
import { Automaton } from "../contract/regex/automaton.ts";
import { parsePattern } from "../contract/regex/parse.ts";
import { AssetStore, type Assets } from "./assets.ts";
import { SearchFiles } from "./search-reader.ts";
import { SuggestIndex } from "./suggest-index.ts";
import { encodedList, frontCodedCodes, longPlaceTable, phraseOf } from "./warm-inputs.ts";

/** Rounds of each loop (warm-up.test.ts checks that they run; the census in docs/SEARCH.md that they suffice). */
export const KERNEL_ROUNDS = 8;

/** Streets and places per round of the per-street and per-place loops. */
const ELEMENTS = 256;

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
      ...shards,
      ...tails,
      [placesPath(country), meta.fileBytes.places],
    ]),
  );
  const places = await (await SuggestIndex.open(store, origin, country)).places(r);
  const table = placeTable(r);
  const starts = streetStarts(r, table);
  // The warm-up build's places, repeated: a big city has hundreds (Stuttgart 205, München 500).
  const placeIds = Array.from({ length: ELEMENTS }, (_, i) => i % meta.places);
  await r.need(placeStreetFiles(meta, starts, Int32Array.from(placeIds)));
  // The counted plan's leads, every street and an exact name's blocks, beside the places that pass.
  const everyPlace = passingPlaces(undefined, undefined, table, "");
  // A big place set (a one-digit postal code's thousands of places), the warm-up build's repeated.
  const manyPlaces = Int32Array.from({ length: BITMAP_WORDS }, (_, i) => i % meta.places);
  const manyPass = { ...everyPlace, list: manyPlaces };
  const countedLeads = [
    undefined,
    await nameSide(r, parseStreetFilter("name", "straße", meta.nameCharacters)),
  ];
  // An exact name with per-place counts: the counted plan's lead beside places in requests.
  const countedName = await nameSide(r, parseStreetFilter("name", "e", meta.nameCharacters));
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
  const runList = decodePostings(encodedList(LIST_BLOCKS, { runs: true }), listEntries);
  const nameFilters = NAME_FILTERS.map((f) => parseStreetFilter("name", f, meta.nameCharacters));
  const patterns = AUTOMATON_PATTERNS.map((pattern) => parsePattern(pattern, true));
  const named = decodePlaceTable(longTable);
  const values = Array.from(
    { length: ELEMENTS },
    (_, i) => `${placeLocality(named, i)} ${(i * 7919).toString(36)}`,
  );
  // Two phrases: one that no made-up street matches, and one that a third match in their names
  // (`Warm-up-Straße …`), as `Berliner Straße` matches `"Berlin Straße"`.
  const phrases = ['"Berlin Straße"', '"Up Straße"'].map(phraseOf);
  const phraseList = decodePostings(
    encodedList(LIST_BLOCKS, { places: ELEMENTS, names: PHRASE_NAMES }),
    listEntries,
  );
  const phraseInputs: CheckInputs = {
    postings: () => [phraseList],
    places: named,
    bitmaps: new Map(),
  };
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
    // A run's few streets, within one word: the walk counts each run of a name on a place bitmap.
    for (let i = 0; i < 4 * ELEMENTS; i++)
      sum += countRange(bits, 37 * i + round, 37 * i + round + 3);
    sum += inRuns(streets, every, runLengths, found) + (runningSums(every, sums)[round] ?? 0);
    // A prefix's many lists united through a bitmap (fill, count, select), checked on a term's
    // bits, and the bitmap plan's word loops: a full-text prefix beside a word
    // (`Straße ri`, 157 lists) compiled each of them inside the request.
    const united = unite([every, some, streets], BITMAP_WORDS * 32);
    sum += withBit(united, bits, 1).length + withBit(united, bits, 0).length;
    // Two common words' lists merged (`Alt or Allee`: 8.7 ms as a first request before, 2.4 after).
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
    // A phrase's candidates decided by their places (checks.ts byPlaces): `"Berlin Straße"`'s
    // 3,874 national candidates ran that loop in V8's lower tiers inside the first request. The
    // list's 4,096 a round, on 256 places: with 2,048 Node compiled `verdict` inside phrases, and so
    // does workerd with 4,096; more moved `PhraseOnStreets.passes` there (docs/SEARCH.md).
    const phrase = phrases[round % phrases.length] as Phrase;
    const driver = phrase.terms[0] as PhraseTerm;
    sum += checked(phraseList.positions, [driver], [phrase], phraseInputs, driver).positions.length;
    // The phrases' names folded left `lowerCase` nearly hot, and TurboFan compiled it inside the
    // next first request (3.4 ms in `wachenheim kirchheim b.münchen`): here it gets there, with
    // `unaccent` (compiled inside 3 of 6 costly first searches).
    for (let again = 0; again < 4; again++)
      for (const value of values) sum += foldings(value)[1]?.length ?? 0;
    // A name's runs walked, each run's name tested once, alone and on a place bitmap: a
    // one-letter name filter (`name=e$`) walks 40,000 runs, and `Runs.passes` (TurboFan, 5.6 ms)
    // and `walk` (Maglev, 2 ms) were compiled inside 36 and 52 of the 145 costliest first requests.
    // Each as beside places (on a bitmap, a page's worth, the total known), then as a name alone
    // (to the end): both before V8 compiles the walk, whose code has no branch the other took.
    // The walk also takes the counted plan's leads (its places' streets counted, the page read in
    // order), which the warm-up build's requests never take: with the runs' alone, its code met
    // their shapes first in 43 of the 145 requests above, and was deoptimised there.
    // Both leads on few places first, then on many (a one-digit postal code's thousands): the
    // plan's code is compiled at startup, with both leads' feedback. Then, every round, an exact
    // name with per-place counts, as requests beside places lead: run in the first round only,
    // its branch still had no feedback in the compiled code (docs/SEARCH.md, "The warm-up settles").
    for (const name of countedLeads) {
      const passing = round === 0 ? everyPlace : manyPass;
      sum += (await countedPlan(r, name, passing, table, 0, PAGE_ENTRIES).run()).total;
    }
    const beside = countedPlan(r, countedName, everyPlace, table, 0, PAGE_ENTRIES);
    await r.need(beside.files());
    sum += (await beside.run()).total;
    // The record chunks of a name's thousands of runs walked beside places, and the files of a big
    // place set's streets (`name=steig&locality=München`, `name=Ring&postalCode=^74`).
    sum += stretchRecordFiles(r, { starts: every, lengths: runLengths }, BITMAP_WORDS).size;
    sum += placeStreetFiles(meta, starts, manyPlaces).size;
    for (const filter of nameFilters) {
      const runs = () => new Runs([runList], { filter, and: true, exact: false }, RUN_SIZE, true);
      const upTo = (counted: number) => PAGE_ENTRIES - counted;
      sum += (await walk(r, runs(), bits, 0, PAGE_ENTRIES, upTo, listEntries)).total;
      sum += (await walk(r, runs(), undefined, 0, PAGE_ENTRIES)).total;
    }
    // A page's tail shards, a shard a row when its rows lie all over the place order.
    for (let i = 0; i < PAGE_ENTRIES; i++) {
      const path = tailPaths[i % tailPaths.length] as string;
      sum += new TailShard(r.bytes(path)).tail(i % TAILS_PER_SHARD, (i & 1) as 0 | 1).length;
    }
    readUints(listBytes, 0, 3, sums, 0, BITMAP_WORDS);
    // A place filter's places' streets (`name=straße&locality=München`: their reading was compiled
    // inside 3 of 4 such requests, 1 ms each).
    sum += streetsOfPlaces(r, starts, placeIds).length;
    // A postal-code literal's scan: unanchored, at the end, at the start (contract/search/values.ts),
    // for literals of one digit (a string V8 keeps once, of a map of its own) and of two.
    for (const literal of [String.fromCharCode(48 + (round % 10)), literalOf(round * 7 + 10)])
      for (const [atStart, atEnd] of [
        [false, false],
        [false, true],
        [true, false],
      ] as const)
        sum += codesHolding(codes.lengths, codes.units, 5, literal, atStart, atEnd)[1] ?? 0;
  }
  return sum;
}

/** A number's digits joined as a filter's literal text is (filter.ts literalText): a string of that kind, not a number's. */
const literalOf = (n: number): string => Array.from(String(n), (digit) => digit).join("");

/** The streets the made-up runs lie among: the bitmap's. */
const RUN_SIZE = BITMAP_WORDS * 32;

/** Name filters of one letter as requests send them: at the end (a native test), anywhere, a pattern. */
const NAME_FILTERS = ["e$", "e", "(e|ß)$"];

/** Blocks of the long list decoded each round (a common lexeme's list has thousands of entries). */
const LIST_BLOCKS = 4;

/** Times the long list is decoded each round: fewer left its TurboFan compile (6 ms) to a prefix's 157 lists. */
const LIST_DECODES = 4;

/** Tail shards read each round, and entries of the long list found per page: a page's rows. */
const PAGE_ENTRIES = 50;

/** Pages of entries found each round: with one, `entryAt` was still compiled inside prefix requests. */
const PAGES_FOUND = 4;

/** Distinct names of the phrases' list: each is lexized once per isolate, and 1,024 took 28 ms of startup. */
const PHRASE_NAMES = 64;
