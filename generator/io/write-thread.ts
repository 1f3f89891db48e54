import { Worker } from "node:worker_threads";
import type { WriteOp } from "./write-worker.ts";

/**
 * A build's file system calls (directories, writes, hard links) on a thread of their own, in the
 * order they were made, so that the build renders while the kernel copies: on two cores the write
 * phase of a national build (tens of thousands of files, over a gigabyte) overlaps the rendering
 * instead of following it. The bytes are copied to the thread, so the caller may reuse its buffers.
 * At most `MAX_PENDING_BYTES` wait at once: past that the build waits for the thread.
 */
export class WriteThread {
  private readonly pending = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;
  private batch: WriteOp[] = [];
  private transfer: ArrayBuffer[] = [];
  private batchBytes = 0;
  private closed = false;

  constructor() {
    this.worker = new Worker(new URL("./write-worker.ts", import.meta.url), {
      workerData: this.pending.buffer,
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
  }

  mkdir(dir: string): void {
    this.push({ op: "mkdir", dir }, 0);
  }

  /** Writes `data` to `target`, or hard-links `same` (a file with the same bytes) there when that works. */
  file(target: string, data: string | Uint8Array, same?: string): void {
    // A copy of just these bytes in a buffer of its own, moved to the thread (a view would send its whole buffer).
    const source = typeof data === "string" ? Buffer.from(data) : data;
    const bytes = new Uint8Array(source.byteLength);
    bytes.set(source);
    this.waitBelow(MAX_PENDING_BYTES - bytes.byteLength); // may send the batch: before this file joins it
    if (bytes.byteLength > 0) this.transfer.push(bytes.buffer);
    Atomics.add(this.pending, 0, bytes.byteLength);
    this.push(
      same === undefined
        ? { op: "file", target, data: bytes }
        : { op: "file", target, data: bytes, same },
      bytes.byteLength,
    );
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

  private push(op: WriteOp, bytes: number): void {
    this.batch.push(op);
    this.batchBytes += bytes;
    if (this.batch.length >= BATCH_OPS || this.batchBytes >= BATCH_BYTES) this.send();
  }

  private send(): void {
    if (this.batch.length === 0) return;
    this.worker.postMessage(this.batch, this.transfer);
    this.batch = [];
    this.transfer = [];
    this.batchBytes = 0;
  }

  /** Blocks until at most `limit` bytes wait (sending what is batched first). */
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

/** Bytes handed to the thread and not yet written, at most (a national build's largest files are a few MB). */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;
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
