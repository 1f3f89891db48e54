import { jsonRecordEnd } from "../contract/json-records.ts";

/** The predecessor's complete dataset of one resource: its JSON download, part by part. */
export interface OldDataset {
  /** Per part, in order: its records and its SHA-256 (hex), as the manifest states them. */
  readonly parts: readonly { readonly records: number; readonly sha256: string }[];
  /** One part's bytes; they may be overwritten by the next read (one buffer serves every part). */
  read(part: number): Promise<Uint8Array>;
}

const COMMA = 0x2c;
const CLOSE_ARRAY = 0x5d;

/**
 * Walks the old dataset's records in order, one part in memory at a time, each part read when
 * the walk reaches it and never again. Parts set aside with `skip` (the same bytes as a new part)
 * are not read at all.
 */
export class OldCursor {
  /** The part the cursor is in; its bytes once read. */
  private part = 0;
  private bytes: Buffer | undefined;
  /** Where the next record starts in `bytes`, and how many of the part's records came before it. */
  private at = 1;
  private taken = 0;
  private readonly skipped = new Set<number>();

  constructor(private readonly old: OldDataset) {}

  /** Sets aside old part `part` (the caller found a new part with its bytes), unless the cursor has begun it. */
  skip(part: number): boolean {
    if (part < this.part || (part === this.part && this.bytes !== undefined)) return false;
    this.skipped.add(part);
    return true;
  }

  /** Whether the cursor is at a record of a part already read (no need to wait for `next`). */
  atRecord(): boolean {
    return (
      this.bytes !== undefined && this.at < this.bytes.length && this.bytes[this.at] !== CLOSE_ARRAY
    );
  }

  /** The bytes at the cursor and where the next record starts there; undefined past the last record. */
  async next(): Promise<{ bytes: Buffer; at: number } | undefined> {
    for (;;) {
      while (this.skipped.has(this.part)) this.part++;
      const spec = this.old.parts[this.part];
      if (spec === undefined) return undefined;
      if (this.bytes === undefined) {
        const raw = await this.old.read(this.part);
        this.bytes = Buffer.isBuffer(raw)
          ? raw
          : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
        this.at = 1;
        this.taken = 0;
      }
      if (this.bytes[this.at] !== CLOSE_ARRAY && this.at < this.bytes.length)
        return { bytes: this.bytes, at: this.at };
      if (this.taken !== spec.records)
        throw new Error(
          `the predecessor's dataset part ${this.part + 1} has ${this.taken} records, its manifest ${spec.records}`,
        );
      this.bytes = undefined;
      this.part++;
    }
  }

  /**
   * Whether the `records` records at the cursor are `json[start, end)` byte for byte (a native
   * comparison, no parsing; the same bytes from a record's start are the same records); if so the
   * cursor moves past them. `next` must have found a record.
   */
  takeIfEqual(json: Buffer, start: number, end: number, records = 1): boolean {
    const bytes = this.bytes as Buffer;
    const after = this.at + end - start;
    const delimiter = bytes[after];
    if (
      (delimiter !== COMMA && delimiter !== CLOSE_ARRAY) ||
      json.compare(bytes, this.at, after, start, end) !== 0
    )
      return false;
    this.taken += records - 1;
    this.passed(after);
    return true;
  }

  /** The record at the cursor, as text; the cursor moves past it. `next` must have found a record. */
  take(): string {
    const bytes = this.bytes as Buffer;
    const end = jsonRecordEnd(bytes, this.at);
    const text = bytes.toString("utf8", this.at, end);
    this.passed(end);
    return text;
  }

  /**
   * The record at the cursor, by its place (the part and its bytes there), not decoded; the cursor
   * moves past it. `next` must have found a record.
   */
  pass(): { part: number; bytes: Buffer; start: number; end: number } {
    const bytes = this.bytes as Buffer;
    const start = this.at;
    const end = jsonRecordEnd(bytes, start);
    this.passed(end);
    return { part: this.part, bytes, start, end };
  }

  private passed(end: number): void {
    this.taken++;
    this.at = (this.bytes as Buffer)[end] === COMMA ? end + 1 : end;
  }
}
