/**
 * The search thread's side (search-thread.ts): one country's search index (and its suggestions
 * index when asked), the files sent back as written. The thread starts before its job is known
 * and waits for it: the job is the first message.
 */
import { parentPort } from "node:worker_threads";
import { WrittenFile, type FileSink } from "../io/sink.ts";
import type { SearchJob, SearchMessage } from "./search-thread.ts";
import { emitStreetIndexes } from "./street-indexes.ts";

let files: [string, string | Uint8Array][] = [];
let transfer: ArrayBuffer[] = [];
let bytes = 0;
const send = () => {
  if (files.length === 0) return;
  parentPort?.postMessage({ files } satisfies SearchMessage, transfer);
  files = [];
  transfer = [];
  bytes = 0;
};
const sink: FileSink = {
  write(path, data) {
    // A copy of just these bytes (a view would send its whole buffer), moved to the main thread.
    const copy = typeof data === "string" ? data : new Uint8Array(data.byteLength);
    if (typeof copy !== "string") {
      copy.set(data as Uint8Array);
      if (copy.byteLength > 0) transfer.push(copy.buffer);
    }
    files.push([path, copy]);
    bytes += typeof copy === "string" ? copy.length : copy.byteLength;
    if (bytes >= 4 * 1024 * 1024) send();
    return WrittenFile.of(data);
  },
};
parentPort?.once("message", (job: SearchJob) => {
  const summary = emitStreetIndexes(job.country, job.indexed, sink, job.readBudget, job.suggest);
  send();
  parentPort?.postMessage({ done: summary } satisfies SearchMessage);
});
