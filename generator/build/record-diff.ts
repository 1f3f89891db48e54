import { csvRow, type CsvColumn } from "../contract/csv.ts";
import { identityFields, identityOf } from "./change-identity.ts";
import type { EncodedRecords } from "./encode.ts";
import { forEachJsonRecord, hashBytes } from "./json-records.ts";

/** The predecessor's complete dataset of one resource: its JSON download, part by part. */
export interface OldDataset {
  readonly parts: number;
  /** Its records, as the manifest counts them. */
  readonly records: number;
  read(part: number): Promise<Uint8Array>;
}

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

/**
 * The records of one resource added, removed and changed against its predecessor's dataset. The
 * old dataset is not held: its records' hashes and places are (every new record with the same
 * bytes as an old one is unchanged); once the new records are all seen, the parts are read again
 * for the few old records no new one matched. Only the records that differ are parsed.
 */
export class RecordDiff {
  /** The old records' hashes, sorted; `matched[i]` says whether a new record had `sorted[i]`. */
  private readonly sorted: Float64Array;
  private readonly matched: Uint8Array;
  private readonly unmatched: { json: string; csv: string }[] = [];

  private constructor(
    private readonly old: OldDataset,
    /** Per old record, in dataset order: its hash, its part, and where in the part it starts and ends. */
    private readonly records: {
      readonly hashes: Float64Array;
      readonly parts: Uint16Array;
      readonly starts: Float64Array;
      readonly ends: Float64Array;
    },
    private readonly columns: readonly CsvColumn[],
  ) {
    this.sorted = Float64Array.from(records.hashes).sort();
    this.matched = new Uint8Array(records.hashes.length);
  }

  static async start(old: OldDataset, columns: readonly CsvColumn[]): Promise<RecordDiff> {
    const hashes = new Float64Array(old.records);
    const parts = new Uint16Array(old.records);
    const starts = new Float64Array(old.records);
    const ends = new Float64Array(old.records);
    let n = 0;
    for (let part = 0; part < old.parts; part++) {
      const bytes = await old.read(part);
      forEachJsonRecord(bytes, (start, end) => {
        if (n === old.records)
          throw new Error(
            `the predecessor's dataset has more records than its manifest's ${old.records}`,
          );
        hashes[n] = hashBytes(bytes, start, end);
        parts[n] = part;
        starts[n] = start;
        ends[n++] = end;
      });
    }
    if (n !== old.records)
      throw new Error(`the predecessor's dataset has ${n} records, its manifest ${old.records}`);
    return new RecordDiff(old, { hashes, parts, starts, ends }, columns);
  }

  /** The next records of the new dataset, in dataset order (JSON records end in a comma, as packed). */
  observe(encoded: EncodedRecords): void {
    const { json, csv } = encoded.bytes;
    const at = encoded.offsets;
    for (let i = 0; i < encoded.count; i++) {
      const start = at.json[i] ?? 0;
      const end = (at.json[i + 1] ?? 0) - 1;
      if (this.take(hashBytes(json, start, end), 1)) continue;
      this.unmatched.push({
        json: json.toString("utf8", start, end),
        csv: csv.toString("utf8", at.csv[i] ?? 0, at.csv[i + 1] ?? 0),
      });
    }
  }

  /** The changes, ordered by record (its compact JSON: the new one where there is one). */
  async finish(resourceId: string): Promise<RecordChange[]> {
    const { hashes, parts, starts, ends } = this.records;
    const missing: number[] = [];
    for (let i = 0; i < hashes.length; i++) if (!this.take(hashes[i] as number, 2)) missing.push(i);
    const gone: string[] = [];
    for (let part = 0, at = 0; part < this.old.parts && at < missing.length; part++) {
      if (parts[missing[at] as number] !== part) continue;
      const bytes = await this.old.read(part);
      for (; at < missing.length && parts[missing[at] as number] === part; at++) {
        const i = missing[at] as number;
        gone.push(
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
            "utf8",
            starts[i],
            ends[i],
          ),
        );
      }
    }
    const sample = this.unmatched[0]?.json ?? gone[0];
    if (sample === undefined) return [];
    const fields = identityFields(resourceId, JSON.parse(sample) as Record<string, unknown>);
    const identity = (json: string) =>
      identityOf(JSON.parse(json) as Record<string, unknown>, fields);
    const oldBy = groupBy(gone, identity);
    const newBy = groupBy(
      this.unmatched.map((r) => r.json),
      identity,
    );
    // Paired only when the identity names one record on each side: otherwise removed and added, which is still exact.
    const pairOf = (key: string) =>
      oldBy.get(key)?.length === 1 && newBy.get(key)?.length === 1
        ? oldBy.get(key)?.[0]
        : undefined;
    const paired = new Set<string>();
    const later: RecordChange[] = this.unmatched.map(({ json, csv }) => {
      const old = pairOf(identity(json));
      if (old === undefined) return { kind: "added", json, csv };
      paired.add(old);
      return { kind: "changed", old, oldCsv: this.csvOf(old), json, csv };
    });
    const removed: RecordChange[] = gone
      .filter((old) => !paired.has(old))
      .map((old) => ({ kind: "removed", old, oldCsv: this.csvOf(old) }));
    // In record order, not dataset order: resources that hold the same records in other groupings
    // (every municipality under its district, under its state) then have the same change files.
    const record = (change: RecordChange) => (change.kind === "removed" ? change.old : change.json);
    return [...removed, ...later].sort((a, b) =>
      record(a) < record(b) ? -1 : record(a) > record(b) ? 1 : 0,
    );
  }

  /** The old record's CSV row: the download's rows are rendered from the JSON records (this build's columns). */
  private csvOf(json: string): string {
    return csvRow(this.columns, JSON.parse(json));
  }

  /**
   * Marks one old record with hash `hash` as seen in pass `pass` (1: a new record has it; 2: the
   * old records gone through again), so that equal records count as many times as they occur.
   */
  private take(hash: number, pass: 1 | 2): boolean {
    let i = lowerBound(this.sorted, hash);
    for (; i < this.sorted.length && this.sorted[i] === hash; i++) {
      if (this.matched[i] === pass - 1) {
        this.matched[i] = pass;
        return true;
      }
    }
    return false;
  }
}

function lowerBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function groupBy(
  records: readonly string[],
  key: (record: string) => string,
): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const record of records) {
    const k = key(record);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [record]);
    else group.push(record);
  }
  return groups;
}
