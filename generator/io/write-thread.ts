import { Worker } from "node:worker_threads";
import type { WriteOp } from "./write-worker.ts";

/**
 * A build's file system calls (directories, writes, hard links) on a thread of their own, in the
 * order they were made, so that the build renders while the kernel copies: on two cores the write
 * phase of a national build (tens of thousands of files, over a gigabyte) overlaps the rendering
 * instead of following it. A file's bytes are copied into a ring of shared memory the thread
 * writes them from (in pieces, for a file larger than a quarter of it), so the caller may reuse
 * its buffers, and no buffer is allocated, moved and collected per file. At most `RING_BYTES`
 * wait at once: past that the build waits for the thread.
 */
export class WriteThread {
  /** [0]: bytes of the ring in use (written here, released by the thread). */
  private readonly pending = new Int32Array(new SharedArrayBuffer(4));
  private readonly ring = Buffer.from(new SharedArrayBuffer(RING_BYTES));
  /** Where the next piece goes in the ring. */
  private head = 0;
  private readonly worker: Worker;
  private batch: WriteOp[] = [];
  private batchBytes = 0;
  private closed = false;

  constructor() {
    this.worker = new Worker(new URL("./write-worker.ts", import.meta.url), {
      workerData: { pending: this.pending.buffer, ring: this.ring.buffer },
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
  }

  mkdir(dir: string): void {
    this.push({ op: "mkdir", dir }, 0);
  }

  /** Writes `data` to `target`, or hard-links `same` (a file with the same bytes) there when that works. */
  file(target: string, data: string | Uint8Array, same?: string): void {
    if (typeof data === "string" && data.length * 3 <= MAX_PIECE_BYTES) {
      const length = Buffer.byteLength(data);
      const at = this.reserve(length);
      this.ring.write(data, at, length, "utf8");
      this.piece(target, same, at, length, true, true);
      return;
    }
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    for (let from = 0; from === 0 || from < bytes.byteLength; from += MAX_PIECE_BYTES) {
      const length = Math.min(MAX_PIECE_BYTES, bytes.byteLength - from);
      const at = this.reserve(length);
      this.ring.set(bytes.subarray(from, from + length), at);
      this.piece(target, same, at, length, from === 0, from + length >= bytes.byteLength);
    }
  }

  /** Resolves when every call so far is done; rejects with the first that failed (the later ones were skipped). */
  async drain(): Promise<void> {
    this.push({ op: "drain" }, 0);
    this.send();
    const answer = await new Promise<{
      failure?: { what: string; code?: string; message: string };
    }>((resolve, reject) => {
      this.worker.once("message", resolve);
      this.worker.once("error", reject);
    });
    if (answer.failure !== undefined) {
      const { what, code, message } = answer.failure;
      throw new Error(`${what}: ${(code === undefined ? undefined : REASONS[code]) ?? message}`);
    }
  }

  /** Ends the thread (whatever it had not done yet is dropped). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker.terminate();
  }

  /**
   * Room for `length` bytes at the ring's head, waiting for the thread to release enough; a piece
   * that would run past the ring's end starts at its beginning, and the bytes skipped count as in
   * use until the thread has written the pieces before them. Returns where the piece goes.
   */
  private reserve(length: number): number {
    const skip = this.head + length > RING_BYTES ? RING_BYTES - this.head : 0;
    this.waitBelow(RING_BYTES - skip - length); // may send the batch: before this piece joins it
    if (skip > 0) {
      Atomics.add(this.pending, 0, skip);
      this.push({ op: "release", bytes: skip }, 0);
      this.head = 0;
    }
    const at = this.head;
    Atomics.add(this.pending, 0, length);
    this.head = (at + length) % RING_BYTES;
    return at;
  }

  private piece(
    target: string,
    same: string | undefined,
    at: number,
    length: number,
    first: boolean,
    last: boolean,
  ): void {
    this.push(
      same === undefined
        ? { op: "piece", target, at, length, first, last }
        : { op: "piece", target, at, length, first, last, same },
      length,
    );
  }

  private push(op: WriteOp, bytes: number): void {
    this.batch.push(op);
    this.batchBytes += bytes;
    if (this.batch.length >= BATCH_OPS || this.batchBytes >= BATCH_BYTES) this.send();
  }

  private send(): void {
    if (this.batch.length === 0) return;
    this.worker.postMessage(this.batch);
    this.batch = [];
    this.batchBytes = 0;
  }

  /** Blocks until at most `limit` bytes of the ring are in use (sending what is batched first). */
  private waitBelow(limit: number): void {
    for (
      let now = Atomics.load(this.pending, 0);
      now > Math.max(0, limit);
      now = Atomics.load(this.pending, 0)
    ) {
      this.send();
      Atomics.wait(this.pending, 0, now, 100);
    }
  }
}

/** The ring's bytes: what may wait for the thread at most (a national build's largest files are tens of MB, written in pieces). */
const RING_BYTES = 16 * 1024 * 1024;
/** The largest piece of a file in the ring at once. */
const MAX_PIECE_BYTES = RING_BYTES / 4;
/** Calls sent to the thread together: one message per file would cost more than small files' writes. */
const BATCH_OPS = 64;
const BATCH_BYTES = 1024 * 1024;

/** What the file system's error codes mean to a user. */
export const REASONS: Readonly<Record<string, string>> = {
  EEXIST: "a file is in the way of a directory",
  ENOTDIR: "a file is in the way of a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
};
