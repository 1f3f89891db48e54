/**
 * The search thread's side (search-thread.ts): one country's search index (and its suggestions
 * index when asked), the files sent back as written. The thread starts before its job is known
 * and waits for it: the job is the first message.
 */
import { parentPort } from "node:worker_threads";
import { WrittenFile, type FileSink } from "../io/sink.ts";
import {
  BATCH_BYTES,
  type SearchFile,
  type SearchJob,
  type SearchMessage,
} from "./search-thread.ts";
import { emitStreetIndexes } from "./street-indexes.ts";

let files: SearchFile[] = [];
/** The files' bytes, back to back: one buffer moved per batch, not one array made per file. */
let batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
let filled = 0;
let texts = 0;
const send = () => {
  if (files.length === 0) return;
  parentPort?.postMessage({ files, batch: batch.subarray(0, filled) } satisfies SearchMessage, [
    batch.buffer,
  ]);
  files = [];
  batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  filled = texts = 0;
};
const sink: FileSink = {
  write(path, data) {
    if (typeof data === "string") {
      files.push([path, data]);
      texts += data.length;
    } else {
      if (filled + data.byteLength > batch.length) {
        send();
        if (data.byteLength > batch.length) batch = Buffer.allocUnsafeSlow(data.byteLength);
      }
      batch.set(data, filled);
      files.push([path, filled, (filled += data.byteLength)]);
    }
    if (filled + texts >= BATCH_BYTES) send();
    return WrittenFile.of(data);
  },
};
parentPort?.once("message", (job: SearchJob) => {
  const summary = emitStreetIndexes(job.country, job.indexed, sink, job.readBudget, job.suggest);
  send();
  parentPort?.postMessage({ done: summary } satisfies SearchMessage);
});
