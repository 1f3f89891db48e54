import type { ReadBudget } from "../contract/search/budget.ts";
import type { SearchMeta } from "../contract/search/meta.ts";
import {
  headsInRuns,
  headsPath,
  RECORD_CHUNK_STREETS,
  recordsPath,
  type ListEntry,
} from "../contract/search/store.ts";
import { decodePostings, type Postings } from "../contract/search/postings.ts";
import type { AssetStore } from "./assets.ts";

/**
 * One country's streets by position, as the Worker reads them: each street's place from the
 * record table, its head from the head table (both in chunks of RECORD_CHUNK_STREETS streets,
 * kept per isolate once read, charged to a request whenever it needs them). For the streets no
 * list read by the request holds (`-berlin`), and to test a street's place.
 */
export class StreetTable {
  /** The record table's chunks (2 or 3 bytes a street: a few MB for a national list). */
  private readonly records = new Map<number, Uint8Array>();
  /** The head table's chunks (the runs of one head in a record chunk), as read: a page needs a few heads of each. */
  private readonly headChunks = new Map<number, Uint8Array>();
  /** Head-table chunks decoded whole, for the scans that test every run (the last DECODED_HEAD_CHUNKS). */
  private readonly decodedHeads = new Map<number, Postings>();

  constructor(
    private readonly store: AssetStore,
    private readonly origin: string,
    private readonly country: string,
    private readonly meta: SearchMeta,
  ) {}

  /** The place of each street (positions in increasing order), from the record table; every chunk charged before any is read. */
  async placesAt(positions: ArrayLike<number>, budget: ReadBudget): Promise<Int32Array> {
    const chunks: number[] = [];
    for (let i = 0; i < positions.length; i++) {
      const chunk = Math.floor((positions[i] as number) / RECORD_CHUNK_STREETS);
      if (chunks.at(-1) !== chunk) chunks.push(chunk);
    }
    for (const chunk of chunks) this.chargeRecords(chunk, budget);
    const tables = new Map(
      await Promise.all(
        chunks.map(async (chunk) => [chunk, await this.recordChunk(chunk)] as const),
      ),
    );
    const out = new Int32Array(positions.length);
    for (let i = 0; i < positions.length; i++) {
      const position = positions[i] as number;
      out[i] = placeIn(
        tables.get(Math.floor(position / RECORD_CHUNK_STREETS)) ?? new Uint8Array(),
        position % RECORD_CHUNK_STREETS,
        this.meta.placeWidth,
      );
    }
    return out;
  }

  /**
   * Streets [start, end) of those whose place passes, in order: the record table read chunk by
   * chunk from the first street on (each charged before it is read), for filters that pass many.
   */
  async scanPlaces(
    pass: Uint8Array,
    start: number,
    end: number,
    budget: ReadBudget,
  ): Promise<number[]> {
    const found: number[] = [];
    const width = this.meta.placeWidth;
    for (
      let chunk = 0, seen = 0;
      chunk * RECORD_CHUNK_STREETS < this.meta.count && seen < end;
      chunk++
    ) {
      this.chargeRecords(chunk, budget);
      const table = await this.recordChunk(chunk);
      for (let k = 0; k * width < table.length && seen < end; k++)
        if (pass[placeIn(table, k, width)] === 1 && seen++ >= start)
          found.push(chunk * RECORD_CHUNK_STREETS + k);
    }
    return found;
  }

  /**
   * Matches [start, end) of the streets whose place passes and whose name passes (each distinct
   * name of a chunk tested once): the record and head tables read chunk by chunk from the first
   * street on, each charged before it is read, until the page is full. For filters whose count
   * is known without a list (gram-counts.ts) and that pass many streets.
   */
  async scanMatching(
    pass: Uint8Array,
    passName: (name: string) => boolean,
    start: number,
    end: number,
    budget: ReadBudget,
  ): Promise<ListEntry[]> {
    const found: ListEntry[] = [];
    const width = this.meta.placeWidth;
    for (let chunk = 0, seen = 0; chunk * RECORD_CHUNK_STREETS < this.meta.count; chunk++) {
      if (seen >= end) break;
      this.chargeRecords(chunk, budget);
      const [table, heads] = await Promise.all([this.recordChunk(chunk), this.headChunk(chunk)]);
      budget.charge(headsPath(this.country, chunk), heads.byteLength);
      const first = chunk * RECORD_CHUNK_STREETS;
      const last = Math.min(this.meta.count, first + RECORD_CHUNK_STREETS);
      const runs = this.headRuns(chunk, heads);
      for (let r = 0; r < runs.length && seen < end; r++) {
        const entry = runs.entry(r);
        if (!passName(entry.head[entry.head.length - 1] ?? "")) continue;
        const to = r + 1 < runs.length ? (runs.positions[r + 1] as number) : last;
        for (let position = entry.position; position < to && seen < end; position++) {
          const place = placeIn(table, position - first, width);
          if (pass[place] === 1 && seen++ >= start)
            found.push({ position, place, head: entry.head });
        }
      }
    }
    return found;
  }

  /** A head-table chunk's runs decoded whole (a scan tests every run's name), kept per isolate. */
  private headRuns(chunk: number, bytes: Uint8Array): Postings {
    let runs = this.decodedHeads.get(chunk);
    if (runs === undefined) {
      this.decodedHeads.set(chunk, (runs = decodePostings(bytes, RECORD_CHUNK_STREETS)));
      // A scan may pass every chunk of a national list: keep the most recent, not all of them.
      if (this.decodedHeads.size > DECODED_HEAD_CHUNKS)
        this.decodedHeads.delete(this.decodedHeads.keys().next().value as number);
    }
    return runs;
  }

  /** Charges the record-table chunks of streets [start, start + length) (as placesAt will). */
  chargeStreets(start: number, length: number, budget: ReadBudget): void {
    const last = Math.floor((start + length - 1) / RECORD_CHUNK_STREETS);
    for (let chunk = Math.floor(start / RECORD_CHUNK_STREETS); chunk <= last; chunk++)
      this.chargeRecords(chunk, budget);
  }

  private chargeRecords(chunk: number, budget: ReadBudget): void {
    budget.charge(recordsPath(this.country, chunk), this.recordBytes(chunk));
  }

  private recordBytes(chunk: number): number {
    return (
      Math.min(RECORD_CHUNK_STREETS, this.meta.count - chunk * RECORD_CHUNK_STREETS) *
      this.meta.placeWidth
    );
  }

  /** A head-table chunk, kept per isolate once read. */
  private async headChunk(chunk: number): Promise<Uint8Array> {
    let heads = this.headChunks.get(chunk);
    if (heads === undefined)
      this.headChunks.set(
        chunk,
        (heads = new Uint8Array(
          await (
            await this.store.require(this.origin, headsPath(this.country, chunk))
          ).arrayBuffer(),
        )),
      );
    return heads;
  }

  private async recordChunk(chunk: number): Promise<Uint8Array> {
    let table = this.records.get(chunk);
    if (table === undefined)
      this.records.set(
        chunk,
        (table = new Uint8Array(
          await (
            await this.store.require(this.origin, recordsPath(this.country, chunk))
          ).arrayBuffer(),
        )),
      );
    return table;
  }

  /** The record- and head-table files streetsAt reads for these streets, with their bytes (the head chunks read, not charged). */
  async filesAt(positions: readonly number[]): Promise<Map<string, number>> {
    const files = new Map<string, number>();
    for (const chunk of new Set(positions.map((p) => Math.floor(p / RECORD_CHUNK_STREETS)))) {
      files.set(recordsPath(this.country, chunk), this.recordBytes(chunk));
      files.set(headsPath(this.country, chunk), (await this.headChunk(chunk)).byteLength);
    }
    return files;
  }

  /** Streets by position (increasing) as list entries: places from the record table, heads from the head table. */
  async streetsAt(positions: readonly number[], budget: ReadBudget): Promise<ListEntry[]> {
    const places = await this.placesAt(positions, budget);
    const chunks = [
      ...new Set(positions.map((position) => Math.floor(position / RECORD_CHUNK_STREETS))),
    ];
    const loaded = await Promise.all(
      chunks.map(async (chunk) => {
        const heads = await this.headChunk(chunk);
        budget.charge(headsPath(this.country, chunk), heads.byteLength);
        const here = positions
          .filter((p) => Math.floor(p / RECORD_CHUNK_STREETS) === chunk)
          .sort((a, b) => a - b);
        const found = headsInRuns(heads, here);
        return here.map((position, i) => [position, found[i] ?? []] as const);
      }),
    );
    const heads = new Map(loaded.flat());
    return positions.map((position, i) => ({
      position,
      place: places[i] ?? 0,
      head: heads.get(position) ?? [],
    }));
  }
}

/** Head-table chunks kept decoded per isolate (each holds the heads of RECORD_CHUNK_STREETS streets). */
const DECODED_HEAD_CHUNKS = 8;

/** The place of the k-th street of a record-table chunk (little-endian, `width` bytes). */
const placeIn = (table: Uint8Array, k: number, width: number) =>
  (table[k * width] ?? 0) +
  256 * (table[k * width + 1] ?? 0) +
  (width === 3 ? 65536 * (table[k * width + 2] ?? 0) : 0);
