/**
 * `npm run bench:search`: street search at national scale. Builds the synthetic national
 * street list with and without the search index (A/B, each build in its own process), then runs
 * the query mix of bench/search-mix.ts through the Worker in-process over the built files and
 * prints per query class: our wall time and CPU per request (p50 / p99), asset fetches and index
 * bytes per warm request and per cold request (a fresh isolate's first), and then a second table
 * that sets our wall time beside PostgreSQL's for the same requests on the same statistics.
 *
 *   bash bench/postgres-up.sh                          # once, for the PostgreSQL column
 *   npm run bench:search -- [--source FILE] [--out DIR] [--max-files N] [--postgres-json FILE …] [--no-postgres] [--no-ab]
 *                           [--no-build (reuse --out)] [--slowest N (print the N slowest requests, by CPU here and by wall in the small process)] [--passes N] [--cold N]
 *                           [--ceiling MS] [--no-adversarial]
 *
 * Every timed request, warm or cold, follows one untimed turn of the event loop
 * (bench/event-loop-turn.ts says why). CPU is given twice. "main" is the main thread's
 * (process.threadCpuUsage): the thread that runs the Worker's code, as Cloudflare bills an
 * isolate's own thread. "proc" is the whole process's (process.cpuUsage), which adds V8's
 * background threads (concurrent GC marking and sweeping, the optimizing compiler) that work for
 * this thread and for others alike. On a shared machine
 * other processes and the collector add to single requests, so the mix is measured in N passes:
 * the table gives the first pass and, per request, the least of the N (the request's own cost with
 * the least noise).
 *
 * Cold: the first --cold requests of every class (in mix order), each on a fresh handler (a new
 * isolate's AssetStore and search index: nothing read before) with every module memo emptied
 * (contract/isolate-state.ts), after the timed passes: the asset fetches and index bytes (`/_s/…`)
 * that first request reads, and its main-thread CPU, the least of --cold-passes such first
 * requests, each pass in a new process (default 3, as warm is the least of --passes: a single
 * first request on this shared machine is as often slowed by the machine as by its own work; the
 * code has run once, which a new isolate's has not). They run in a process of their own with a
 * small heap, as a new isolate's is (bench/search-cold.ts): in this one, a garbage collection that
 * fell into a cold request walked the street list and the warm handler's caches, which no isolate
 * holds.
 *
 * The adversarial mix (bench/search-adversarial.ts) follows: every request warm (least of the
 * passes) and as a fresh isolate's first. Printed per mix: main-thread CPU max / p99 / p50, warm
 * and cold, the requests refused as too broad, the ten most expensive requests of both, and the
 * requests over --ceiling ms (default 10, the free plan's CPU limit): any, and the exit code is 1.
 *
 * The PostgreSQL comparison is like for like: both sides' wall time per request, each request's
 * first timed pass and the least of its passes, p50 / p99 per class. Ours comes from a small
 * process of its own (bench/search-warm.ts: one warm handler, a warm-up pass, then --passes passes),
 * not from this process's passes, whose heap and collections no isolate has; PostgreSQL's from
 * `bench:postgres --passes N` (its least is of its own N, printed beside it).
 *
 * PostgreSQL's figures come from `npm run bench:postgres` run here on the same file and seed
 * (or from --postgres-json, files that command wrote, repeatable for a mix timed in parts with its
 * --class; a class in several files takes the last). "Warm" means after one untimed pass over
 * the whole mix: the isolate then holds the route table, the index's meta and places, lexicon and
 * trigram shards, the rendered tails and its most recent list chunks (CHUNK_CACHE in
 * generator/edge/search-index.ts), as a Worker isolate serving traffic would.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createHandler, type Handler } from "../generator/edge/handler.ts";
import { readStreets } from "../generator/sources/de-streets.ts";
import { buildInvocation } from "./build-invocation.ts";
import { eventLoopTurn } from "./event-loop-turn.ts";
import { adversarialMix, requestPath, type AdversarialRequest } from "./search-adversarial.ts";
import { buildAssets } from "./search-assets.ts";
import type { ColdCost } from "./search-cold.ts";
import type { WarmTimes } from "./search-warm.ts";
import {
  classTimes,
  compare,
  firstOfEachClass,
  percentile,
  readClassTimes,
  type ClassTimes,
  type Spread,
} from "./pass-stats.ts";
import { searchMix, type SearchRequest } from "./search-mix.ts";
import { ensureNationalStreets } from "./national-streets.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    out: { type: "string", default: join(tmpdir(), "plz-bench-search") },
    "max-files": { type: "string", default: "20000" },
    seed: { type: "string", default: "13" },
    "postgres-json": { type: "string", multiple: true },
    "no-postgres": { type: "boolean", default: false },
    "no-ab": { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    slowest: { type: "string", default: "0" },
    passes: { type: "string", default: "3" },
    cold: { type: "string", default: "50" },
    "cold-passes": { type: "string", default: "3" },
    ceiling: { type: "string", default: "10" },
    "no-adversarial": { type: "boolean", default: false },
  },
});
const log = (line: string) => process.stderr.write(`${line}\n`);
const source = resolve(args.source);
await ensureNationalStreets(source);

interface BuildJson {
  timingsMs: Record<string, number>;
  cpuMs: number;
  peakRssMiB: number;
  files: Record<string, { files: number; bytes: number }>;
}
function build(out: string, withIndex: boolean): { summary: BuildJson; wallMs: number } {
  rmSync(out, { recursive: true, force: true });
  const started = performance.now();
  const build = buildInvocation([
    "--source",
    `de-streets=${source}`,
    "--out",
    out,
    "--max-files",
    args["max-files"],
    "--full",
    "--json",
    ...(withIndex ? [] : ["--no-search-index"]),
  ]);
  const child = spawnSync(build.command, build.args, {
    cwd: ROOT,
    env: build.env,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.status !== 0) throw new Error(`build exited with ${child.status}`);
  return { summary: JSON.parse(child.stdout) as BuildJson, wallMs: performance.now() - started };
}

const out = resolve(args.out);
const rows: [string, string][] = [];
const row = (name: string, value: string) => {
  rows.push([name, value]);
  log(`${name}: ${value}`);
};
if (!args["no-build"]) {
  log("building with the search index…");
  const withIndex = build(out, true);
  const fileCount = Object.values(withIndex.summary.files).reduce((sum, f) => sum + f.files, 0);
  row(
    "build with index: wall / search phase / peak RSS",
    `${(withIndex.wallMs / 1000).toFixed(1)} s / ${((withIndex.summary.timingsMs["search"] ?? 0) / 1000).toFixed(1)} s / ${withIndex.summary.peakRssMiB} MiB`,
  );
  row("files in the build (budget)", `${fileCount.toLocaleString("en")} (${args["max-files"]})`);
  if (!args["no-ab"]) abBuild(withIndex);
}
function abBuild(withIndex: { summary: BuildJson; wallMs: number }): void {
  log("building without the search index…");
  const without = build(join(out, "..", "plz-bench-search-without"), false);
  rmSync(join(out, "..", "plz-bench-search-without"), { recursive: true, force: true });
  row(
    "build without index: wall / peak RSS",
    `${(without.wallMs / 1000).toFixed(1)} s / ${without.summary.peakRssMiB} MiB`,
  );
  row(
    "added by the index: wall / peak RSS",
    `${((withIndex.wallMs - without.wallMs) / 1000).toFixed(1)} s / ${withIndex.summary.peakRssMiB - without.summary.peakRssMiB} MiB`,
  );
}

// The Worker in-process over the built files, every fetch counted.
const { assets, counts, reset } = buildAssets(out, "response");
// Both mixes are drawn up front and the street list is let go before any timing: a Worker isolate
// holds no such list, and here every major collection in the timed passes would mark its 1.2
// million objects on the GC threads, charged to whichever request it fell in (wall and "proc").
const { requests, adversarial, streetCount } = await (async () => {
  const streets = await readStreets(readFileSync(source), source);
  return {
    requests: searchMix(streets, Number(args.seed)),
    adversarial: args["no-adversarial"] ? [] : adversarialMix(streets),
    streetCount: streets.length,
  };
})();

/** What one request cost: wall ms, CPU ms of the main thread and of the whole process, and what it read. */
interface Cost {
  readonly wall: number;
  readonly main: number;
  readonly proc: number;
  readonly fetches: number;
  readonly bytes: number;
  readonly status: number;
}
/**
 * Both CPU clocks, process first. Linux's getrusage(RUSAGE_THREAD), behind threadCpuUsage, reads
 * the thread's runtime as of its last scheduler tick or switch: alone, a 0.3 ms spin read 0 ms in
 * 361 of 400 tries here and 4 ms in 25. getrusage(RUSAGE_SELF), behind cpuUsage, first brings the
 * calling thread's runtime up to date, so right after it the thread's figure is exact (the same
 * spin read 0.30 ms every time).
 */
const cpuNow = (): readonly [main: number, proc: number] => {
  const proc = process.cpuUsage();
  const main = process.threadCpuUsage();
  return [(main.user + main.system) / 1000, (proc.user + proc.system) / 1000];
};
/** Planned refusals (a 400: too broad, decided by the plan) apart from failures (any other status but 200), counted per measured request. */
let [refusals, failures] = [0, 0];
async function measure(handler: Handler, r: SearchRequest | AdversarialRequest): Promise<Cost> {
  reset();
  await eventLoopTurn(); // untimed: tasks V8 posted during the previous request run here
  const [main, proc] = cpuNow();
  const started = performance.now();
  const response = await handler(new Request(`http://bench${requestPath(r)}`));
  await response.arrayBuffer();
  const wall = performance.now() - started;
  const [mainAfter, procAfter] = cpuNow();
  if (response.status === 400) refusals++;
  else if (response.status !== 200) failures++;
  return {
    wall,
    main: mainAfter - main,
    proc: procAfter - proc,
    ...counts(),
    status: response.status,
  };
}

const handler = createHandler(assets);
log(`warm-up pass over ${requests.length.toLocaleString("en")} requests…`);
for (const r of requests) await measure(handler, r);
log(`${args.passes} measured passes…`);
interface Sample {
  readonly target: string;
  /** The first measured pass. */
  readonly first: Cost;
  /** Per figure, the least over the passes. */
  least: { wall: number; main: number; proc: number };
  cold?: Cost;
}
const byClass = new Map<string, Sample[]>();
const samples: Sample[] = [];
for (let pass = 0; pass < Number(args.passes); pass++) {
  for (const [i, r] of requests.entries()) {
    const cost = await measure(handler, r);
    const seen = samples[i];
    if (seen === undefined) {
      const sample: Sample = {
        target: requestPath(r),
        first: cost,
        least: { wall: cost.wall, main: cost.main, proc: cost.proc },
      };
      samples[i] = sample;
      (byClass.get(r.class) ?? byClass.set(r.class, []).get(r.class))?.push(sample);
    } else
      seen.least = {
        wall: Math.min(seen.least.wall, cost.wall),
        main: Math.min(seen.least.main, cost.main),
        proc: Math.min(seen.least.proc, cost.proc),
      };
  }
}
const warm = warmWall(samples.map((s) => s.target));
const warmTimed = requests.map((r, i) => ({ class: r.class, times: (warm[i] as WarmTimes).wall }));
log(`cold requests: the first ${args.cold} of every class, each on a fresh handler…`);
const coldTaken = new Map<string, number>();
const coldOnes: number[] = [];
for (const [i, r] of requests.entries()) {
  const taken = coldTaken.get(r.class) ?? 0;
  if (taken >= Number(args.cold)) continue;
  coldTaken.set(r.class, taken + 1);
  coldOnes.push(i);
}
const mixCold = coldCosts(coldOnes.map((i) => (samples[i] as Sample).target));
coldOnes.forEach((i, k) => {
  const cost = mixCold[k];
  if (cost !== undefined) (samples[i] as Sample).cold = cost;
});

// The adversarial mix: warm (least of the passes, after a warm-up pass) and each request as a fresh isolate's first.
interface Probe {
  readonly target: string;
  warm: number;
  cold: number;
  status: number;
}
const probes: Probe[] = [];
if (!args["no-adversarial"]) {
  log(
    `adversarial mix: ${adversarial.length} requests, a warm-up pass, ${args.passes} passes, then each on a fresh handler…`,
  );
  for (const r of adversarial) await measure(handler, r);
  for (const r of adversarial)
    probes.push({ target: requestPath(r), warm: Infinity, cold: 0, status: 0 });
  for (let pass = 0; pass < Number(args.passes); pass++) {
    for (const [i, r] of adversarial.entries()) {
      const cost = await measure(handler, r);
      const probe = probes[i] as Probe;
      probe.warm = Math.min(probe.warm, cost.main);
      probe.status = cost.status;
    }
  }
  coldCosts(probes.map((p) => p.target)).forEach(
    (cost, i) => ((probes[i] as Probe).cold = cost.main),
  );
}

/**
 * Each target as a fresh isolate's first request, in a process of its own (bench/search-cold.ts
 * says why), --cold-passes times, each in a new process so that no pass runs code the JIT has
 * optimised on an earlier one: per target the least CPU; a target that answers differently in two
 * processes is a failure.
 */
function coldCosts(targets: readonly string[]): Cost[] {
  let costs: ColdCost[] = [];
  for (let pass = 0; pass < Math.max(1, Number(args["cold-passes"])); pass++) {
    const again = coldPass(targets);
    costs =
      pass === 0
        ? again
        : costs.map((first, i) => {
            const other = again[i] as ColdCost;
            const status = other.status === first.status ? first.status : -1;
            return { ...first, main: Math.min(first.main, other.main), status };
          });
  }
  for (const cost of costs)
    if (cost.status === 400) refusals++;
    else if (cost.status !== 200) failures++;
  return costs.map((cost) => ({
    ...cost,
    wall: NaN,
    proc: NaN,
  }));
}

function coldPass(targets: readonly string[]): ColdCost[] {
  return child<ColdCost[]>("search-cold.ts", [out], targets);
}

/** The mix warm in a small process of its own (bench/search-warm.ts), wall per request, --passes passes. */
function warmWall(targets: readonly string[]): WarmTimes[] {
  log(`the mix warm in a process of its own: a warm-up pass and ${args.passes} passes…`);
  const times = child<WarmTimes[]>("search-warm.ts", [out, args.passes], targets);
  for (const t of times) if (t.status !== 200 && t.status !== 400) failures++;
  return times;
}

function child<T>(script: string, argv: readonly string[], targets: readonly string[]): T {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, join(ROOT, "bench", script), ...argv],
    {
      cwd: ROOT,
      input: JSON.stringify(targets),
      encoding: "utf8",
      maxBuffer: 1 << 28,
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  if (child.status !== 0) throw new Error(`bench/${script} exited with ${child.status}`);
  return JSON.parse(child.stdout) as T;
}

const ms = (values: readonly number[], p: number) => percentile(values, p).toFixed(3);
const kib = (bytes: number) => (bytes / 1024).toFixed(0);
const coldOf = (list: readonly Sample[]) =>
  list.flatMap((s) => (s.cold === undefined ? [] : [s.cold]));
const postgres = postgresFigures();
const all = [...byClass.values()].flat();
const cold = coldOf(all);
row(
  "requests × passes + cold (refusals, failures; not retried)",
  `${all.length.toLocaleString("en")} × ${args.passes} + ${cold.length} (of every response measured, both mixes: ${refusals} planned 400s, ${failures} failures)`,
);
row(
  "Worker CPU, main thread, p50 / p99, first pass",
  `${ms(
    all.map((s) => s.first.main),
    50,
  )} ms / ${ms(
    all.map((s) => s.first.main),
    99,
  )} ms`,
);
row(
  `Worker CPU, main thread, p50 / p99, least of ${args.passes} passes`,
  `${ms(
    all.map((s) => s.least.main),
    50,
  )} ms / ${ms(
    all.map((s) => s.least.main),
    99,
  )} ms`,
);
row(
  "Worker CPU, process (all threads), p50 / p99, first pass",
  `${ms(
    all.map((s) => s.first.proc),
    50,
  )} ms / ${ms(
    all.map((s) => s.first.proc),
    99,
  )} ms`,
);
row(
  `Worker CPU, process (all threads), p50 / p99, least of ${args.passes}`,
  `${ms(
    all.map((s) => s.least.proc),
    50,
  )} ms / ${ms(
    all.map((s) => s.least.proc),
    99,
  )} ms`,
);
row(
  "wall per request p50 / p99, first pass",
  `${ms(
    all.map((s) => s.first.wall),
    50,
  )} ms / ${ms(
    all.map((s) => s.first.wall),
    99,
  )} ms`,
);
row(
  "asset fetches per warm request p50 / p99 / max",
  `${percentile(
    all.map((s) => s.first.fetches),
    50,
  )} / ${percentile(
    all.map((s) => s.first.fetches),
    99,
  )} / ${Math.max(...all.map((s) => s.first.fetches))}`,
);
row(
  "index bytes read per warm request p99 / max",
  `${kib(
    percentile(
      all.map((s) => s.first.bytes),
      99,
    ),
  )} KiB / ${kib(Math.max(...all.map((s) => s.first.bytes)))} KiB`,
);
row(
  "asset fetches per cold request p50 / p99 / max",
  `${percentile(
    cold.map((c) => c.fetches),
    50,
  )} / ${percentile(
    cold.map((c) => c.fetches),
    99,
  )} / ${Math.max(...cold.map((c) => c.fetches))}`,
);
row(
  "index bytes read per cold request p50 / p99 / max",
  `${kib(
    percentile(
      cold.map((c) => c.bytes),
      50,
    ),
  )} KiB / ${kib(
    percentile(
      cold.map((c) => c.bytes),
      99,
    ),
  )} KiB / ${kib(Math.max(...cold.map((c) => c.bytes)))} KiB`,
);
row(
  "Worker CPU per cold request, main thread, p50 / p99",
  `${ms(
    cold.map((c) => c.main),
    50,
  )} ms / ${ms(
    cold.map((c) => c.main),
    99,
  )} ms`,
);

const mixProbes: Probe[] = all.map((s) => ({
  target: s.target,
  warm: s.least.main,
  cold: s.cold?.main ?? 0,
  status: s.first.status,
}));
const max = (values: readonly number[]) => (values.length === 0 ? NaN : Math.max(...values));
for (const [name, list] of [
  ["query mix", mixProbes],
  ["adversarial mix", probes],
] as const) {
  if (list.length === 0) continue;
  const cold = list.filter((p) => p.cold > 0).map((p) => p.cold);
  row(
    `${name}: main-thread CPU warm (least of ${args.passes}) max / p99 / p50`,
    `${max(list.map((p) => p.warm)).toFixed(3)} ms / ${ms(
      list.map((p) => p.warm),
      99,
    )} ms / ${ms(
      list.map((p) => p.warm),
      50,
    )} ms`,
  );
  row(
    `${name}: main-thread CPU, a fresh isolate's first request (least of ${args["cold-passes"]}), max / p99 / p50 (n)`,
    `${max(cold).toFixed(3)} ms / ${ms(cold, 99)} ms / ${ms(cold, 50)} ms (${cold.length})`,
  );
  row(
    `${name}: refused as too broad (400)`,
    `${list.filter((p) => p.status === 400).length} of ${list.length}`,
  );
}
const everyProbe = [...mixProbes, ...probes];
const worst = [...everyProbe].sort((a, b) => Math.max(b.warm, b.cold) - Math.max(a.warm, a.cold));
for (const [i, p] of worst.slice(0, 10).entries())
  row(
    `most expensive #${i + 1} (warm / cold ms, status)`,
    `${p.warm.toFixed(2)} / ${p.cold.toFixed(2)}, ${p.status}: ${decodeURIComponent(p.target)}`,
  );
const warmest = [...everyProbe].sort((a, b) => b.warm - a.warm);
for (const [i, p] of warmest.slice(0, 10).entries())
  row(
    `most expensive warm #${i + 1} (warm ms, status)`,
    `${p.warm.toFixed(2)}, ${p.status}: ${decodeURIComponent(p.target)}`,
  );
const refused = everyProbe.filter((p) => p.status === 400);
row(
  "refusals: main-thread CPU warm max / cold max (n)",
  `${max(refused.map((p) => p.warm)).toFixed(3)} ms / ${max(refused.map((p) => p.cold)).toFixed(3)} ms (${refused.length})`,
);
const ceiling = Number(args.ceiling);
const over = everyProbe.filter((p) => Math.max(p.warm, p.cold) > ceiling);
row(
  `requests over the ${ceiling} ms ceiling (warm or cold)`,
  `${over.length}${over.length > 0 ? " (EXCEEDED)" : ""}`,
);
if (over.length > 0) process.exitCode = 1;
for (const s of [...all]
  .sort((a, b) => b.least.main - a.least.main)
  .slice(0, Number(args.slowest))) {
  log(
    `slow: main ${s.least.main.toFixed(2)} ms (least), ${s.first.main.toFixed(2)} ms first; process ${s.first.proc.toFixed(2)} ms first; ${s.first.fetches} fetches: ${decodeURIComponent(s.target)}`,
  );
}
// The requests that make the comparison's p99: the slowest by wall in the small process.
for (const [i, t] of warm
  .map((t, i) => [i, t] as const)
  .sort(([, a], [, b]) => b.wall.least - a.wall.least)
  .slice(0, Number(args.slowest)))
  log(
    `slow, wall in the small process: ${t.wall.least.toFixed(2)} ms (least), ${t.wall.first.toFixed(2)} ms first, main ${t.main.toFixed(2)} ms (least); ${requests[i]?.class}: ${decodeURIComponent(samples[i]?.target ?? "")}`,
  );
const width = Math.max(...rows.map(([name]) => name.length));
process.stdout.write(
  `\n${rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n\n`,
);
const head = [
  "class",
  "n",
  "wall p50",
  "wall p99",
  "main p50",
  "main p99",
  "least main p50",
  "least main p99",
  "proc p50",
  "proc p99",
  "least proc p50",
  "least proc p99",
  "fetch max",
  "KiB max",
  "cold fetch max",
  "cold KiB p99",
  "cold KiB max",
];
const table = [...byClass].map(([name, samples]) => {
  const [p50, p99] = [
    percentile(
      samples.map((s) => s.first.wall),
      50,
    ),
    percentile(
      samples.map((s) => s.first.wall),
      99,
    ),
  ];
  const coldHere = coldOf(samples);
  return [
    name,
    String(samples.length),
    p50.toFixed(3),
    p99.toFixed(3),
    ms(
      samples.map((s) => s.first.main),
      50,
    ),
    ms(
      samples.map((s) => s.first.main),
      99,
    ),
    ms(
      samples.map((s) => s.least.main),
      50,
    ),
    ms(
      samples.map((s) => s.least.main),
      99,
    ),
    ms(
      samples.map((s) => s.first.proc),
      50,
    ),
    ms(
      samples.map((s) => s.first.proc),
      99,
    ),
    ms(
      samples.map((s) => s.least.proc),
      50,
    ),
    ms(
      samples.map((s) => s.least.proc),
      99,
    ),
    String(Math.max(...samples.map((s) => s.first.fetches))),
    kib(Math.max(...samples.map((s) => s.first.bytes))),
    String(Math.max(...coldHere.map((c) => c.fetches))),
    kib(
      percentile(
        coldHere.map((c) => c.bytes),
        99,
      ),
    ),
    kib(Math.max(...coldHere.map((c) => c.bytes))),
  ];
});
const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? "").length)));
for (const line of [head, ...table])
  process.stdout.write(
    `${line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")}\n`,
  );
process.stdout.write(
  `(ms per request; ours: in-process Worker over the built files after a warm-up pass, each request after an untimed turn of the event loop; wall and CPU of the first measured pass, "least": per request the least of ${args.passes} passes; ` +
    `main: the main thread's CPU (process.threadCpuUsage, what runs the Worker), proc: the whole process's (process.cpuUsage, with V8's GC and compiler threads); ` +
    `fetch and KiB: index files read by a warm request (first measured pass); cold: the first request of a fresh handler, the first ${args.cold} requests of each class)\n`,
);
if (postgres !== undefined) printComparison(postgres);

/** Ours beside PostgreSQL's, wall per request, on the same two statistics. */
function printComparison(theirs: ReadonlyMap<string, ClassTimes>): void {
  const cells = (s: Spread | undefined) =>
    s === undefined ? ["–", "–"] : [s.p50.toFixed(2), s.p99.toFixed(2)];
  const verdict = (ahead: boolean | undefined) =>
    ahead === undefined ? "–" : ahead ? "yes" : "NO";
  const head = [
    "class",
    "n",
    "first: ours p50",
    "ours p99",
    "pg p50",
    "pg p99",
    "ahead",
    "least: ours p50",
    "ours p99",
    "pg p50",
    "pg p99",
    "pg passes",
    "ahead",
  ];
  // A class PostgreSQL timed only in part (bench:postgres --limit) is compared on the same requests.
  const ours = classTimes(
    firstOfEachClass(warmTimed, (name) => theirs.get(name)?.requests ?? Infinity),
    Number(args.passes),
  );
  const comparisons = compare(ours, theirs);
  const table = comparisons.map((c) => [
    c.class,
    String(c.ours.requests),
    ...cells(c.ours.first),
    ...cells(c.theirs?.first),
    verdict(c.aheadFirst),
    ...cells(c.ours.least),
    ...cells(c.theirs?.least),
    c.theirs === undefined ? "–" : String(c.theirs.passes),
    verdict(c.aheadLeast),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? "").length)));
  process.stdout.write(`\nStatic beside PostgreSQL, wall ms per request:\n`);
  for (const line of [head, ...table])
    process.stdout.write(
      `${line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")}\n`,
    );
  const compared = comparisons.filter((c) => c.theirs !== undefined);
  const every = (key: "aheadFirst" | "aheadLeast") =>
    compared.every((c) => c[key] === true) ? "yes" : "no";
  process.stdout.write(
    `(ours: wall per request in a small process of its own, bench/search-warm.ts, one warm handler after a warm-up pass; pg: page + count on one connection, bench/postgres.ts, after its warm-up; ` +
      `"first": each request's first timed pass, "least": each request's least of its passes (ours ${args.passes}, pg's as given); p50 / p99 over the class's n requests (the first n in mix order when pg timed only these); ahead: ours lower at p50 and p99)\n` +
      `static ahead on every class with PostgreSQL's figures (${compared.length} of ${comparisons.length}): first pass ${every("aheadFirst")}, least of passes ${every("aheadLeast")}\n`,
  );
}

function postgresFigures(): Map<string, ClassTimes> | undefined {
  let files = args["postgres-json"];
  if (files === undefined && !args["no-postgres"]) {
    const file = join(tmpdir(), "plz-bench-search-postgres.json");
    log("PostgreSQL: npm run bench:postgres on the same file and seed…");
    const child = spawnSync(
      join(ROOT, "node_modules/.bin/tsx"),
      ["bench/postgres.ts", "--source", source, "--seed", args.seed, "--json", file],
      { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] },
    );
    if (child.status !== 0) {
      log(
        "PostgreSQL is not available (bash bench/postgres-up.sh starts it): its columns stay empty",
      );
      return undefined;
    }
    files = [file];
  }
  if (files === undefined) return undefined;
  const figures = new Map<string, ClassTimes>();
  for (const file of files) {
    const json = JSON.parse(readFileSync(file, "utf8")) as {
      streets: number;
      seed: number;
      classes: Parameters<typeof readClassTimes>[0][];
    };
    // Another list or seed is another mix: its figures would stand beside requests they did not time.
    if (json.streets !== streetCount || json.seed !== Number(args.seed))
      throw new Error(
        `${file}: ${json.streets} streets, seed ${json.seed}; this run: ${streetCount}, seed ${args.seed}`,
      );
    for (const c of json.classes) figures.set(c.class, readClassTimes(c));
  }
  const missing = [...byClass.keys()].filter((name) => !figures.has(name));
  if (missing.length > 0) log(`PostgreSQL: no figures for ${missing.join(", ")}`);
  return figures;
}
