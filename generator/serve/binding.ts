import { closeSync, createReadStream, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Assets } from "../edge/assets.ts";
import type { AssetRules } from "./asset-rules.ts";
import type { FileIndex } from "./assets.ts";
import { answerAsset, type AssetAnswer } from "./static.ts";

/**
 * Files up to this size are read whole, synchronously (a page, an index shard, a chunk: tens of
 * microseconds from the page cache, less than the thread pool's round trip); larger ones stream.
 */
export const SMALL_FILE = 1 << 20;

/** A file's bytes: read whole when small, else a stream of an open descriptor; undefined when gone. */
export type FileBody =
  | { readonly bytes: Buffer; readonly size: number }
  | { readonly stream: Readable; readonly size: number };

/** Bytes of small files kept in memory, least recently used out first; a file above `CACHED_FILE` is never kept. */
export const FILE_CACHE_BYTES = 16 << 20;
const CACHED_FILE = 256 << 10;

/**
 * The small files read lately (pages, shards, chunks, lists), within `FILE_CACHE_BYTES`: a popular
 * page then costs no system call. The build is read once per start (its file list too), so a
 * kept file is as current as the list that names it.
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
    if (bytes.byteLength > CACHED_FILE || this.files.has(path)) return;
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

const caches = new Map<string, FileCache>();

/** A file of the build: from the cache, or read (and kept when small). */
export function openFile(dir: string, path: string): FileBody | undefined {
  let cache = caches.get(dir);
  if (cache === undefined) caches.set(dir, (cache = new FileCache()));
  const kept = cache.get(path);
  if (kept !== undefined) return { bytes: kept, size: kept.byteLength };
  const body = readFile(dir, path);
  if (body !== undefined && "bytes" in body) cache.set(path, body.bytes);
  return body;
}

function readFile(dir: string, path: string): FileBody | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, path), "r");
  } catch {
    return undefined; // listed but gone: no asset
  }
  try {
    const { size } = fstatSync(fd);
    if (size > SMALL_FILE) {
      const stream = createReadStream("", { fd, autoClose: true });
      fd = -1;
      return { stream, size };
    }
    // Never a slice of Node's shared 8 KiB pool: a kept small file would hold the whole slab.
    const bytes = Buffer.allocUnsafeSlow(size);
    let at = 0;
    while (at < size) {
      const read = readSync(fd, bytes, at, size - at, at);
      if (read === 0) break;
      at += read;
    }
    return { bytes: at === size ? bytes : bytes.subarray(0, at), size: at };
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** The asset answer with its file opened, or undefined when there is no asset (or its file is gone). */
export function openAnswer(
  dir: string,
  answer: AssetAnswer | undefined,
): { answer: AssetAnswer; body: FileBody | undefined } | undefined {
  if (answer === undefined) return undefined;
  if (answer.file === undefined) return { answer, body: undefined };
  const body = openFile(dir, answer.file);
  return body === undefined ? undefined : { answer, body };
}

/**
 * The Worker's `ASSETS` binding over the build directory: what Cloudflare's asset worker answers
 * for the request (redirects, 304s and `_headers` included), as a fetch Response.
 */
export function directoryAssets(dir: string, files: FileIndex, rules: AssetRules): Assets {
  return {
    fetch: (request) => {
      const url = new URL(request.url);
      const opened = openAnswer(
        dir,
        answerAsset(files, rules, {
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
