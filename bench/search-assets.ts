/**
 * The asset binding of the benches' small processes (bench/search-cold.ts, bench/search-warm.ts):
 * a build's files read from disk once, every fetch and every index byte (`/_s/…`) counted, index
 * files answered as plain objects (see indexFile).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Assets } from "../generator/edge/assets.ts";

export interface CountedAssets {
  readonly assets: Assets;
  /** Fetches and index bytes since the last reset. */
  readonly counts: () => { fetches: number; bytes: number };
  readonly reset: () => void;
}

export function buildAssets(out: string): CountedAssets {
  const files = new Map<string, Uint8Array | null>();
  let [fetches, indexBytes] = [0, 0];
  const assets: Assets = {
    fetch: async (request) => {
      const path = new URL(request.url).pathname;
      fetches++;
      if (!files.has(path)) {
        const file = join(out, path);
        files.set(path, existsSync(file) ? readFileSync(file) : null);
      }
      const body = files.get(path);
      if (body === null || body === undefined) return new Response(null, { status: 404 });
      if (!path.startsWith("/_s/"))
        return new Response(body, { headers: { "content-type": "application/octet-stream" } });
      indexBytes += body.byteLength;
      return indexFile(body);
    },
  };
  return {
    assets,
    counts: () => ({ fetches, bytes: indexBytes }),
    reset: () => void ([fetches, indexBytes] = [0, 0]),
  };
}

/**
 * An index file's response as the Worker reads one (`ok`, then `arrayBuffer()`, a copy of the
 * bytes). In workerd the binding's Response and its body stream are the runtime's native code;
 * Node's are JavaScript (undici) on this thread: 64 fetches of 4 KB cost 2-4 ms here, as much as
 * the rest of a 60-file page. The copy into the isolate stays charged.
 */
const indexFile = (body: Uint8Array): Response =>
  ({
    ok: true,
    status: 200,
    arrayBuffer: async () => new Uint8Array(body).buffer,
  }) as unknown as Response;

/** The main thread's CPU ms; cpuUsage first brings its runtime up to date (see search.ts). */
export const mainCpu = (): number => {
  process.cpuUsage();
  const main = process.threadCpuUsage();
  return (main.user + main.system) / 1000;
};
