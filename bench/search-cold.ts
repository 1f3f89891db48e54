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
 * back as plain objects, not Node's Response (bench/search-assets.ts). A full collection forced
 * before each request (`--expose-gc`) is not done: it doubled the median here, an effect of the forced
 * collection itself rather than of the requests.
 *
 *   node --import tsx bench/search-cold.ts OUT < targets.json > costs.json
 */
import { readFileSync } from "node:fs";
import { forgetIsolateState } from "../generator/contract/isolate-state.ts";
import { createHandler } from "../generator/edge/handler.ts";
import { mainCpu } from "./main-cpu.ts";
import { buildAssets } from "./search-assets.ts";
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
const { assets, counts, reset } = buildAssets(out);

async function run(target: string): Promise<ColdCost> {
  reset();
  forgetIsolateState();
  await eventLoopTurn(); // untimed: tasks V8 posted during the previous request run here
  const handler = createHandler(assets);
  const started = mainCpu();
  const response = await handler(new Request(`http://bench${target}`));
  await response.arrayBuffer();
  return { main: mainCpu() - started, ...counts(), status: response.status };
}
for (const target of targets) await run(target);
const costs: ColdCost[] = [];
for (const target of targets) costs.push(await run(target));
process.stdout.write(JSON.stringify(costs));
