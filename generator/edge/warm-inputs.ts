/**
 * The made-up inputs of the warm-up's long loops (warm-kernels.ts): arrays of a national request's
 * shape and size, which the warm-up build (204 streets) does not have. Never served.
 */
import { ByteReader, ByteWriter, frontCode } from "../contract/search/bytes.ts";
import { decodePlaceTable, encodePlaceTable } from "../contract/search/meta.ts";
import { BLOCK_ENTRIES, encodeBlock } from "../contract/search/store.ts";
import { parseSearchRequest } from "../contract/search/request.ts";
import type { Phrase } from "../contract/search/checks.ts";

/**
 * Places of the long place table: columns of two- and three-byte values, as a national table's,
 * long enough that its column loops reach TurboFan at startup (with 512 places they reached
 * Maglev only, and national requests then compiled them with TurboFan, 2 ms each, in 16 of 60).
 */
const LONG_TABLE_PLACES = 2_048;

/**
 * A list of `blocks` full blocks as the build writes them (store.ts encodeBlock): increasing
 * positions, places of one to three bytes (below `places`), `names` distinct names in turn; or
 * (`runs`) an n-gram list's runs of one to four streets each. Never served.
 */
export function encodedList(
  blocks: number,
  { runs = false, places = 100_000, names = BLOCK_ENTRIES } = {},
): Uint8Array {
  const out = new ByteWriter();
  // Names in order sharing prefixes of different lengths, as a block's do: a head is rebuilt by
  // walking back over the names before it (heads.ts), which a page's rows do in most requests.
  const heads = Array.from({ length: names }, (_, h) => [
    `Warm-up-Straße ${(h + 36 ** 2).toString(36)}`,
  ]);
  const entries = Array.from({ length: BLOCK_ENTRIES }, (_, i) => i);
  for (let b = 0; b < blocks; b++)
    encodeBlock(
      out,
      heads,
      entries.map((i) => (runs ? 5 : 37) * (b * BLOCK_ENTRIES + i)),
      entries.map((i) => (runs ? 1 + (i % 4) : (i * 613 + b) % places)),
      entries.map((i) => i % names),
      BLOCK_ENTRIES,
      // A lexeme list's name bits (store.ts): a third of the names hold the lexeme.
      runs ? undefined : heads.map((_, h) => (h % 3 === 0 ? 1 : 0)),
    );
  return out.view().slice();
}

/**
 * `count` five-digit postal codes in order, front-coded by the place table's own encoder (bytes.ts
 * frontCode) and read back as the table's reader hands them to codesHolding: per code the units it
 * shares with the one before and the length of its rest, and the rests' units. Never served.
 */
export function frontCodedCodes(count: number): { lengths: Int32Array; units: Uint16Array } {
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
export function longPlaceTable(warmUpTable: Uint8Array): Uint8Array {
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

/** A full-text phrase's node, parsed as a request's is. */
export function phraseOf(term: string): Phrase {
  const parsed = parseSearchRequest(term, undefined);
  const root = parsed.ok ? parsed.value.root : null;
  if (root?.op !== "phrase") throw new Error(`warm-up: ${term} is not a phrase`);
  return root;
}
