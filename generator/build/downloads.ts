import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { csvHeader } from "../contract/csv.ts";
import { datasetPath, DOWNLOADS_INDEX, GZIP_CONTENT_TYPE, GZIP_THRESHOLD, MAX_DOWNLOAD_BYTES, viewDownloadPath, type DownloadCredit, type DownloadFile, type DownloadsManifest } from "../contract/downloads.ts";
import { CONTENT_TYPES } from "../contract/headers.ts";
import { renderPage } from "../contract/page.ts";
import type { Format } from "../contract/query.ts";
import type { FileSink } from "../io/sink.ts";
import type { AnyResource } from "../resources/resource.ts";
import type { RenderedView } from "./views.ts";

const gzipAsync = promisify(gzip);
/** Gzip runs on libuv's thread pool, beside the rendering; this bounds the parts held for it. */
const MAX_PENDING_GZIPS = 4;

/** A manifest entry while its dataset is written: the number of parts is known only at the end. */
type PendingFile = { -readonly [K in keyof DownloadFile]: DownloadFile[K] };

/** Writes the whole-dataset downloads and their manifest. */
export class DownloadWriter {
  private readonly files: PendingFile[] = [];
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;

  constructor(
    private readonly sink: FileSink,
    /** The CDN's file size limit, and the size above which a gzip copy is added (tests make them small). */
    readonly limits = { maxBytes: MAX_DOWNLOAD_BYTES, gzipOver: GZIP_THRESHOLD },
  ) {}

  /** Starts one resource's complete dataset (both formats); feed it views in API order. */
  dataset(resource: AnyResource): DatasetWriter {
    return new DatasetWriter(this, resource);
  }

  /** One view's complete records (e.g. every street of one locality), in both formats. */
  async view(resource: AnyResource, slug: string, filter: Readonly<Record<string, string>>, rendered: RenderedView): Promise<void> {
    const base = { endpoint: resource.path, filter, records: rendered.json.length, credits: creditsOf(resource) };
    for (const format of ["json", "csv"] as const) {
      await this.file({ ...base, path: viewDownloadPath(resource.id, slug, format), format }, renderPage(format, csvHeader(resource.record.columns), rendered[format]));
    }
  }

  /** Writes a file, and its gzip copy (in the background) when it is over the threshold. */
  async file(entry: Omit<DownloadFile, "mediaType" | "bytes" | "sha256">, text: string): Promise<PendingFile> {
    const data = Buffer.from(text, "utf8");
    if (data.byteLength > this.limits.maxBytes) throw new Error(`download ${entry.path} would be ${data.byteLength} bytes, over the limit of ${this.limits.maxBytes}`);
    const written = this.sink.write(entry.path, data);
    const { path, records, endpoint, filter, format, part, gzipOf, credits } = entry;
    const file: PendingFile = {
      path,
      mediaType: CONTENT_TYPES[format],
      bytes: data.byteLength,
      sha256: written.sha256Hex(),
      records,
      endpoint,
      ...(filter === undefined ? {} : { filter }),
      format,
      ...(part === undefined ? {} : { part }),
      ...(gzipOf === undefined ? {} : { gzipOf }),
      credits,
    };
    this.files.push(file);
    if (data.byteLength > this.limits.gzipOver) await this.gzipCopy(file, data);
    return file;
  }

  /** Waits for the gzip copies, then writes the manifest. */
  async finish(builtAt: string, sources: readonly unknown[], joins: readonly unknown[] = []): Promise<DownloadsManifest> {
    await Promise.all(this.pending);
    if (this.failure !== undefined) throw this.failure;
    const byPath = new Map(this.files.map((file) => [file.path, file]));
    const files = this.files
      .map((file) => {
        // A gzip copy was made before its dataset knew its number of parts.
        const original = file.gzipOf === undefined ? undefined : byPath.get(file.gzipOf);
        return original?.part === undefined || original.parts === undefined ? file : { ...file, part: original.part, parts: original.parts };
      })
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const manifest: DownloadsManifest = { builtAt, sources, joins, files };
    this.sink.write(DOWNLOADS_INDEX, `${JSON.stringify(manifest)}\n`);
    return manifest;
  }

  private async gzipCopy(file: PendingFile, data: Buffer): Promise<void> {
    while (this.pending.size >= MAX_PENDING_GZIPS) await Promise.race(this.pending);
    const job = gzipAsync(data, { level: 6 })
      .then((compressed) => {
        const path = `${file.path}.gz`;
        const written = this.sink.write(path, compressed);
        this.files.push({ ...file, path, mediaType: GZIP_CONTENT_TYPE, bytes: compressed.byteLength, sha256: written.sha256Hex(), gzipOf: file.path });
      })
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }
}

interface PartBuffer {
  /** Rows of the part being filled, and its size as written. */
  rows: string[];
  bytes: number;
  /** The first full part, held back until a second one starts. */
  held?: string[];
  readonly parts: PendingFile[];
}

/**
 * A complete dataset in parts under the CDN's file size limit. The first part is held back until
 * it is clear whether there will be a second, so a dataset that fits is one plain file.
 */
export class DatasetWriter {
  private readonly buffers: Record<Format, PartBuffer>;
  private readonly header: string;

  constructor(
    private readonly writer: DownloadWriter,
    private readonly resource: AnyResource,
  ) {
    this.header = csvHeader(resource.record.columns);
    this.buffers = { json: { rows: [], bytes: this.emptyBytes("json"), parts: [] }, csv: { rows: [], bytes: this.emptyBytes("csv"), parts: [] } };
  }

  async add(rendered: RenderedView): Promise<void> {
    for (const row of rendered.json) await this.push("json", row);
    for (const row of rendered.csv) await this.push("csv", row);
  }

  async finish(): Promise<void> {
    for (const format of ["json", "csv"] as const) {
      const buffer = this.buffers[format];
      if (buffer.held === undefined && buffer.parts.length === 0) await this.write(format, buffer.rows, undefined);
      else await this.completePart(format);
      const parts = buffer.parts.length;
      for (const file of buffer.parts) file.parts = parts;
    }
  }

  private async push(format: Format, row: string): Promise<void> {
    const buffer = this.buffers[format];
    // JSON records are separated by a comma; CSV rows end in their own CRLF.
    const size = Buffer.byteLength(row) + (format === "json" && buffer.rows.length > 0 ? 1 : 0);
    if (buffer.rows.length > 0 && buffer.bytes + size > this.writer.limits.maxBytes) {
      await this.completePart(format);
      return this.push(format, row);
    }
    buffer.rows.push(row);
    buffer.bytes += size;
  }

  private async completePart(format: Format): Promise<void> {
    const buffer = this.buffers[format];
    const rows = buffer.rows;
    buffer.rows = [];
    buffer.bytes = this.emptyBytes(format);
    if (buffer.held === undefined && buffer.parts.length === 0) {
      buffer.held = rows;
      return;
    }
    if (buffer.held !== undefined) {
      await this.write(format, buffer.held, 1);
      delete buffer.held;
    }
    await this.write(format, rows, buffer.parts.length + 1);
  }

  private emptyBytes(format: Format): number {
    return format === "json" ? 2 : Buffer.byteLength(this.header);
  }

  private async write(format: Format, rows: readonly string[], part: number | undefined): Promise<void> {
    const text = renderPage(format, this.header, rows);
    const file = await this.writer.file(
      {
        path: datasetPath(this.resource.id, format, part),
        endpoint: this.resource.path,
        format,
        records: rows.length,
        credits: creditsOf(this.resource),
        ...(part === undefined ? {} : { part }),
      },
      text,
    );
    if (part !== undefined) this.buffers[format].parts.push(file);
  }
}

function creditsOf(resource: AnyResource): DownloadCredit[] {
  return resource.credits.map(({ source, attribution, licence, licenceUrl, asOf }) => ({ source, attribution, licence, ...(licenceUrl === undefined ? {} : { licenceUrl }), asOf }));
}
