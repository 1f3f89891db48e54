/**
 * `npm run bench:steps`: the planner's estimated steps beside the warm CPU each request takes, to
 * calibrate and check SEARCH_STEP_BUDGET (docs/SEARCH.md, "Thresholds"). One handler over a build
 * (`--out`, a national build for the figures SEARCH.md gives), as an isolate serving traffic: per
 * request of the named mixes an untimed first run (which records the estimated steps of the plans
 * it ran, the most at any level of the planner: the figure the budget is held against), then
 * `--passes` timed runs, the least main-thread CPU kept. Prints per mix the costliest requests,
 * the warm CPU per thousand steps (least, median, most over requests of 10,000 steps or more) and
 * the requests over `--ceiling` ms warm. No request is retried; a 5xx is counted as a failure and
 * the exit code is 1.
 *
 *   npx tsx bench/search-steps.ts --out DIST [--mix NAME …] [--source CSV] [--passes N]
 *     [--ceiling MS] [--top N] [--json FILE]
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createHandler } from "../generator/edge/handler.ts";
import { planTrace, SEARCH_STEP_BUDGET } from "../generator/contract/search/plan.ts";
import { buildAssets } from "./search-assets.ts";
import { eventLoopTurn } from "./event-loop-turn.ts";
import { mainCpu } from "./main-cpu.ts";
import { ensureNationalStreets } from "./national-streets.ts";
import { mixTargets } from "./search-mixes.ts";
import { percentile } from "./pass-stats.ts";

interface Measured {
  readonly mix: string;
  readonly path: string;
  readonly status: number;
  readonly steps: number;
  readonly warm: number;
}

const { values: args } = parseArgs({
  options: {
    out: { type: "string" },
    mix: { type: "string", multiple: true, default: ["address", "adversarial"] },
    source: { type: "string", default: "/tmp/national-streets.csv" },
    passes: { type: "string", default: "3" },
    ceiling: { type: "string", default: "7" },
    top: { type: "string", default: "10" },
    json: { type: "string" },
  },
});
if (args.out === undefined) throw new Error("--out DIST: a build to answer from");
const source = resolve(args.source);
await ensureNationalStreets(source);
const targets = await mixTargets(args.mix, source);
const handler = createHandler(buildAssets(resolve(args.out)).assets);

async function cpuOf(path: string): Promise<{ ms: number; status: number }> {
  await eventLoopTurn(); // untimed, as a server's loop turns between requests
  const cpu = mainCpu();
  const response = await handler(new Request(`http://bench${path}`));
  await response.arrayBuffer();
  return { ms: mainCpu() - cpu, status: response.status };
}

const measured: Measured[] = [];
let failures = 0;
for (const [i, target] of targets.entries()) {
  planTrace.steps = [];
  const first = await cpuOf(target.path);
  const steps = planTrace.steps.at(-1) ?? 0; // the innermost plan run: the one that iterates
  let warm = Infinity;
  for (let pass = 0; pass < Math.max(1, Number(args.passes)); pass++) {
    const { ms, status } = await cpuOf(target.path);
    if (status !== first.status) failures++;
    warm = Math.min(warm, ms);
  }
  if (first.status >= 500) failures++;
  measured.push({ mix: target.mix, path: target.path, status: first.status, steps, warm });
  if ((i + 1) % 500 === 0) console.error(`  ${i + 1} of ${targets.length}`);
}

const fmt = (n: number, digits = 2): string => n.toFixed(digits).padStart(8);
const ceiling = Number(args.ceiling);
console.log(`step budget ${SEARCH_STEP_BUDGET} steps; warm = least of ${args.passes} passes`);
for (const mix of args.mix) {
  const rows = measured.filter((m) => m.mix === mix);
  const answered = rows.filter((m) => m.status === 200);
  const perStep = answered
    .filter((m) => m.steps >= 10_000)
    .map((m) => (m.warm * 1000) / m.steps)
    .sort((a, b) => a - b);
  const warms = answered.map((m) => m.warm).sort((a, b) => a - b);
  console.log(
    `\n${mix}: ${rows.length} requests, ${answered.length} answered, ${rows.filter((m) => m.status === 400).length} 400; ` +
      `warm max ${fmt(warms.at(-1) ?? 0).trim()} p99 ${fmt(percentile(warms, 99)).trim()} p50 ${fmt(percentile(warms, 50)).trim()} ms; ` +
      `${answered.filter((m) => m.warm > ceiling).length} answered over ${ceiling} ms`,
  );
  if (perStep.length > 0)
    console.log(
      `  warm ms per 1,000 steps (${perStep.length} answered of ≥ 10,000 steps): least ${fmt(perStep[0] ?? 0, 3).trim()}, median ${fmt(percentile(perStep, 50), 3).trim()}, most ${fmt(perStep.at(-1) ?? 0, 3).trim()}`,
    );
  console.log("     steps  warm ms  status  request (costliest warm first)");
  for (const m of [...rows].sort((a, b) => b.warm - a.warm).slice(0, Number(args.top)))
    console.log(
      `${String(Math.round(m.steps)).padStart(10)} ${fmt(m.warm)}  ${m.status}     ${m.path}`,
    );
  console.log("     steps  warm ms  status  request (most steps first)");
  for (const m of [...rows].sort((a, b) => b.steps - a.steps).slice(0, Number(args.top)))
    console.log(
      `${String(Math.round(m.steps)).padStart(10)} ${fmt(m.warm)}  ${m.status}     ${m.path}`,
    );
}
if (args.json !== undefined) writeFileSync(args.json, JSON.stringify(measured));
if (failures > 0)
  console.log(`\n${failures} failures (a 5xx, or a status that changed between passes)`);
process.exitCode = failures > 0 ? 1 : 0;
