import { csvHeader } from "../contract/csv.ts";
import { datasetPath } from "../contract/downloads.ts";
import { FORMATS, type Format } from "../contract/query.ts";
import type { AnyResource } from "../resources/resource.ts";
import type { DownloadCredit, DownloadFile } from "../contract/downloads.ts";
import type { ResourceChanges } from "./change-feed.ts";
import type { RecordSlice } from "./record-diff.ts";
import type { EncodedRecords } from "./encode.ts";

/** A manifest entry while its dataset is written: the number of parts is known only at the end. */
export type PendingFile = { -readonly [K in keyof DownloadFile]: DownloadFile[K] };

/** What a dataset is written through (downloads.ts DownloadWriter): a file, and its manifest entry. */
interface FileWriter {
  /** A buffer of at least `bytes` for a part's file, which `file` takes back (downloads.ts DownloadWriter `partBuffer`). */
  partBuffer(bytes: number): Buffer;
  file(
    entry: Omit<DownloadFile, "mediaType" | "bytes" | "sha256">,
    data: Buffer,
  ): Promise<PendingFile>;
}

/** A resource's credits as a download lists them. */
export function creditsOf(resource: AnyResource): DownloadCredit[] {
  return resource.credits.map(({ source, attribution, licence, licenceUrl, asOf }) => ({
    source,
    attribution,
    licence,
    ...(licenceUrl === undefined ? {} : { licenceUrl }),
    asOf,
  }));
}

const OPEN = Buffer.from("[");
const CLOSE = Buffer.from("]");

/**
 * The part being filled in one format: its file's bytes so far (`[` or the CSV header, then the
 * records in packed form, copied from the views as they come: a view's encoded records are not
 * kept once it is written).
 */
interface PartBuffer {
  data: Buffer;
  filled: number;
  /** The same records with their places (JSON only), for the change feed's diff: slices of `data`. */
  slices: RecordSlice[];
  records: number;
  /** The part's size as written. */
  bytes: number;
  /** The first full part, held back until a second one starts. */
  held: Part | undefined;
  readonly parts: PendingFile[];
}

interface Part {
  /** The part's bytes as filled: a JSON part's last record still ends in its comma. */
  readonly data: Buffer;
  readonly slices: readonly RecordSlice[];
  readonly records: number;
}

/** A part's buffer to start with; it doubles as records come. */
const FIRST_PART_BYTES = 64 * 1024;

/**
 * A complete dataset in parts under the CDN's file size limit, cut at record boundaries out of the
 * views' encoded records (no record is rendered or encoded again). The first part is held back
 * until it is clear whether there will be a second, so a dataset that fits is one plain file.
 */
export class DatasetWriter {
  private readonly buffers: Record<Format, PartBuffer>;
  private readonly header: Buffer;

  constructor(
    private readonly writer: FileWriter,
    private readonly resource: AnyResource,
    private readonly maxBytes: number,
    /** The diff against the predecessor's dataset, which sees every record as it is added. */
    private readonly changes?: ResourceChanges,
  ) {
    this.header = Buffer.from(csvHeader(resource.record.columns));
    this.buffers = {
      json: this.emptyBuffer("json"),
      csv: this.emptyBuffer("csv"),
    };
  }

  async add(encoded: EncodedRecords): Promise<void> {
    for (const format of FORMATS) {
      const buffer = this.buffers[format];
      const offsets = encoded.offsets[format];
      let from = 0;
      for (let i = 0; i < encoded.count; i++) {
        // A JSON record's size includes its comma, which the part's last record will not have.
        const size =
          (offsets[i + 1] ?? 0) -
          (offsets[i] ?? 0) -
          (format === "json" && buffer.records === 0 ? 1 : 0);
        if (buffer.records > 0 && buffer.bytes + size > this.maxBytes) {
          if (i > from) this.piece(buffer, format, encoded, from, i);
          from = i;
          await this.completePart(format);
          i--; // the record starts the next part
          continue;
        }
        buffer.records++;
        buffer.bytes += size;
      }
      if (from < encoded.count) this.piece(buffer, format, encoded, from, encoded.count);
    }
  }

  async finish(): Promise<void> {
    for (const format of FORMATS) {
      const buffer = this.buffers[format];
      if (buffer.held === undefined && buffer.parts.length === 0)
        await this.write(format, partOf(buffer), undefined);
      else await this.completePart(format);
      for (const file of buffer.parts) file.parts = buffer.parts.length;
    }
    await this.changes?.finish();
  }

  private piece(
    buffer: PartBuffer,
    format: Format,
    encoded: EncodedRecords,
    from: number,
    to: number,
  ): void {
    const offsets = encoded.offsets[format];
    const start = offsets[from] ?? 0;
    const end = offsets[to] ?? 0;
    if (buffer.filled + end - start > buffer.data.length) {
      const grown = this.writer.partBuffer(
        Math.max(2 * buffer.data.length, buffer.filled + end - start),
      );
      buffer.data.copy(grown, 0, 0, buffer.filled);
      buffer.data = grown;
    }
    encoded.bytes[format].copy(buffer.data, buffer.filled, start, end);
    if (format === "json" && this.changes !== undefined)
      buffer.slices.push({
        json: buffer.data,
        offsets: encoded.offsets.json,
        from,
        to,
        shift: buffer.filled - start,
      });
    buffer.filled += end - start;
  }

  private emptyBuffer(format: Format): PartBuffer {
    const buffer: PartBuffer = {
      data: this.writer.partBuffer(FIRST_PART_BYTES),
      filled: 0,
      slices: [],
      records: 0,
      bytes: this.emptyBytes(format),
      held: undefined,
      parts: [],
    };
    this.restart(buffer, format);
    return buffer;
  }

  /** Starts a part: its opening bracket or CSV header (the buffer holds at least FIRST_PART_BYTES). */
  private restart(buffer: PartBuffer, format: Format): void {
    const opening = format === "json" ? OPEN : this.header;
    if (opening.length > buffer.data.length) buffer.data = this.writer.partBuffer(opening.length);
    buffer.filled = opening.copy(buffer.data, 0);
  }

  private emptyBytes(format: Format): number {
    return format === "json" ? OPEN.length + CLOSE.length : this.header.length;
  }

  private async completePart(format: Format): Promise<void> {
    const buffer = this.buffers[format];
    const part = partOf(buffer);
    buffer.data = this.writer.partBuffer(FIRST_PART_BYTES);
    this.restart(buffer, format);
    buffer.slices = [];
    buffer.records = 0;
    buffer.bytes = this.emptyBytes(format);
    if (buffer.held === undefined && buffer.parts.length === 0) {
      buffer.held = part;
      return;
    }
    if (buffer.held !== undefined) {
      const held = buffer.held;
      buffer.held = undefined;
      await this.write(format, held, 1);
    }
    await this.write(format, part, buffer.parts.length + 1);
  }

  private async write(format: Format, part: Part, number: number | undefined): Promise<void> {
    let data = part.data;
    if (format === "json") {
      // The packed form ends each JSON record in a comma; the array's last one has none.
      if (part.records > 0) data[data.length - 1] = CLOSE[0] as number;
      else {
        const closed = this.writer.partBuffer(data.length + CLOSE.length);
        data.copy(closed);
        CLOSE.copy(closed, data.length);
        data = closed.subarray(0, data.length + CLOSE.length);
      }
    }
    const file = await this.writer.file(
      {
        path: datasetPath(this.resource.id, format, number),
        endpoint: this.resource.path,
        format,
        records: part.records,
        credits: creditsOf(this.resource),
        ...(number === undefined ? {} : { part: number }),
      },
      data,
    );
    if (number !== undefined) this.buffers[format].parts.push(file);
    if (format === "json") await this.changes?.part(part.slices, file.sha256);
  }
}

const partOf = (buffer: PartBuffer): Part => ({
  data: buffer.data.subarray(0, buffer.filled),
  slices: buffer.slices,
  records: buffer.records,
});
