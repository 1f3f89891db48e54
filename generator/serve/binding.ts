import { closeSync, createReadStream, readSync } from "node:fs";
import { Readable } from "node:stream";
import type { Assets } from "../edge/assets.ts";
import type { AssetRules } from "./asset-rules.ts";
import type { FileIndex } from "./assets.ts";
import type { BuildDirectory } from "./build-dir.ts";
import { answerAsset, type AssetAnswer } from "./static.ts";

/**
 * Files up to this size are read whole, synchronously (a page, an index shard, a chunk: tens of
 * microseconds from the page cache, less than the thread pool's round trip) and kept in the file
 * cache; larger ones stream in pieces of `STREAM_PIECE`. So one answer holds at most this many
 * bytes of its file at a time, however large the file and however slowly its client reads.
 */
export const WHOLE_FILE = 256 << 10;
/** A streamed file's read size: what one answer buffers of a large file at a time. */
export const STREAM_PIECE = 64 << 10;

/** A file's bytes: read whole when small, else a stream of an open descriptor. */
export type FileBody =
  | { readonly bytes: Buffer; readonly size: number }
  | { readonly stream: Readable; readonly size: number };

/** Bytes of small files kept in memory, least recently used out first. */
export const FILE_CACHE_BYTES = 16 << 20;

/**
 * The small files read lately (pages, shards, chunks, lists), within `FILE_CACHE_BYTES`: a popular
 * page then costs no system call. One per loaded build: a kept file is as current as the file list
 * that names it.
 */
class FileCache {
  private readonly files = new Map<string, Buffer>();
  private bytes = 0;

  get(path: string): Buffer | undefined {
    const kept = this.files.get(path);
    if (kept !== undefined) {
      this.files.delete(path);
      this.files.set(path, kept);
    }
    return kept;
  }

  set(path: string, bytes: Buffer): void {
    if (this.files.has(path)) return;
    this.files.set(path, bytes);
    this.bytes += cost(bytes);
    for (const [oldest, old] of this.files) {
      if (this.bytes <= FILE_CACHE_BYTES) break;
      this.files.delete(oldest);
      this.bytes -= cost(old);
    }
  }
}

/** What a kept file costs: its bytes and the buffer and map entry around them. */
const cost = (bytes: Buffer) => bytes.byteLength + 512;

/**
 * The files of one loaded build: read through its directory (build-dir.ts), small ones kept.
 * `onLost` hears of every listed file that is gone or not of its listed size, and says whether
 * another build is in the directory now: then the file counts as gone (the request is answered
 * from the new build); else a file changed in place is served as it is, as Cloudflare would
 * deploy it. A file refused as a link or not a regular file is reported once on stderr.
 */
export class BuildFiles {
  private readonly cache = new FileCache();
  private readonly refused = new Set<string>();
  /** Listed files found gone so far: a request that saw this change may have read a replaced build. */
  lost = 0;

  constructor(
    readonly dir: BuildDirectory,
    private readonly onLost: (path: string) => boolean = () => false,
  ) {}

  /** Counts a file of the build that is gone or changed; whether another build replaced it. */
  private lose(path: string): boolean {
    this.lost++;
    return this.onLost(path);
  }

  /** The listed file `path` of `bytes` bytes, or undefined when it cannot be served. */
  read(path: string, bytes: number): FileBody | undefined {
    const kept = this.cache.get(path);
    if (kept !== undefined) return { bytes: kept, size: kept.byteLength };
    const opened = this.dir.openFile(path);
    if ("unopened" in opened) {
      if (opened.unopened === "gone") this.lose(path);
      else if (!this.refused.has(path)) {
        this.refused.add(path);
        process.stderr.write(
          `warning: ${this.dir.path}${path} is a symbolic link, not a regular file or outside the build: not served\n`,
        );
      }
      return undefined;
    }
    let { fd } = opened;
    const { size } = opened;
    try {
      if (size !== bytes && this.lose(path)) return undefined;
      if (size > WHOLE_FILE) {
        const stream = createReadStream("", { fd, autoClose: true, highWaterMark: STREAM_PIECE });
        fd = -1;
        return { stream, size };
      }
      // Never a slice of Node's shared 8 KiB pool: a kept small file would hold the whole slab.
      const whole = Buffer.allocUnsafeSlow(size);
      let at = 0;
      while (at < size) {
        const read = readSync(fd, whole, at, size - at, at);
        if (read === 0) break;
        at += read;
      }
      if (at !== size) {
        this.lose(path); // cut short while it was read
        return undefined;
      }
      if (size === bytes) this.cache.set(path, whole);
      return { bytes: whole, size };
    } finally {
      if (fd >= 0) closeSync(fd);
    }
  }
}

/** The asset answer with its file opened, or undefined when there is no asset (or its file cannot be served). */
export function openAnswer(
  files: BuildFiles,
  answer: AssetAnswer | undefined,
): { answer: AssetAnswer; body: FileBody | undefined } | undefined {
  if (answer === undefined) return undefined;
  if (answer.file === undefined) return { answer, body: undefined };
  const body = files.read(answer.file, answer.fileBytes ?? 0);
  return body === undefined ? undefined : { answer, body };
}

/**
 * The Worker's `ASSETS` binding over the build directory: what Cloudflare's asset worker answers
 * for the request (redirects, 304s and `_headers` included), as a fetch Response.
 */
export function directoryAssets(files: BuildFiles, index: FileIndex, rules: AssetRules): Assets {
  return {
    fetch: (input) => {
      const request = typeof input === "string" ? new Request(input) : input;
      const url = new URL(request.url);
      const opened = openAnswer(
        files,
        answerAsset(index, rules, {
          method: request.method,
          url,
          header: (name) => request.headers.get(name) ?? undefined,
        }),
      );
      if (opened === undefined) return Promise.resolve(new Response(null, { status: 404 }));
      const { answer, body } = opened;
      const headers = [...answer.headers];
      const payload =
        body === undefined
          ? null
          : "bytes" in body
            ? bytesStream(body.bytes)
            : (Readable.toWeb(body.stream) as ReadableStream<Uint8Array>);
      return Promise.resolve(new Response(payload, { status: answer.status, headers }));
    },
  };
}

/**
 * The bytes as a one-chunk stream: a Response copies a buffer it is given, not a stream's chunks,
 * and the copy (and its garbage) cost a written page about three times the stream's price.
 */
function bytesStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  // Pulled on the first read only (no queue ahead of it): a read stream is no longer whole.
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        wholeBodies.delete(stream);
        controller.enqueue(bytes);
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  wholeBodies.set(stream, bytes);
  return stream;
}

/** The bytes behind each one-chunk stream made here (a Response passes its body stream on as is). */
const wholeBodies = new WeakMap<ReadableStream<Uint8Array>, Uint8Array>();

/**
 * The bytes of a body stream this binding made, while nobody has read from it: the server then
 * writes them at once instead of reading the stream chunk by chunk through promises.
 */
export function wholeBody(stream: ReadableStream<Uint8Array>): Uint8Array | undefined {
  return stream.locked ? undefined : wholeBodies.get(stream);
}
