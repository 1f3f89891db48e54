/**
 * The write thread's side (see write-thread.ts): creates directories, hard-links and writes files
 * in the order they are sent, their bytes read from the shared ring. Kept to Node's own modules
 * and erasable TypeScript: it runs with or without tsx.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { hardLink } from "./hard-link.ts";
import { parentPort, workerData } from "node:worker_threads";

export type WriteOp =
  | { readonly op: "mkdir"; readonly dir: string }
  | {
      /** Bytes [at, at + length) of the ring: a file's first piece, its next, its last, or all of it. */
      readonly op: "piece";
      readonly target: string;
      readonly at: number;
      readonly length: number;
      readonly first: boolean;
      readonly last: boolean;
      /** A file with the same bytes: hard-linked instead when that works. */
      readonly same?: string;
    }
  /** Ring bytes skipped (a piece did not fit before the ring's end), released in turn. */
  | { readonly op: "release"; readonly bytes: number }
  | { readonly op: "drain" };

const shared = workerData as { pending: SharedArrayBuffer; ring: SharedArrayBuffer };
const pending = new Int32Array(shared.pending);
const ring = new Uint8Array(shared.ring);
let failure:
  { readonly what: string; readonly code?: string; readonly message: string } | undefined;
/** The file being written in pieces: its descriptor, or "linked" when a hard link stands for it. */
let open: number | "linked" | undefined;

parentPort?.on("message", (ops: WriteOp[]) => {
  for (const op of ops) {
    if (op.op === "drain") {
      parentPort?.postMessage({ drained: true, failure });
      continue;
    }
    if (failure === undefined && op.op !== "release") {
      try {
        run(op);
      } catch (error) {
        const { code, message } = error as NodeJS.ErrnoException;
        failure = {
          what: op.op === "mkdir" ? `cannot create ${op.dir}` : `cannot write ${op.target}`,
          ...(code === undefined ? {} : { code }),
          message,
        };
        if (typeof open === "number") closeSync(open);
        open = undefined;
      }
    }
    const released = op.op === "piece" ? op.length : op.op === "release" ? op.bytes : 0;
    if (released > 0) {
      Atomics.sub(pending, 0, released);
      Atomics.notify(pending, 0);
    }
  }
});

function run(op: Exclude<WriteOp, { op: "drain" | "release" }>): void {
  if (op.op === "mkdir") {
    mkdirSync(op.dir, { recursive: true });
    return;
  }
  if (op.first) open = op.same !== undefined && hardLink(op.same, op.target) ? "linked" : undefined;
  if (open !== "linked") {
    if (op.first) open = openSync(op.target, "w");
    const fd = open as number;
    for (let done = 0; done < op.length;)
      done += writeSync(fd, ring, op.at + done, op.length - done);
    if (op.last) closeSync(fd);
  }
  if (op.last) open = undefined;
}
