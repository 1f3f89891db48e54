import { Worker } from "node:worker_threads";
import type { FileSink } from "../io/sink.ts";
import { threadArgs } from "../io/thread-args.ts";
import type { IndexedStreets } from "./search-records.ts";
import type { StreetIndexesSummary } from "./street-indexes.ts";

/**
 * A country's search index (emit-search.ts; with its suggestions index when asked,
 * street-indexes.ts) written on a thread of its own while the main thread writes the records. The
 * thread gets the streets as the main thread numbered them (search-records.ts `numberStreets`):
 * heads, places and typed arrays, a few megabytes even for the national list, where the records
 * themselves (1.2 million objects, each string copied) would take hundreds. The index files come
 * back in batches and are written into the build's sink as they arrive, in the order the emitter
 * wrote them.
 */
export interface SearchJob {
  readonly country: string;
  readonly indexed: IndexedStreets;
  readonly readBudget?: number;
  /** Whether to write the suggestions index too (street-indexes.ts). */
  readonly suggest: boolean;
}

export type SearchMessage =
  | { readonly files: readonly (readonly [string, string | Uint8Array])[] }
  | { readonly done: StreetIndexesSummary };

/** A started thread and the first failure it reported. */
interface Thread {
  readonly worker: Worker;
  failed: unknown;
  exited: number | undefined;
}

/**
 * The build's search threads. `prestart` starts one before its job is known (a thread takes a
 * second or more to load its modules on a busy machine: while the sources are read, not after);
 * `run` gives it (or a new thread) a job; `close` ends a thread started and never given one.
 */
export class SearchThreads {
  private warm: Thread | undefined;

  prestart(): void {
    this.warm ??= startThread();
  }

  /** Resolves with the index's summary once every file is in `sink`. */
  run(job: SearchJob, sink: FileSink): Promise<StreetIndexesSummary> {
    const thread = this.warm ?? startThread();
    this.warm = undefined;
    return runOn(thread, job, sink);
  }

  close(): void {
    if (this.warm !== undefined) void this.warm.worker.terminate();
    this.warm = undefined;
  }
}

/** One job on a thread of its own. */
export function emitSearchOnThread(job: SearchJob, sink: FileSink): Promise<StreetIndexesSummary> {
  return runOn(startThread(), job, sink);
}

function startThread(): Thread {
  const script = new URL("./search-worker.ts", import.meta.url);
  const worker = new Worker(script, {
    execArgv: threadArgs(script),
    // The young generation the build scripts give the main thread (--max-semi-space-size=16: three
    // semi-spaces' worth); left to V8, a thread's grows to 128 MiB of short-lived garbage.
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
  const thread: Thread = { worker, failed: undefined, exited: undefined };
  // Listened to from the start: a thread waiting for its job may fail (or end) before it gets one.
  worker.once("error", (error) => (thread.failed ??= error));
  worker.once("exit", (code) => (thread.exited = code));
  return thread;
}

function runOn(thread: Thread, job: SearchJob, sink: FileSink): Promise<StreetIndexesSummary> {
  // Only the country is kept here: the job's streets go to the thread, and are not needed after.
  const { country } = job;
  const { worker } = thread;
  const fail = (reject: (error: Error) => void, code: number | undefined) =>
    thread.failed !== undefined
      ? reject(thread.failed instanceof Error ? thread.failed : new Error(String(thread.failed)))
      : code !== 0
        ? reject(new Error(`the search index of ${country}: its thread exited (${code})`))
        : undefined;
  return new Promise((resolve, reject) => {
    if (thread.exited !== undefined) return fail(reject, thread.exited);
    worker.on("message", (message: SearchMessage) => {
      try {
        if ("files" in message) for (const [path, data] of message.files) sink.write(path, data);
        else resolve(message.done);
      } catch (error) {
        thread.failed ??= error;
        void worker.terminate();
      }
    });
    worker.once("exit", (code) => fail(reject, code));
    // The numbering's typed arrays are moved, not copied: the main thread does not need them after.
    const moved = [job.indexed.headOf.buffer, job.indexed.placeOf.buffer];
    worker.postMessage(
      job,
      moved.filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer),
    );
  });
}
