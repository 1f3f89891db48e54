/**
 * `npm run bench:fresh`: each request as a fresh Cloudflare isolate's first, measured as a new user
 * meets it. A new isolate has the Worker's script parsed and its top-level code run, but no
 * function of the project's compiled or optimised: its first request pays lazy compilation and
 * V8's lower tiers. bench/search-cold.ts runs every request once untimed first (and empties the
 * memos), which hides that cost; here every request gets a new Node 24 process of its own.
 *
 * 1. The Worker is bundled once as wrangler bundles it (esbuild: ESM, es2024, the workerd, worker
 *    and browser conditions, NODE_ENV production, `keep_names` and `minify` as wrangler.jsonc sets
 *    them, by default names kept and not minified): generator/edge/worker.ts of this
 *    checkout or of `--checkout DIR` (another version: an A/B of first requests).
 * 2. A recording pass learns which files each request fetches: each target on a new instance of
 *    the bundle (a new module state; batches of targets per process, untimed).
 * 3. Per target a new process (bench/fresh-isolate-child.ts, bundled, plain JavaScript on the
 *    project's Node): Node's web classes warmed (native in workerd), the recorded files read into
 *    memory (the asset service's work is not the Worker's CPU; index files come back as plain
 *    objects, bench/search-assets.ts), the bundle imported (module evaluation: the isolate's
 *    startup, reported apart as "startup", not charged to the request), one turn of the event
 *    loop, then `worker.fetch(request, env)` and reading its body timed on the main thread's CPU
 *    clock (bench/main-cpu.ts). Then the same request `--warm` times (default 3), each after a turn
 *    of the loop: the least is the warm figure.
 *
 * `--repeat N` runs every target in N fresh processes: its first figure is their median, the
 * spread (least to most) printed beside it. `--overhead` adds the harness's own cost: a Worker
 * that answers an empty 200, timed the same way. No request is retried; a child that fails, a
 * status that differs between the recording, the first and the warm requests, a 5xx, or a file
 * fetched that the recording did not name is a failure, counted, and the exit code is 1 (also
 * with any request over --ceiling, default 7 ms: 3 ms of headroom under the free plan's 10 ms).
 *
 * Diagnostics: `--node-flags=--trace-gc` (or any Node flags) for the timing children, whose output
 * is then passed on; FRESH_TRACE=1 marks each timed request there with its main thread's user and
 * system CPU, the process's, its minor page faults and involuntary context switches (on this
 * shared machine a fresh process's first requests spent a fifth to a third of their main-thread
 * CPU in the kernel, faulting in the pages its heap grows into), and the heap's size before the
 * Worker is imported and after; FRESH_PROFILE=DIR writes a CPU profile of each first request
 * (bench/profile-summary.ts sums them). The children start with a larger old generation than
 * Node's default (HARNESS_HEAP_FLAGS, below, says why), and with V8 configured as Cloudflare's
 * runtime configures it: every compile on the request's thread (bench/cloudflare-v8.ts; give
 * `--node-flags=--concurrent-recompilation …` to time with Node's defaults). `--deopts` runs the
 * timing children with `--trace-deopt` and `--trace-opt` and prints which functions V8
 * deoptimised inside first requests, in how many (bench/deopt-census.ts): code the warm-up
 * optimised on its small build and the national data sent down a branch it never ran; and which
 * it compiled there, for how long (bench/compile-census.ts): code the warm-up did not make hot.
 * Its timings include V8's tracing (printed inside the timed request): count with it, time
 * without it.
 *
 *   npx tsx bench/fresh-isolate.ts --out DIST [--targets FILE.json | --mix NAME … | PATH …]
 *     [--source CSV] [--seed N] [--limit N] [--ceiling MS] [--jobs N] [--repeat N] [--warm N]
 *     [--checkout DIR] [--overhead] [--deopts] [--json FILE]
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { CLOUDFLARE_V8_FLAGS } from "./cloudflare-v8.ts";
import { compileCensus, firstRequestCompiles, type Compile } from "./compile-census.ts";
import { deoptCensus, firstRequestDeopts, type Deopt } from "./deopt-census.ts";
import type { ChildOrder, RecordedRequest, TimedRequest } from "./fresh-isolate-child.ts";
import { percentile } from "./pass-stats.ts";

const ROOT = resolve(import.meta.dirname, "..");
/** The Worker's entry, as wrangler.jsonc's `main` names it. */
const WORKER_ENTRY = "generator/edge/worker.ts";
/**
 * A child's heap holds what a Worker isolate's does not: Node's own (5.2 MiB used at its start)
 * and its web classes' JavaScript, warmed (3.8 MiB more; native code in workerd). On that heap V8
 * began an old-generation collection during or before the first request and finished it inside
 * (incremental marking and a mark-compact pause: 3-37 ms of wall time in the first requests
 * traced, 2026-11-29). workerd itself (bench/workerd-first.ts: `--trace-gc` through its config's
 * `v8Flags`, the same bundle over the national build) holds 5.9 MB after the Worker's startup and
 * ran only scavenges in the first requests of the four mixes' 60, no mark-compact. So the children start with an old generation large enough that the harness's
 * heap brings no such collection forward; scavenges, which workerd's first requests pay too,
 * are left as they are. Flags given with --node-flags come after these and override them.
 */
const HARNESS_HEAP_FLAGS = ["--initial-old-space-size=64"];
/** Targets a recording process takes: each imports the bundle again, and every instance stays in its heap. */
const RECORD_BATCH = 100;

export interface FreshOptions {
  /** The checkout whose Worker is bundled (default: this one). */
  readonly checkout?: string;
  /** Child processes at once (default 1: one at a time, so that none times another's work). */
  readonly jobs?: number;
  /** Warm requests after the first, in the same process (default 3). */
  readonly warm?: number;
  /** Fresh processes per target (default 1); the first figure is their median. */
  readonly repeat?: number;
  /** Time a Worker that answers an empty 200 instead: the harness's own cost. */
  readonly nullWorker?: boolean;
  /** Files other than the index as Node's own Responses (bench/search-assets.ts's lightResponse says why not by default). */
  readonly nodeResponses?: boolean;
  /** Flags for the timing children's Node (diagnostics: `--trace-gc`); their output is passed on. */
  readonly nodeFlags?: readonly string[];
  /** Collect the deoptimisations and compiles inside each first request (bench/deopt-census.ts, bench/compile-census.ts). */
  readonly deopts?: boolean;
  readonly log?: (line: string) => void;
}

export interface FreshResult {
  readonly target: string;
  readonly status: number;
  /** Main-thread CPU ms of the first request (the median over `repeat` processes). */
  readonly first: number;
  /** Every process's first figure, in run order. */
  readonly firsts: readonly number[];
  /** The least warm request (least over every process). */
  readonly warm: number;
  readonly fetches: number;
  /** Index bytes (`/_s/…`) the first request read. */
  readonly bytes: number;
  /** Main-thread CPU ms of the module evaluation (median): the isolate's startup, not the request. */
  readonly startup: number;
  /** Why the figures are not to be trusted, when so: not retried, counted. */
  readonly failure?: string;
  /** With `deopts`: the deoptimisations inside the first process's first request. */
  readonly deopts?: readonly Deopt[];
  /** With `deopts`: the compiles inside the first process's first request. */
  readonly compiles?: readonly Compile[];
}

type TimedWithDeopts = TimedRequest & {
  readonly deopts?: readonly Deopt[];
  readonly compiles?: readonly Compile[];
};

/** The Node the children run on: the project's (the `node` devDependency, 24), else this one. */
const nodeBinary = (): string => {
  const own = join(ROOT, "node_modules/.bin/node");
  return existsSync(own) ? own : process.execPath;
};

/**
 * Wrangler's own bundling settings of `checkout`'s wrangler.jsonc: `keep_names` (wrangler's default
 * true: every named function, nested ones too, gets a `__name(fn, "…")` call where it is defined)
 * and `minify` (default false). Read with a pattern rather than a JSONC parser: both are plain
 * top-level booleans.
 */
function wranglerBundling(checkout: string): { keepNames: boolean; minify: boolean } {
  const file = join(checkout, "wrangler.jsonc");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const flag = (name: string, fallback: boolean) => {
    const match = new RegExp(`"${name}"\\s*:\\s*(true|false)`).exec(text);
    return match === null ? fallback : match[1] === "true";
  };
  return { keepNames: flag("keep_names", true), minify: flag("minify", false) };
}

/**
 * generator/edge/worker.ts of `checkout` (or another `entry` of it) bundled into `file` with
 * wrangler's esbuild settings.
 */
export async function bundleWorker(
  checkout: string,
  file: string,
  entry = WORKER_ENTRY,
): Promise<void> {
  await build({
    entryPoints: [join(checkout, entry)],
    absWorkingDir: checkout,
    outfile: file,
    bundle: true,
    format: "esm",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    ...wranglerBundling(checkout),
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  });
}

async function bundleChild(file: string): Promise<void> {
  await build({
    entryPoints: [join(ROOT, "bench/fresh-isolate-child.ts")],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    logLevel: "warning",
  });
}

/**
 * Runs a child on `order`: its answer (fd 3), and with `census` its stdout (V8's traces and the
 * timed requests' marks: bench/deopt-census.ts). Its output is passed on when it runs with `flags`
 * or FRESH_TRACE=1, unless `census`.
 */
function runChild<T>(
  child: string,
  order: ChildOrder,
  flags: readonly string[] = [],
  census = false,
): Promise<{ answer: T; stdout: string }> {
  return new Promise((resolvePromise, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...(census ? { FRESH_TRACE: "1" } : {}) };
    delete env["NODE_COMPILE_CACHE"]; // no code cache from an earlier process: nothing is compiled yet
    delete env["NODE_OPTIONS"];
    // The answer comes on a pipe of its own (fd 3): whatever Node prints (--trace-gc) cannot break it.
    const args = [
      ...HARNESS_HEAP_FLAGS,
      ...CLOUDFLARE_V8_FLAGS,
      ...flags,
      ...(census ? ["--trace-deopt", "--trace-opt"] : []),
      child,
    ];
    const proc = spawn(nodeBinary(), args, {
      env,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    });
    let [answer, stdout, stderr] = ["", "", ""];
    const passOn = (chunk: Buffer) => {
      if (!census && (flags.length > 0 || process.env["FRESH_TRACE"] === "1"))
        process.stderr.write(chunk);
    };
    proc.stdio[3]?.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    proc.stdout.on("data", (chunk: Buffer) => {
      if (census) stdout += chunk.toString();
      passOn(chunk);
    });
    proc.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      passOn(chunk);
    });
    proc.on("error", reject);
    proc.on("close", (code) => {
      if (code !== 0)
        reject(new Error(`child exited with ${code}: ${stderr.trim().slice(0, 500)}`));
      else
        try {
          resolvePromise({ answer: JSON.parse(answer) as T, stdout });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
    });
    proc.stdin.end(JSON.stringify(order));
  });
}

/** Runs `work` on every item, `jobs` at a time, results in item order. */
async function pool<I, O>(
  items: readonly I[],
  jobs: number,
  work: (item: I, i: number) => Promise<O>,
): Promise<O[]> {
  const results: O[] = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as I, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return results;
}

const median = (values: readonly number[]) => percentile(values, 50);

/**
 * Each target as a fresh isolate's first request over the build in `outDir` (see the file's
 * comment), and warm in the same process; results in target order.
 */
export async function freshFirstRequests(
  outDir: string,
  targets: readonly string[],
  options: FreshOptions = {},
): Promise<FreshResult[]> {
  const out = resolve(outDir);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const jobs = Math.max(1, options.jobs ?? 1);
  const repeat = Math.max(1, options.repeat ?? 1);
  const census = options.deopts === true;
  const work = mkdtempSync(join(tmpdir(), "plz-fresh-"));
  try {
    const [bundle, child] = [join(work, "worker.mjs"), join(work, "child.mjs")];
    await Promise.all([
      bundleWorker(resolve(options.checkout ?? ROOT), bundle),
      bundleChild(child),
    ]);
    const batches: string[][] = [];
    for (let i = 0; i < targets.length; i += RECORD_BATCH)
      batches.push(targets.slice(i, i + RECORD_BATCH));
    log(`recording the files of ${targets.length} requests (${batches.length} processes)…`);
    const recorded: (RecordedRequest | Error)[] = (
      await pool(batches, Math.max(2, jobs), (batch) =>
        runChild<RecordedRequest[]>(child, { mode: "record", bundle, out, targets: batch }).then(
          ({ answer }) => answer,
          (error: unknown) =>
            batch.map(() => (error instanceof Error ? error : new Error(String(error)))),
        ),
      )
    ).flat();
    log(`timing ${targets.length} requests × ${repeat}, a new process each, ${jobs} at a time…`);
    let done = 0;
    const runs = await pool(
      targets.flatMap((target, i) => Array.from({ length: repeat }, () => ({ target, i }))),
      jobs,
      async ({ target, i }) => {
        const seen = recorded[i];
        if (seen === undefined || seen instanceof Error) return seen ?? new Error("not recorded");
        const timed = await runChild<TimedRequest>(
          child,
          {
            mode: "time",
            bundle: options.nullWorker === true ? null : bundle,
            out,
            target,
            paths: seen.paths,
            warm: options.warm ?? 3,
            nodeResponses: options.nodeResponses === true,
          },
          options.nodeFlags,
          census,
        ).then(
          ({ answer, stdout }): TimedWithDeopts =>
            census
              ? {
                  ...answer,
                  deopts: firstRequestDeopts(stdout),
                  compiles: firstRequestCompiles(stdout),
                }
              : answer,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
        if (++done % 100 === 0) log(`  ${done} of ${targets.length * repeat}`);
        return timed;
      },
    );
    return targets.map((target, i) => {
      const mine = runs.slice(i * repeat, (i + 1) * repeat);
      const seen = recorded[i];
      const failed =
        mine.find((r): r is Error => r instanceof Error) ??
        (seen instanceof Error ? seen : undefined);
      const timed = mine.filter((r): r is TimedWithDeopts => !(r instanceof Error));
      if (failed !== undefined || timed.length === 0 || seen === undefined || seen instanceof Error)
        return {
          target,
          status: 0,
          first: NaN,
          firsts: [],
          warm: NaN,
          fetches: 0,
          bytes: 0,
          startup: NaN,
          failure: failed?.message ?? "no run",
        };
      const one = timed[0] as TimedWithDeopts;
      const statuses = new Set([
        seen.status,
        ...timed.flatMap((t) => [t.status, ...t.warmStatuses]),
      ]);
      const problems = [
        ...(options.nullWorker !== true && statuses.size > 1
          ? [`statuses differ: ${[...statuses].join(", ")}`]
          : []),
        ...(one.status >= 500 ? [`status ${one.status}`] : []),
        ...(timed.some((t) => t.misses > 0) ? ["fetched files the recording did not name"] : []),
      ];
      const firsts = timed.map((t) => t.first);
      return {
        target,
        status: one.status,
        first: median(firsts),
        firsts,
        warm: Math.min(...timed.map((t) => t.warm)),
        fetches: one.fetches,
        bytes: one.bytes,
        startup: median(timed.map((t) => t.startup)),
        ...(one.deopts === undefined ? {} : { deopts: one.deopts }),
        ...(one.compiles === undefined ? {} : { compiles: one.compiles }),
        ...(problems.length > 0 ? { failure: problems.join("; ") } : {}),
      };
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The table and summary lines `bench:fresh` prints. */
export function freshReport(results: readonly FreshResult[], ceiling: number): string[] {
  const lines: string[] = [];
  const repeated = results.some((r) => r.firsts.length > 1);
  const width = Math.min(
    90,
    Math.max(6, ...results.map((r) => decodeURIComponent(r.target).length)),
  );
  lines.push(
    `${"request".padEnd(width)}  status  first ms  warm ms  fetches  index KiB  startup ms${repeated ? "  first: least–most" : ""}`,
  );
  for (const r of results)
    lines.push(
      `${decodeURIComponent(r.target).slice(0, width).padEnd(width)}  ${String(r.status).padStart(6)}  ${r.first.toFixed(2).padStart(8)}  ${r.warm.toFixed(2).padStart(7)}  ${String(r.fetches).padStart(7)}  ${(r.bytes / 1024).toFixed(0).padStart(9)}  ${r.startup.toFixed(1).padStart(10)}` +
        (repeated
          ? `  ${Math.min(...r.firsts).toFixed(2)}–${Math.max(...r.firsts).toFixed(2)}`
          : "") +
        (r.failure === undefined ? "" : `  FAILED: ${r.failure}`),
    );
  const ok = results.filter((r) => r.failure === undefined);
  const firsts = ok.map((r) => r.first);
  const warms = ok.map((r) => r.warm);
  const stat = (values: readonly number[]) =>
    values.length === 0
      ? "–"
      : `${Math.max(...values).toFixed(2)} / ${percentile(values, 99).toFixed(2)} / ${percentile(values, 50).toFixed(2)} ms`;
  lines.push("");
  lines.push(
    `requests: ${results.length}, failures (not retried): ${results.length - ok.length}; statuses: ${statusCounts(ok)}`,
  );
  lines.push(`first request, main-thread CPU, max / p99 / p50: ${stat(firsts)}`);
  lines.push(`warm (least of the requests after it), max / p99 / p50: ${stat(warms)}`);
  lines.push(
    `startup (module evaluation, not charged), p50: ${percentile(
      ok.map((r) => r.startup),
      50,
    ).toFixed(1)} ms`,
  );
  lines.push(
    `over the ${ceiling} ms ceiling: ${firsts.filter((v) => v > ceiling).length} first requests, ${warms.filter((v) => v > ceiling).length} warm`,
  );
  lines.push("the ten costliest first requests (first / warm ms, status, fetches):");
  for (const r of [...ok].sort((a, b) => b.first - a.first).slice(0, 10))
    lines.push(
      `  ${r.first.toFixed(2).padStart(7)} / ${r.warm.toFixed(2).padStart(6)}  ${r.status}  ${String(r.fetches).padStart(3)}  ${decodeURIComponent(r.target)}`,
    );
  return lines;
}

/** Per mix and class: requests, first max / p99 / p50, warm max, over nothing (the caller prints the ceiling). */
function groupReport(results: readonly FreshResult[], groups: readonly string[]): string[] {
  const by = new Map<string, FreshResult[]>();
  results.forEach((r, i) => {
    const group = groups[i] ?? "";
    if (r.failure === undefined) (by.get(group) ?? by.set(group, []).get(group))?.push(r);
  });
  const width = Math.max(5, ...[...by.keys()].map((g) => g.length));
  const lines = ["", `${"class".padEnd(width)}      n  first max    p99    p50  warm max`];
  for (const [group, list] of by) {
    const firsts = list.map((r) => r.first);
    lines.push(
      `${group.padEnd(width)}  ${String(list.length).padStart(5)}  ${Math.max(...firsts)
        .toFixed(2)
        .padStart(
          9,
        )}  ${percentile(firsts, 99).toFixed(2).padStart(5)}  ${percentile(firsts, 50).toFixed(2).padStart(5)}  ${Math.max(
        ...list.map((r) => r.warm),
      )
        .toFixed(2)
        .padStart(8)}`,
    );
  }
  return lines;
}

const statusCounts = (results: readonly FreshResult[]) => {
  const counts = new Map<number, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n}× ${status}`)
    .join(", ");
};

/** The issue's own examples: a packed page, a list, a Localities pattern, search and filters. */
export const EXAMPLE_TARGETS = [
  "/de/Streets?locality=Berlin&page=3&pageSize=17",
  "/de/FederalStates",
  "/de/Localities?name=Frankfurt",
  "/de/FullTextSearch?searchTerm=berlin",
  `/de/FullTextSearch?searchTerm=${encodeURIComponent("Hauptstraße München")}`,
  "/de/Streets?name=Lindenallee&locality=Berlin",
  `/de/Streets?name=${encodeURIComponent("e$")}`,
];

async function main(): Promise<void> {
  const { values: args, positionals } = parseArgs({
    options: {
      out: { type: "string" },
      targets: { type: "string" },
      mix: { type: "string", multiple: true },
      source: { type: "string", default: "/tmp/national-streets.csv" },
      seed: { type: "string", default: "13" },
      limit: { type: "string" },
      ceiling: { type: "string", default: "7" },
      jobs: { type: "string", default: "1" },
      repeat: { type: "string", default: "1" },
      warm: { type: "string", default: "3" },
      checkout: { type: "string" },
      overhead: { type: "boolean", default: false },
      json: { type: "string" },
      "node-flags": { type: "string" },
      "node-responses": { type: "boolean", default: false },
      deopts: { type: "boolean", default: false },
    },
    allowPositionals: true,
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
  });
  if (args.out === undefined) throw new Error("--out DIR (a build) is required");
  // Each target with the mix and class it came from (explicit paths: "given").
  const limit = args.limit === undefined ? Infinity : Number(args.limit);
  let targets: { group: string; path: string }[] = [
    ...positionals,
    ...(args.targets === undefined
      ? []
      : (JSON.parse(readFileSync(args.targets, "utf8")) as string[])),
  ]
    .slice(0, limit)
    .map((path) => ({ group: "given", path }));
  if (args.mix !== undefined) {
    const { mixTargets } = await import("./search-mixes.ts");
    const taken = new Map<string, number>();
    for (const t of await mixTargets(args.mix, resolve(args.source), Number(args.seed))) {
      taken.set(t.mix, (taken.get(t.mix) ?? 0) + 1);
      if ((taken.get(t.mix) ?? 0) <= limit)
        targets.push({ group: `${t.mix} / ${t.class}`, path: t.path });
    }
  }
  if (targets.length === 0) targets = EXAMPLE_TARGETS.map((path) => ({ group: "examples", path }));
  const options: FreshOptions = {
    jobs: Number(args.jobs),
    repeat: Number(args.repeat),
    warm: Number(args.warm),
    ...(args.checkout === undefined ? {} : { checkout: args.checkout }),
    nodeResponses: args["node-responses"],
    deopts: args.deopts,
    ...(args["node-flags"] === undefined
      ? {}
      : { nodeFlags: args["node-flags"].split(/\s+/).filter(Boolean) }),
  };
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const loadBefore = load();
  const results = await freshFirstRequests(
    args.out,
    targets.map((t) => t.path),
    options,
  );
  const ceiling = Number(args.ceiling);
  const lines = freshReport(results, ceiling);
  if (args.mix !== undefined)
    lines.push(
      ...groupReport(
        results,
        targets.map((t) => t.group),
      ),
    );
  if (args.deopts)
    lines.push(
      "",
      ...deoptCensus(results.filter((r) => r.deopts !== undefined).map((r) => r.deopts ?? [])),
      "",
      ...compileCensus(
        results.filter((r) => r.compiles !== undefined).map((r) => r.compiles ?? []),
      ),
    );
  if (args.overhead) {
    const empty = await freshFirstRequests(args.out, ["/de/FederalStates"], {
      ...options,
      nullWorker: true,
      repeat: Math.max(3, options.repeat ?? 1),
    });
    const e = empty[0];
    if (e !== undefined)
      lines.push(
        `harness overhead (a Worker answering an empty 200, ${e.firsts.length} processes): first ${e.first.toFixed(3)} ms (${Math.min(...e.firsts).toFixed(3)}–${Math.max(...e.firsts).toFixed(3)}), warm ${e.warm.toFixed(3)} ms`,
      );
  }
  lines.push(
    `(${args.checkout ?? ROOT} over ${resolve(args.out)}; Node ${nodeVersion()}; load average ${loadBefore} before, ${load()} after; --jobs ${options.jobs}, --repeat ${options.repeat}, --warm ${options.warm})`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  if (args.json !== undefined)
    writeFileSync(args.json, JSON.stringify({ ceiling, results }, null, 1));
  const failures = results.filter((r) => r.failure !== undefined).length;
  if (failures > 0 || results.some((r) => r.first > ceiling || r.warm > ceiling))
    process.exitCode = 1;
}

const nodeVersion = () => execFileSync(nodeBinary(), ["--version"], { encoding: "utf8" }).trim();

if (import.meta.main) await main();
