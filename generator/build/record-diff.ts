import { csvRow, type CsvColumn } from "../contract/csv.ts";
import { identityFields, identityOf } from "../contract/record-identity.ts";
import { OldCursor, type OldDataset } from "./old-cursor.ts";
import { OldRecordIndex } from "./record-index.ts";

/**
 * How many characters of records may wait in the pools before the diff indexes the rest of the old
 * dataset instead (a few bytes per record, whatever the order): a 1% change to the national street
 * list keeps a few MiB waiting; views in another order would keep up to the whole dataset.
 */
export const POOL_LIMIT = 32 * 2 ** 20;

/** How many records the diff compares at once with the old ones at the cursor, before one by one. */
const RUN = 16;

/** One record's change; records as their compact JSON, and their CSV rows (with CRLF). */
export type RecordChange =
  | { readonly kind: "added"; readonly json: string; readonly csv: string }
  | { readonly kind: "removed"; readonly old: string; readonly oldCsv: string }
  | {
      readonly kind: "changed";
      readonly old: string;
      readonly oldCsv: string;
      readonly json: string;
      readonly csv: string;
    };

/** Records of a new dataset part: records `from` to `to` of a view's packed JSON (each record ends in a comma). */
export interface RecordSlice {
  readonly json: Buffer;
  /** Where each record starts in the view's packed JSON, and after the last, where it ends. */
  readonly offsets: Float64Array;
  /** Where the view's packed JSON starts in `json` (its records were copied there, from `from` on). */
  readonly shift: number;
  readonly from: number;
  readonly to: number;
}

/**
 * The records of one resource added, removed and changed against its predecessor's dataset,
 * streamed: both datasets are in the API's order, so the new records are compared byte for byte
 * with the old record at a cursor, which moves through the old parts once. A part with the same
 * SHA-256 as the old part in its place is not compared at all (nor read). Records that differ
 * wait, as text, in one of two pools until the other side brings their match (a record moved, or
 * inserted before others); what is left in the pools at the end is what changed. Only the
 * records that differ are decoded or parsed; the pools hold them, not the datasets. Past `limit`
 * characters in the pools, the rest of the old dataset is indexed (OldRecordIndex) and each new
 * record is looked up there: the same changes, in memory bounded by the number of records.
 */
export class RecordDiff {
  private readonly cursor: OldCursor;
  /** Old records not (yet) matched: text → how many. */
  private readonly oldPool = new Map<string, number>();
  /** New records not (yet) matched: text → how many. */
  private readonly newPool = new Map<string, number>();
  private parts = 0;
  /** Characters of the records in the pools. */
  private pooled = 0;
  /** Once the pools outgrew the limit: the old records not yet reached, and the new ones that matched none. */
  private index: OldRecordIndex | undefined;
  private readonly unmatched: string[] = [];

  constructor(
    private readonly old: OldDataset,
    private readonly columns: readonly CsvColumn[],
    private readonly limit = POOL_LIMIT,
  ) {
    this.cursor = new OldCursor(old);
  }

  /** The next part of the new dataset (its records, and the SHA-256 of the part as written). */
  async part(slices: readonly RecordSlice[], sha256: string): Promise<void> {
    const number = this.parts++;
    if (this.index !== undefined) return this.indexed(slices);
    if (this.old.parts[number]?.sha256 === sha256 && this.cursor.skip(number)) return;
    for (const [s, { json, offsets: at, shift, from, to }] of slices.entries()) {
      for (let i = from; i < to; i++) {
        if (this.pooled > this.limit) {
          await this.spill();
          return this.indexed([{ json, offsets: at, shift, from: i, to }, ...slices.slice(s + 1)]);
        }
        const start = (at[i] ?? 0) + shift;
        const end = (at[i + 1] ?? 0) + shift - 1;
        // Awaited only where a part is to be read: this loop runs once per record.
        const ready = this.cursor.atRecord() || (await this.cursor.next()) !== undefined;
        if (ready) {
          // Most records are unchanged: a run of them is one comparison, not one per record.
          const run = Math.min(RUN, to - i);
          if (
            run > 1 &&
            this.cursor.takeIfEqual(json, start, (at[i + run] ?? 0) + shift - 1, run)
          ) {
            i += run - 1;
            continue;
          }
          if (this.cursor.takeIfEqual(json, start, end)) continue;
        }
        await this.differs(json.toString("utf8", start, end));
      }
    }
  }

  /**
   * A new record that is not the old one at the cursor: matched with a waiting old record, or
   * else the cursor moves on. Old records that new ones wait for are passed (new records had been
   * inserted before them), up to this record itself; otherwise one old record moves to the pool
   * (it was removed, or this one inserted), so the two sides stay in step across a change. The
   * pools never hold the same record: what they hold at the end is exactly what differs.
   */
  private async differs(json: string): Promise<void> {
    if (this.take(this.oldPool, json)) return;
    while ((await this.cursor.next()) !== undefined) {
      const old = this.cursor.take();
      if (old === json) return;
      if (this.take(this.newPool, old)) continue;
      this.add(this.oldPool, old);
      break;
    }
    this.add(this.newPool, json);
  }

  /** Indexes the old records not yet reached; the waiting new records are looked up there. */
  private async spill(): Promise<void> {
    const index = await OldRecordIndex.of(this.old, this.cursor);
    this.index = index;
    for (const json of expand(this.newPool))
      if (!index.take(Buffer.from(json))) this.unmatched.push(json);
    this.newPool.clear();
  }

  /** New records once the old ones are indexed: matched there, or with a waiting old record. */
  private indexed(slices: readonly RecordSlice[]): void {
    const index = this.index as OldRecordIndex;
    for (const { json, offsets: at, shift, from, to } of slices) {
      for (let i = from; i < to; i++) {
        const start = (at[i] ?? 0) + shift;
        const end = (at[i + 1] ?? 0) + shift - 1;
        if (index.take(json.subarray(start, end))) continue;
        const text = json.toString("utf8", start, end);
        if (!this.take(this.oldPool, text)) this.unmatched.push(text);
      }
    }
  }

  /** The changes, ordered by record (its compact JSON: the new one where there is one). */
  async finish(resourceId: string): Promise<RecordChange[]> {
    while ((await this.cursor.next()) !== undefined) {
      const old = this.cursor.take();
      if (!this.take(this.newPool, old)) this.add(this.oldPool, old);
    }
    const texts = {
      old: [...expand(this.oldPool), ...((await this.index?.unmatched()) ?? [])],
      new: [...expand(this.newPool), ...this.unmatched],
    };
    const sample = texts.new[0] ?? texts.old[0];
    if (sample === undefined) return [];
    const fields = identityFields(resourceId, JSON.parse(sample) as Record<string, unknown>);
    // Each record parsed once, for its identity and its CSV row (rendered from the JSON record, as the download's rows are).
    const read = (json: string) => {
      const value = JSON.parse(json) as Record<string, unknown>;
      return { json, key: identityOf(value, fields), csv: csvRow(this.columns, value) };
    };
    const gone = texts.old.map(read);
    const unmatched = texts.new.map(read);
    const oldBy = groupBy(gone);
    const newBy = groupBy(unmatched);
    // Paired only when the identity names one record on each side: otherwise removed and added, which is still exact.
    const pairOf = (key: string) =>
      oldBy.get(key)?.length === 1 && newBy.get(key)?.length === 1
        ? oldBy.get(key)?.[0]
        : undefined;
    const paired = new Set<string>();
    const later: RecordChange[] = unmatched.map(({ json, key, csv }) => {
      const old = pairOf(key);
      if (old === undefined) return { kind: "added", json, csv };
      paired.add(old.json);
      return { kind: "changed", old: old.json, oldCsv: old.csv, json, csv };
    });
    const removed: RecordChange[] = gone
      .filter((old) => !paired.has(old.json))
      .map((old) => ({ kind: "removed", old: old.json, oldCsv: old.csv }));
    // In record order, not dataset order: resources that hold the same records in other groupings
    // (every municipality under its district, under its state) then have the same change files.
    const record = (change: RecordChange) => (change.kind === "removed" ? change.old : change.json);
    return [...removed, ...later].sort((a, b) =>
      record(a) < record(b) ? -1 : record(a) > record(b) ? 1 : 0,
    );
  }

  /** Whether the diff outgrew its pools and indexed the old records (for tests). */
  get spilled(): boolean {
    return this.index !== undefined;
  }

  private take(pool: Map<string, number>, json: string): boolean {
    const count = pool.get(json);
    if (count === undefined) return false;
    if (count === 1) pool.delete(json);
    else pool.set(json, count - 1);
    this.pooled -= json.length;
    return true;
  }

  private add(pool: Map<string, number>, json: string): void {
    pool.set(json, (pool.get(json) ?? 0) + 1);
    this.pooled += json.length;
  }
}

function expand(pool: Map<string, number>): string[] {
  return [...pool].flatMap(([json, count]) => Array.from({ length: count }, () => json));
}

function groupBy<T extends { readonly key: string }>(records: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const record of records) {
    const group = groups.get(record.key);
    if (group === undefined) groups.set(record.key, [record]);
    else group.push(record);
  }
  return groups;
}
