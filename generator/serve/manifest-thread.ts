import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { manifestFromFileList, type AssetManifest } from "./assets.ts";

/**
 * The asset manifest made in a worker thread: its 100,000 paths and hashes are garbage once the
 * manifest exists, and a thread's heap is returned when it ends, whereas the server's own heap
 * would stay at its peak for as long as it serves (about 120 MB on the embedded build).
 */
export function manifestInThread(dir: string): Promise<AssetManifest> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: dir });
    worker.once("message", (manifest: AssetManifest) => resolve(manifest));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the manifest thread exited with ${code}`)));
  });
}

if (!isMainThread && parentPort !== null) {
  const manifest = await manifestFromFileList(workerData as string);
  parentPort.postMessage(manifest, [manifest.manifest.buffer as ArrayBuffer, manifest.reverse.buffer as ArrayBuffer]);
}
