/**
 * The asset binding of the street-search benches: a build's files read from disk once, every fetch
 * and every index byte (`/_s/…`) counted. The small processes (bench/search-cold.ts,
 * bench/search-warm.ts) answer index files as plain objects (see indexFile); bench/search.ts's own
 * process and bench/search-refusals.ts as Node's Responses, as they always have.
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

export function buildAssets(
  out: string,
  indexFiles: "plain" | "response" = "plain",
): CountedAssets {
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
      const response = () =>
        new Response(body, { headers: { "content-type": "application/octet-stream" } });
      if (!path.startsWith("/_s/")) return response();
      indexBytes += body.byteLength;
      return indexFiles === "plain" ? indexFile(body) : response();
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
