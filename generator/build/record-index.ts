import { hash } from "node:crypto";
import type { OldCursor, OldDataset } from "./old-cursor.ts";

/**
 * The old records the streaming diff has not reached, indexed by a digest of their bytes: what the
 * diff falls back to when the records waiting for their match grow past its limit (the views
 * reordered, so that each side's records arrive far from the other's). Per old record it holds
 * its digest (80 bits of its SHA-1: two records of one dataset that differ have the same one with
 * a chance of about 10⁻¹²), its part and its place there, not its text; the texts of the records
 * no new record matched are read again from their parts at the end.
 */
export class OldRecordIndex {
  private readonly keys: Float64Array;
  private readonly checks: Uint32Array;
  private readonly parts: Uint32Array;
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;
  /** Record numbers ordered by key, and whether a new record matched each record. */
  private readonly order: Uint32Array;
  private readonly matched: Uint8Array;
  private count = 0;

  private constructor(
    private readonly old: OldDataset,
    capacity: number,
  ) {
    this.keys = new Float64Array(capacity);
    this.checks = new Uint32Array(capacity);
    this.parts = new Uint32Array(capacity);
    this.starts = new Float64Array(capacity);
    this.ends = new Float64Array(capacity);
    this.order = new Uint32Array(capacity);
    this.matched = new Uint8Array(capacity);
  }

  /** Indexes every record from the cursor on (the cursor ends past the last record). */
  static async of(old: OldDataset, cursor: OldCursor): Promise<OldRecordIndex> {
    const capacity = old.parts.reduce((sum, part) => sum + part.records, 0);
    const index = new OldRecordIndex(old, capacity);
    let n = 0;
    while ((await cursor.next()) !== undefined) {
      const { part, bytes, start, end } = cursor.pass();
      const [key, check] = digest(bytes.subarray(start, end));
      index.keys[n] = key;
      index.checks[n] = check;
      index.parts[n] = part;
      index.starts[n] = start;
      index.ends[n] = end;
      index.order[n] = n;
      n++;
    }
    index.count = n;
    const order = index.order.subarray(0, n);
    order.sort((a, b) => (index.keys[a] ?? 0) - (index.keys[b] ?? 0));
    return index;
  }

  /** Marks an unmatched old record with these bytes as matched; false when there is none. */
  take(record: Uint8Array): boolean {
    const [key, check] = digest(record);
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.keys[this.order[mid] ?? 0] ?? 0) < key) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < this.count; i++) {
      const n = this.order[i] ?? 0;
      if (this.keys[n] !== key) return false;
      if (this.checks[n] === check && this.matched[n] === 0) {
        this.matched[n] = 1;
        return true;
      }
    }
    return false;
  }

  /** The texts of the old records no new record matched, each part read once more. */
  async unmatched(): Promise<string[]> {
    const texts: string[] = [];
    let part = -1;
    let bytes: Buffer | undefined;
    for (let n = 0; n < this.count; n++) {
      if (this.matched[n] === 1) continue;
      if (this.parts[n] !== part) {
        part = this.parts[n] ?? 0;
        const raw = await this.old.read(part);
        bytes = Buffer.isBuffer(raw)
          ? raw
          : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      }
      texts.push((bytes as Buffer).toString("utf8", this.starts[n], this.ends[n]));
    }
    return texts;
  }
}

/** 48 bits of the record's SHA-1 as a number (exact in a double), and 32 more bits to confirm it. */
function digest(record: Uint8Array): [number, number] {
  const sum = hash("sha1", record, "buffer");
  return [sum.readUIntBE(0, 6), sum.readUInt32BE(6)];
}
