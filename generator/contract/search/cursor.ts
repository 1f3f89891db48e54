/**
 * The in-order cursor (docs/SEARCH.md, "The cursor"): a lead, a check and a page, and the
 * `/Streets` plans that are its instances.
 */
import { BLOCK_ENTRIES, HeadTable, RECORD_CHUNK_STREETS as CHUNK, type ListRef } from "./store.ts";
import { ByteReader } from "./bytes.ts";
import { COST, type Files, type Found, type Plan, type Reader } from "./plan.ts";
import * as leaf from "./leaves.ts";
import { countRange } from "./kernels.ts";
import type { PlaceTable } from "./meta.ts";
import { nameSteps, readRuns, type NameSide } from "./names.ts";
import type { PlacePass } from "./values.ts";

/**
 * Candidate streets in order: a stretch's runs [starts[i], starts[i] + lengths[i]), one name each.
 * `next` reads the next stretch of at most `want` streets (its files charged) and gives its runs,
 * 0 at the end, or counts those wholly within its first `before` streets instead (`skipped`).
 * `passes`: does run i's name pass (none: every run does); `head`: run i's head (none: the page's
 * heads are read from the head table).
 */
interface Lead {
  starts: Int32Array;
  lengths: Int32Array;
  next(want: number, before?: number): Promise<number>;
  skipped?: number;
  readonly passes?: (i: number) => boolean;
  readonly head?: (i: number) => readonly string[];
}

/**
 * The lead's streets that pass `check` (none, a bitmap's bit, a passing place from the record
 * table), counted, those of [start, end) kept; `stretch(counted)` streets at a time, as far as the
 * page's end when `total` is known, else to the lead's end.
 */
export async function walk(
  r: Reader,
  lead: Lead,
  check: undefined | Uint32Array | PlacePass,
  start: number,
  end: number,
  stretch = (_counted: number) => Infinity,
  total?: number,
): Promise<Found> {
  const stop = total === undefined ? Infinity : Math.min(end, total);
  const bits = check instanceof Uint32Array ? check : undefined;
  const pass = check instanceof Uint32Array ? undefined : check?.pass;
  const width = r.meta.placeWidth;
  const [positions, places, heads]: [number[], number[], (readonly string[])[]] = [[], [], []];
  let counted = 0;
  // The record chunk read last: its bytes, first street and the street after it.
  let table: Uint8Array = new Uint8Array();
  let [first, after] = [0, -1];
  while (counted < stop) {
    // Without a check, the streets before the page need only be counted.
    const n = await lead.next(stretch(counted), check === undefined ? start - counted : 0);
    counted += lead.skipped ?? 0;
    if (n === 0 && (lead.skipped ?? 0) === 0) break;
    if (pass !== undefined) await r.need(stretchRecordFiles(r, lead, n));
    // Read once a stretch: a lead's own shape is looked up once, not per run.
    const starts = lead.starts;
    const lengths = lead.lengths;
    for (let i = 0; i < n && counted < stop; i++) {
      const from = starts[i] as number;
      const to = from + (lengths[i] as number);
      const kept = bits !== undefined ? countRange(bits, from, to) : pass ? -1 : to - from;
      if (kept === 0 || (lead.passes !== undefined && !lead.passes(i))) continue;
      if (kept > 0 && (counted + kept <= start || counted >= end)) {
        counted += kept;
        continue;
      }
      // No call or closure per street: a first request runs this loop in the interpreter.
      for (let p = from; p < to && counted < stop; p++) {
        let place = -1;
        if (pass !== undefined) {
          if (p >= after) {
            first = Math.floor(p / CHUNK) * CHUNK;
            table = r.bytes(leaf.pathOf(r.meta, "r", first / CHUNK));
            after = first + CHUNK;
          }
          const at = (p - first) * width;
          place =
            (table[at] as number) |
            ((table[at + 1] as number) << 8) |
            (width === 3 ? (table[at + 2] as number) << 16 : 0);
          if (pass[place] !== 1) continue;
        } else if (bits !== undefined && (((bits[p >>> 5] as number) >>> (p & 31)) & 1) === 0)
          continue;
        if (counted++ < start || counted > end) continue;
        positions.push(p);
        places.push(place);
        heads.push(lead.head?.(i) ?? []);
      }
    }
  }
  return {
    total: total ?? counted,
    positions: Int32Array.from(positions),
    ...(pass === undefined ? {} : { places: Int32Array.from(places) }),
    ...(lead.head === undefined ? {} : { heads }),
  };
}

/** The record chunks of the streets of a stretch's passing runs (n of them). */
export function stretchRecordFiles(
  r: Reader,
  lead: Pick<Lead, "starts" | "lengths" | "passes">,
  n: number,
) {
  const chunks: number[] = [];
  for (let i = 0; i < n; i++) {
    if (lead.passes !== undefined && !lead.passes(i)) continue;
    const from = lead.starts[i] as number;
    const last = Math.floor((from + (lead.lengths[i] as number) - 1) / CHUNK);
    for (let c = Math.floor(from / CHUNK); c <= last; c++)
      if (c > (chunks[chunks.length - 1] ?? -1)) chunks.push(c);
  }
  return leaf.filesOf(r.meta, "r", chunks);
}

/** Every street, whole record chunks at a time: a place filter alone. */
function everyStreet(count: number): Lead {
  const lead = { starts: Int32Array.of(0), lengths: Int32Array.of(0) };
  const next = async (want: number) => {
    const from = (lead.starts[0] as number) + (lead.lengths[0] as number);
    lead.starts[0] = from;
    lead.lengths[0] = Math.min(count - from, Math.max(1, Math.ceil(want / CHUNK)) * CHUNK);
    return lead.lengths[0] > 0 ? 1 : 0;
  };
  return { ...lead, next };
}

/**
 * An exact name's one list from its first block, its blocks fetched as many at a time as the rest
 * of the stretch is expected to take (its `runs` in its `streets`).
 */
function blockLead(r: Reader, name: NameSide): Lead {
  const { streets, runs } = name;
  const ref = name.refs[0] as ListRef;
  const tables: HeadTable[] = [];
  let [fetched, left, cursor] = [0, 0, 0];
  let reader = new ByteReader(new Uint8Array());
  // The run being read: its first street, length, head (table * BLOCK_ENTRIES + index), streets read.
  let [position, length, head, inRun] = [-1, 0, 0, 0];
  let heads = new Int32Array();
  const lead: Lead = {
    starts: new Int32Array(),
    lengths: new Int32Array(),
    next: async (asked: number, before = 0) => {
      const want = Math.min(asked, streets - cursor);
      // Runs wholly within the first `before` streets are counted, not given.
      const starts = (lead.starts = new Int32Array(Math.min(want, runs, want - before + 1)));
      const lengths = (lead.lengths = new Int32Array(starts.length));
      heads = new Int32Array(starts.length);
      let n = 0;
      lead.skipped = 0;
      for (let k = 0; k < want;) {
        if (inRun === length && left === 0) {
          const b = tables.length;
          if (b === fetched) {
            const more = Math.ceil(((want - k) * runs) / streets / BLOCK_ENTRIES);
            fetched = Math.max(b + 1, Math.min(ref.length - 2, b + more));
            await r.need(leaf.blockFiles(r.meta, ref, b, fetched));
          }
          reader = new ByteReader(leaf.blockBytes(r, ref, b, b + 1));
          const tableLength = reader.varint();
          left = reader.varint();
          tables.push(new HeadTable(reader.bytes.subarray(reader.at, reader.at + tableLength)));
          reader.at += tableLength;
          position = -1;
        }
        if (inRun === length) {
          position += reader.varint();
          length = reader.varint();
          head = (tables.length - 1) * BLOCK_ENTRIES + reader.varint();
          inRun = 0;
          left--;
        }
        const take = Math.min(length - inRun, want - k);
        if (k + take <= before) lead.skipped += take;
        else {
          starts[n] = position + inRun;
          lengths[n] = take;
          heads[n++] = head;
        }
        k += take;
        cursor += take;
        inRun += take;
      }
      return n;
    },
    head: (i: number) =>
      (tables[Math.floor((heads[i] as number) / BLOCK_ENTRIES)] as HeadTable).get(
        (heads[i] as number) % BLOCK_ENTRIES,
      ),
  };
  return lead;
}

/** Every street of the name's runs listed, its place looked up and kept or not. */
export const recordSteps = (name: NameSide) => nameSteps(name) + name.streets * COST.walked;
/** Summing counts over the places, then reading streets in order as far as the page's end (alone, whole record chunks, each file priced). */
export const countedSteps = (r: Reader, streets: number, end: number, name?: NameSide) => {
  const read = Math.min(r.meta.count, (end * r.meta.count) / Math.max(1, streets));
  if (name !== undefined) return r.meta.places * COST.bit + read * COST.walked;
  return r.meta.places * COST.bit + read * COST.entry + scannedChunks(r, streets, end) * COST.file;
};

/** The record chunks a place filter alone scans as far as the page's end (the walk's first stretch: `stretch` below). */
const scannedChunks = (r: Reader, streets: number, end: number) =>
  streets === 0 ? 0 : Math.ceil((Math.min(end, streets) * r.meta.count) / streets / CHUNK);

/** The name's runs read whole, walked with a check (none, place bitmaps, the passing places). */
export const runsPlan = (
  r: Reader,
  name: NameSide,
  steps: number,
  check: () => Uint32Array | PlacePass | undefined,
  start: number,
  end: number,
  more: Files = new Map(),
): Plan<Found> => ({
  steps,
  files: () => new Map([...leaf.listFiles(r.meta, name.refs), ...more]),
  run: () => walk(r, readRuns(r, name), check(), start, end),
});

/** Counted from the places (and the name's per-place counts); streets read in order as far as the page. */
export function countedPlan(
  r: Reader,
  name: NameSide | undefined,
  places: PlacePass,
  table: PlaceTable,
  start: number,
  end: number,
): Plan<Found> {
  const n = name?.counts;
  // Alone, the walk's first stretch: whole record chunks from the first (everyStreet).
  const scan = () => Array.from({ length: scannedChunks(r, places.streets, end) }, (_, c) => c);
  return {
    steps: countedSteps(r, places.streets, end, name),
    files: () =>
      n === undefined ? leaf.filesOf(r.meta, "r", scan()) : leaf.filesOf(r.meta, "c", [n]),
    run: async () => {
      const counts = n === undefined ? table.counts : leaf.placeCounts(r, n, table.size);
      let total = 0;
      for (let i = 0; i < places.list.length; i++)
        total += counts[places.list[i] as number] as number;
      // As much at a time as the page is expected to need (its share of the lead's streets): beside
      // a name, 32 more; place filters alone, every street's place, whole record chunks at a time.
      const share = Math.max(total / (name?.streets ?? Math.max(1, r.meta.count)), 1e-9);
      const stretch = (counted: number) =>
        name === undefined
          ? (Math.min(end, total) - counted) / share
          : Math.ceil((end - counted) / share) + 32;
      const lead = name === undefined ? everyStreet(r.meta.count) : blockLead(r, name);
      return await walk(r, lead, places, start, end, stretch, total);
    },
  };
}

/** A name alone: its runs read and tested, or its one exact list read from the first block as far as the page. */
export function namePlans(r: Reader, name: NameSide, start: number, end: number): Plan<Found>[] {
  const whole = runsPlan(r, name, nameSteps(name), () => undefined, start, end);
  const [ref] = name.refs;
  if (!name.exact || ref === undefined || name.refs.length > 1) return [whole];
  const blocks = Math.ceil(end / ((BLOCK_ENTRIES * name.streets) / Math.max(1, name.runs)));
  const lazy: Plan<Found> = {
    steps: Math.min(name.runs, blocks * BLOCK_ENTRIES) * COST.entry,
    files: () => leaf.blockFiles(r.meta, ref, 0, blocks),
    run: () => walk(r, blockLead(r, name), undefined, start, end, (c) => end - c, name.streets),
  };
  return [whole, lazy];
}
