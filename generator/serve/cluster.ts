import cluster, { type Worker } from "node:cluster";
import { originOf } from "./child.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FILE_LIST_PATH } from "../contract/layout.ts";
import { checkBuild, probePort, serveBuild, type Serving } from "./server.ts";

/**
 * `serve --workers N`: N server processes on one port (node:cluster; the primary accepts each
 * connection and hands it to a worker in turn), so that requests use every core and one slow
 * request holds up only the connections of its own process. The primary serves nothing: it
 * starts the workers, starts a worker anew if one dies, and stops them all on `stop()`.
 */

const WORKER_DIR = "PLZ_SERVE_DIR";
const WORKER_HOST = "PLZ_SERVE_HOST";
const WORKER_PORT = "PLZ_SERVE_PORT";
/** A worker that cannot start twice in this many milliseconds ends the server (it would loop). */
const RESTART_WINDOW_MS = 10_000;
/** How long a stop waits for the workers (each finishes its requests in flight within 3 s). */
const STOP_WAIT_MS = 4_500;

/** Whether this process is a worker of `serveCluster` (main.ts then serves and does nothing else). */
export function isServeWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_DIR] !== undefined;
}

/** A worker's life: serve the directory its primary named, stop on SIGTERM or SIGINT. */
export async function runServeWorker(): Promise<void> {
  const server = await serveBuild(
    process.env[WORKER_DIR] ?? "",
    process.env[WORKER_HOST] ?? "127.0.0.1",
    Number(process.env[WORKER_PORT]),
    { probe: false },
  );
  const stop = () => {
    setTimeout(() => process.exit(0), STOP_WAIT_MS - 500).unref();
    void server.stop().then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

export async function serveCluster(
  dir: string,
  host: string,
  port: number,
  workers: number,
): Promise<Serving> {
  checkBuild(dir);
  await probePort(host, port);
  const env = { [WORKER_DIR]: dir, [WORKER_HOST]: host, [WORKER_PORT]: String(port) };
  let ready = false;
  let stopping = false;
  let lastFailure = 0;
  const started = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      worker.once("listening", () => resolve());
      worker.once("exit", (code) =>
        reject(new Error(`a server worker exited (${code}) at its start`)),
      );
    });
  const all = new Set<Worker>();
  const fork = (): Worker => {
    const worker = cluster.fork(env);
    all.add(worker);
    worker.once("exit", () => {
      all.delete(worker);
      if (stopping || !ready) return;
      const now = Date.now();
      if (now - lastFailure < RESTART_WINDOW_MS) {
        process.stderr.write("error: server workers keep dying; stopping\n");
        process.exit(1);
      }
      lastFailure = now;
      process.stderr.write("warning: a server worker died; starting another\n");
      fork();
    });
    return worker;
  };
  const stop = () => {
    stopping = true;
    return new Promise<void>((resolve) => {
      const done = () => (all.size === 0 ? resolve() : undefined);
      for (const worker of all) {
        worker.once("exit", done);
        worker.process.kill("SIGTERM");
      }
      done();
      setTimeout(() => {
        for (const worker of all) worker.process.kill("SIGKILL");
        resolve();
      }, STOP_WAIT_MS).unref();
    });
  };
  try {
    await Promise.all(Array.from({ length: workers }, () => started(fork())));
  } catch (error) {
    await stop();
    throw error;
  }
  ready = true;
  const listed = readFileSync(join(dir, FILE_LIST_PATH), "utf8").split("\n").length - 1;
  return { origin: originOf(host, port), assets: listed, stop };
}
