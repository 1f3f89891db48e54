import { csvRow, type CsvColumn } from "../contract/csv.ts";
import { identityFields, identityOf } from "./change-identity.ts";
import type { EncodedRecords } from "./encode.ts";
import { forEachJsonRecord, hashBytes } from "./json-records.ts";

/** The predecessor's complete dataset of one resource: its JSON download, part by part. */
export interface OldDataset {
  readonly parts: number;
  read(part: number): Promise<Uint8Array>;
}

/** One record's change; records as their compact JSON, and their CSV rows (with CRLF). */
export type RecordChange =
  | { readonly kind: "added"; readonly json: string; readonly csv: string }
  | { readonly kind: "removed"; readonly old: string; readonly oldCsv: string }
  | { readonly kind: "changed"; readonly old: string; readonly oldCsv: string; readonly json: string; readonly csv: string };

/**
 * The records of one resource added, removed and changed against its predecessor's dataset. The
 * old dataset is read twice rather than held: first its records' hashes (every record the new
 * build has with the same bytes is unchanged), then, once the new records are all seen, the few
 * old records no new one matched. Only the records that differ are parsed, for their identity.
 */
export class RecordDiff {
  /** The old records' hashes, sorted; `matched[i]` says whether a new record had `hashes[i]`. */
  private readonly matched: Uint8Array;
  private readonly unmatched: { json: string; csv: string }[] = [];

  private constructor(
    private readonly old: OldDataset,
    private readonly hashes: Float64Array,
    private readonly columns: readonly CsvColumn[],
  ) {
    this.matched = new Uint8Array(hashes.length);
  }

  static async start(old: OldDataset, columns: readonly CsvColumn[]): Promise<RecordDiff> {
    const hashes: number[] = [];
    for (let part = 0; part < old.parts; part++) {
      const bytes = await old.read(part);
      forEachJsonRecord(bytes, (start, end) => hashes.push(hashBytes(bytes, start, end)));
    }
    return new RecordDiff(old, Float64Array.from(hashes).sort(), columns);
  }

  /** The next records of the new dataset, in dataset order (JSON records end in a comma, as packed). */
  observe(encoded: EncodedRecords): void {
    const { json, csv } = encoded.bytes;
    const at = encoded.offsets;
    for (let i = 0; i < encoded.count; i++) {
      const start = at.json[i] ?? 0;
      const end = (at.json[i + 1] ?? 0) - 1;
      if (this.take(hashBytes(json, start, end), 1)) continue;
      this.unmatched.push({ json: json.toString("utf8", start, end), csv: csv.toString("utf8", at.csv[i] ?? 0, at.csv[i + 1] ?? 0) });
    }
  }

  /** The changes, ordered by record (its compact JSON: the new one where there is one). */
  async finish(resourceId: string): Promise<RecordChange[]> {
    const gone: string[] = [];
    for (let part = 0; part < this.old.parts; part++) {
      const bytes = await this.old.read(part);
      forEachJsonRecord(bytes, (start, end) => {
        if (!this.take(hashBytes(bytes, start, end), 2)) gone.push(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("utf8"));
      });
    }
    const sample = this.unmatched[0]?.json ?? gone[0];
    if (sample === undefined) return [];
    const fields = identityFields(resourceId, JSON.parse(sample) as Record<string, unknown>);
    const identity = (json: string) => identityOf(JSON.parse(json) as Record<string, unknown>, fields);
    const oldBy = groupBy(gone, identity);
    const newBy = groupBy(this.unmatched.map((r) => r.json), identity);
    // Paired only when the identity names one record on each side: otherwise removed and added, which is still exact.
    const pairOf = (key: string) => (oldBy.get(key)?.length === 1 && newBy.get(key)?.length === 1 ? oldBy.get(key)?.[0] : undefined);
    const paired = new Set<string>();
    const later: RecordChange[] = this.unmatched.map(({ json, csv }) => {
      const old = pairOf(identity(json));
      if (old === undefined) return { kind: "added", json, csv };
      paired.add(old);
      return { kind: "changed", old, oldCsv: this.csvOf(old), json, csv };
    });
    const removed: RecordChange[] = gone.filter((old) => !paired.has(old)).map((old) => ({ kind: "removed", old, oldCsv: this.csvOf(old) }));
    // In record order, not dataset order: resources that hold the same records in other groupings
    // (every municipality under its district, under its state) then have the same change files.
    const record = (change: RecordChange) => (change.kind === "removed" ? change.old : change.json);
    return [...removed, ...later].sort((a, b) => (record(a) < record(b) ? -1 : record(a) > record(b) ? 1 : 0));
  }

  /** The old record's CSV row: the download's rows are rendered from the JSON records (this build's columns). */
  private csvOf(json: string): string {
    return csvRow(this.columns, JSON.parse(json));
  }

  /**
   * Marks one old record with hash `hash` as seen in pass `pass` (1: a new record has it; 2: the
   * second reading of the old records), so that equal records count as many times as they occur.
   */
  private take(hash: number, pass: 1 | 2): boolean {
    let i = lowerBound(this.hashes, hash);
    for (; i < this.hashes.length && this.hashes[i] === hash; i++) {
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

function groupBy(records: readonly string[], key: (record: string) => string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const record of records) {
    const k = key(record);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [record]);
    else group.push(record);
  }
  return groups;
}
