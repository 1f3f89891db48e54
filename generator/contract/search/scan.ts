/**
 * The streets of the places that pass, found by scanning each street's place in the record table
 * from the first street, as far as the page's end: a place filter alone on a deep page, when the
 * places' own lists lie all over the list stream.
 */
import { RECORD_CHUNK_STREETS } from "./store.ts";
import { Page, type Found, type Reader } from "./plan.ts";
import * as leaf from "./leaves.ts";
import type { PlacePass } from "./values.ts";

/** Streets [start, end) of the passing places, whose streets number `total`. */
export async function scanPlaces(
  r: Reader,
  places: PlacePass,
  total: number,
  start: number,
  end: number,
): Promise<Found> {
  const { count, placeWidth: width } = r.meta;
  const page = new Page(start, end);
  const last = Math.min(end, total);
  const share = Math.max(total / Math.max(1, count), 1e-9);
  const chunks = Math.ceil(count / RECORD_CHUNK_STREETS);
  for (let chunk = 0; page.total < last && chunk < chunks;) {
    // As many chunks at a time as the rest of the page is expected to need.
    const want = Math.ceil((last - page.total) / share / RECORD_CHUNK_STREETS);
    const to = Math.min(chunks, chunk + Math.max(1, want));
    const numbers = Array.from({ length: to - chunk }, (_, i) => chunk + i);
    await r.need(leaf.filesOf(r.meta, "r", numbers));
    for (; chunk < to && page.total < last; chunk++) {
      const table = r.bytes(leaf.pathOf(r.meta, "r", chunk));
      const first = chunk * RECORD_CHUNK_STREETS;
      for (let at = 0; at < table.length && page.total < last; at += width) {
        const place =
          (table[at] as number) |
          ((table[at + 1] as number) << 8) |
          (width === 3 ? (table[at + 2] as number) << 16 : 0);
        if (places.pass[place] === 1 && page.count()) page.keep(first + at / width, place, NO_HEAD);
      }
    }
  }
  const found = page.found(total);
  return { total, positions: found.positions, places: found.places as Int32Array };
}

const NO_HEAD: readonly string[] = [];
