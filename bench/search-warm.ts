/**
 * The warm half of `npm run bench:search`'s PostgreSQL comparison, in a process of its own
 * (search.ts starts it): one handler, as an isolate serving traffic, an untimed pass over the
 * whole mix, then --passes timed passes; per request the wall time of its first pass and the least
 * of its passes, and the least main-thread CPU, written as JSON. PostgreSQL's side
 * (bench/postgres.ts) is wall time on one connection, first pass and least of its passes: the same
 * statistics.
 *
 * Why a process of its own: the bench's own process held the national street list, the mixes and
 * the samples; a collection there walks all of that and its compiler threads work for it, charged
 * to whichever request they fall in, which an isolate would not pay. Here the heap holds the
 * handler's caches and the targets only (as bench/search-cold.ts does for a fresh isolate). The
 * event loop turns once, untimed, before each request, as a server's does between requests.
 *
 *   node --import tsx bench/search-warm.ts OUT PASSES < targets.json > times.json
 */
import { readFileSync } from "node:fs";
import { createHandler } from "../generator/edge/handler.ts";
import { addPass, type PassTimes } from "./pass-stats.ts";
import { mainCpu } from "./main-cpu.ts";
import { buildAssets } from "./search-assets.ts";
import { eventLoopTurn } from "./event-loop-turn.ts";

/** One request's wall (first, least), least main-thread CPU, status (-1 when passes differ). */
export interface WarmTimes {
  readonly wall: PassTimes;
  readonly main: number;
  readonly status: number;
}

const [out = ".", passArg = "3"] = process.argv.slice(2);
const targets = JSON.parse(readFileSync(0, "utf8")) as string[];
const { assets } = buildAssets(out);
const handler = createHandler(assets);

async function run(target: string): Promise<{ wall: number; main: number; status: number }> {
  await eventLoopTurn(); // untimed: tasks V8 posted during the previous request run here
  const [cpu, started] = [mainCpu(), performance.now()];
  const response = await handler(new Request(`http://bench${target}`));
  await response.arrayBuffer();
  const wall = performance.now() - started;
  return { wall, main: mainCpu() - cpu, status: response.status };
}

for (const target of targets) await run(target);
const times: WarmTimes[] = [];
for (let pass = 0; pass < Math.max(1, Number(passArg)); pass++)
  for (const [i, target] of targets.entries()) {
    const cost = await run(target);
    const seen = times[i];
    times[i] =
      seen === undefined
        ? { wall: addPass(undefined, cost.wall), main: cost.main, status: cost.status }
        : {
            wall: addPass(seen.wall, cost.wall),
            main: Math.min(seen.main, cost.main),
            status: seen.status === cost.status ? seen.status : -1,
          };
  }
process.stdout.write(JSON.stringify(times));
