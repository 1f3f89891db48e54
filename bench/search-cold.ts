/**
 * The cold half of `npm run bench:search`, run in a process of its own (search.ts starts it): each
 * request as the first of a fresh handler (a new isolate's AssetStore and search index: nothing
 * read before), its main-thread CPU, asset fetches and index bytes (`/_s/…`) written as JSON.
 *
 * Why a process of its own: a new isolate's heap holds its module state and nothing else, so the
 * garbage collection its first request triggers walks a small heap. The bench's own process holds
 * the national street list, the mixes, the samples and a warm handler's caches (hundreds of MB of
 * objects); a collection that falls into a cold request there walks all of it and charged the
 * request tens of milliseconds that Cloudflare would not. Here the files are read from disk in an
 * untimed pass first (the asset server's work, not the Worker's), which also compiles the code,
 * as the bench's cold figure has always assumed; the memos and tables that pass filled are emptied
 * before each timed request (forgetIsolateState), as a new isolate has them. Index files come
 * back as plain objects, not Node's Response (see indexFile). A full collection forced before each
 * request (`--expose-gc`) is not done: it doubled the median here, an effect of the forced
 * collection itself rather than of the requests.
 *
 *   node --import tsx bench/search-cold.ts OUT < targets.json > costs.json
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Assets } from "../generator/edge/assets.ts";
import { forgetIsolateState } from "../generator/contract/isolate-state.ts";
import { createHandler } from "../generator/edge/handler.ts";
import { eventLoopTurn } from "./event-loop-turn.ts";

/** One cold request's cost: what search.ts prints per request. */
export interface ColdCost {
  readonly main: number;
  readonly fetches: number;
  readonly bytes: number;
  readonly status: number;
}

const [out = "."] = process.argv.slice(2);
const targets = JSON.parse(readFileSync(0, "utf8")) as string[];
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
/** The main thread's CPU ms; cpuUsage first brings the thread's runtime up to date (see search.ts). */
const mainCpu = () => {
  process.cpuUsage();
  const main = process.threadCpuUsage();
  return (main.user + main.system) / 1000;
};

async function run(target: string): Promise<ColdCost> {
  [fetches, indexBytes] = [0, 0];
  forgetIsolateState();
  await eventLoopTurn(); // untimed: tasks V8 posted during the previous request run here
  const handler = createHandler(assets);
  const started = mainCpu();
  const response = await handler(new Request(`http://bench${target}`));
  await response.arrayBuffer();
  return { main: mainCpu() - started, fetches, bytes: indexBytes, status: response.status };
}

for (const target of targets) await run(target);
const costs: ColdCost[] = [];
for (const target of targets) costs.push(await run(target));
process.stdout.write(JSON.stringify(costs));
