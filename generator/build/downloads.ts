import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { csvHeader } from "../contract/csv.ts";
import { gzipPath } from "../contract/layout.ts";
import {
  DOWNLOADS_INDEX,
  GZIP_CONTENT_TYPE,
  GZIP_THRESHOLD,
  MAX_DOWNLOAD_BYTES,
  viewDownloadPath,
  type DownloadFile,
  type DownloadsManifest,
} from "../contract/downloads.ts";
import { CONTENT_TYPES } from "../contract/headers.ts";
import { FORMATS } from "../contract/query.ts";
import type { FileSink } from "../io/sink.ts";
import type { AnyResource } from "../resources/resource.ts";
import type { ChangeFeedWriter } from "./change-feed.ts";
import { creditsOf, DatasetWriter, type PendingFile } from "./datasets.ts";
import { pagePieces, sha256Of, type EncodedRecords } from "./encode.ts";

const gzipAsync = promisify(gzip);
/**
 * Gzip runs on libuv's thread pool, beside the rendering; this bounds the parts (up to 24 MiB
 * each) held for it. One, because a second did not make the national build faster, while every
 * part held waiting is memory at the build's peak.
 */
const MAX_PENDING_GZIPS = 1;
/**
 * Parts at least this large are assembled in buffers reused from part to part: a fresh buffer of
 * tens of megabytes is mapped and faulted in page by page each time (the build runs with
 * MALLOC_MMAP_THRESHOLD_ set), seconds of system time over a national build's parts.
 */
const REUSED_OVER = 1024 * 1024;

/** Writes the whole-dataset downloads and their manifest. */
export class DownloadWriter {
  private readonly files: PendingFile[] = [];
  private readonly pending = new Set<Promise<void>>();
  private failure: unknown;
  /** Part buffers handed back (`file`), for the next parts; and which buffers are such. */
  private readonly spare: Buffer[] = [];
  private readonly reusable = new WeakSet<ArrayBufferLike>();

  constructor(
    private readonly sink: FileSink,
    /** The CDN's file size limit, and the size above which a gzip copy is added (tests make them small). */
    readonly limits = { maxBytes: MAX_DOWNLOAD_BYTES, gzipOver: GZIP_THRESHOLD },
    /** The change feed, which diffs each dataset against the predecessor's as it is written. */
    private readonly feed?: ChangeFeedWriter,
  ) {}

  /** Starts one resource's complete dataset (both formats); feed it views in API order. */
  dataset(resource: AnyResource): DatasetWriter {
    return new DatasetWriter(this, resource, this.limits.maxBytes, this.feed?.resource(resource));
  }

  /**
   * One view's complete records (e.g. every street of one locality), in both formats: not a file,
   * but assembled by the Worker from the packed records; the manifest gives its size and SHA-256.
   */
  view(
    resource: AnyResource,
    slug: string,
    filter: Readonly<Record<string, string>>,
    encoded: EncodedRecords,
  ): void {
    const header = Buffer.from(csvHeader(resource.record.columns));
    for (const format of FORMATS) {
      const pieces = pagePieces(encoded, format, 0, encoded.count, header);
      const bytes = pieces.reduce((sum, piece) => sum + piece.length, 0);
      const digest = sha256Of(pieces);
      const path = viewDownloadPath(resource.id, slug, format);
      this.files.push({
        path,
        mediaType: CONTENT_TYPES[format],
        bytes,
        sha256: digest.toString("hex"),
        records: encoded.count,
        endpoint: resource.path,
        filter,
        format,
        credits: creditsOf(resource),
      });
    }
  }

  /**
   * A buffer of at least `bytes` to fill a part's file in, to give to `file` (a view of it): for a
   * large part, when the sink copies what it is given (`FileSink.copies`), one of the CDN's file
   * size limit, reused once `file` is done with it.
   */
  partBuffer(bytes: number): Buffer {
    if (bytes < REUSED_OVER || this.sink.copies !== true) return Buffer.allocUnsafe(bytes);
    let buffer = this.spare.pop();
    if (buffer === undefined || buffer.length < bytes) {
      buffer = Buffer.allocUnsafeSlow(Math.max(bytes, this.limits.maxBytes));
      this.reusable.add(buffer.buffer);
    }
    return buffer;
  }

  /** Writes a file, and its gzip copy (in the background) when it is over the threshold. */
  async file(
    entry: Omit<DownloadFile, "mediaType" | "bytes" | "sha256">,
    data: Buffer,
  ): Promise<PendingFile> {
    if (data.byteLength > this.limits.maxBytes)
      throw new Error(
        `download ${entry.path} would be ${data.byteLength} bytes, over the limit of ${this.limits.maxBytes}`,
      );
    // A sink that keeps what it is given (memory) keeps a copy of the part's bytes, not the larger
    // buffer the part was filled in.
    const written = this.sink.write(
      entry.path,
      this.sink.copies === true || data.byteLength === data.buffer.byteLength
        ? data
        : Buffer.from(data),
    );
    // A reused buffer goes back once written and, when it has one, its gzip copy made.
    const release = () => {
      if (this.reusable.has(data.buffer)) this.spare.push(Buffer.from(data.buffer));
    };
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
    if (data.byteLength > this.limits.gzipOver) await this.gzipCopy(file, data, release);
    else release();
    return file;
  }

  /** Waits for the gzip copies, writes the change feed, then the manifest. */
  async finish(
    builtAt: string,
    sources: readonly unknown[],
    joins: readonly unknown[] = [],
  ): Promise<DownloadsManifest> {
    await Promise.all(this.pending);
    if (this.failure !== undefined) throw this.failure;
    const changeFeed = await this.feed?.finish();
    const byPath = new Map(this.files.map((file) => [file.path, file]));
    const files = this.files
      .map((file) => {
        // A gzip copy was made before its dataset knew its number of parts.
        const original = file.gzipOf === undefined ? undefined : byPath.get(file.gzipOf);
        return original?.part === undefined || original.parts === undefined
          ? file
          : { ...file, part: original.part, parts: original.parts };
      })
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const manifest: DownloadsManifest = {
      builtAt,
      sources,
      joins,
      files,
      ...(changeFeed === undefined ? {} : { changeFeed }),
    };
    // Encoded once, into one buffer: the national manifest is 18 MB of JSON, a string of 36 MB
    // (two bytes a character); with its newline appended the sink flattened it into a second such
    // string, then encoded it twice (to hash it and to write it), all at the build's end.
    const json = JSON.stringify(manifest);
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json) + 1);
    bytes[bytes.write(json)] = 0x0a;
    this.sink.write(DOWNLOADS_INDEX, bytes);
    return manifest;
  }

  private async gzipCopy(file: PendingFile, data: Buffer, release: () => void): Promise<void> {
    while (this.pending.size >= MAX_PENDING_GZIPS) await Promise.race(this.pending);
    const job = gzipAsync(data, { level: 6 })
      .then((compressed) => {
        const path = gzipPath(file.path);
        const written = this.sink.write(path, compressed);
        this.files.push({
          ...file,
          path,
          mediaType: GZIP_CONTENT_TYPE,
          bytes: compressed.byteLength,
          sha256: written.sha256Hex(),
          gzipOf: file.path,
        });
      })
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        release();
        this.pending.delete(job);
      });
    this.pending.add(job);
  }
}
