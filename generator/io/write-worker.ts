/**
 * The write thread's side (see write-thread.ts): creates directories, hard-links and writes files
 * in the order they are sent. Kept to Node's own modules and erasable TypeScript: it runs with or
 * without tsx.
 */
import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";

export type WriteOp =
  | { readonly op: "mkdir"; readonly dir: string }
  | {
      readonly op: "file";
      readonly target: string;
      readonly data: Uint8Array;
      /** A file with the same bytes: hard-linked instead when that works. */
      readonly same?: string;
    }
  | { readonly op: "drain" };

const pending = new Int32Array(workerData as SharedArrayBuffer);
let failure:
  { readonly what: string; readonly code?: string; readonly message: string } | undefined;

parentPort?.on("message", (ops: WriteOp[]) => {
  for (const op of ops) {
    if (op.op === "drain") {
      parentPort?.postMessage({ drained: true, failure });
      continue;
    }
    if (failure === undefined) {
      try {
        run(op);
      } catch (error) {
        const { code, message } = error as NodeJS.ErrnoException;
        failure = {
          what: op.op === "mkdir" ? `cannot create ${op.dir}` : `cannot write ${op.target}`,
          ...(code === undefined ? {} : { code }),
          message,
        };
      }
    }
    if (op.op === "file") {
      Atomics.sub(pending, 0, op.data.byteLength);
      Atomics.notify(pending, 0);
    }
  }
});

function run(op: Exclude<WriteOp, { op: "drain" }>): void {
  if (op.op === "mkdir") {
    mkdirSync(op.dir, { recursive: true });
    return;
  }
  if (op.same !== undefined) {
    try {
      linkSync(op.same, op.target);
      return;
    } catch {
      // e.g. the old file is gone, or another file system: write it instead
    }
  }
  writeFileSync(op.target, op.data);
}
