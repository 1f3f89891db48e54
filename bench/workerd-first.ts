/**
 * `npm run bench:workerd`: each request as a new isolate's first, in workerd, the runtime
 * Cloudflare runs Workers on. bench:fresh (fresh-isolate.ts) times the Worker's own CPU in Node;
 * this runs the same bundle (as bench:fresh makes it) in workerd itself, with what the Worker's
 * side of every asset fetch costs included, and V8's collections traced.
 *
 * A new isolate on Cloudflare starts in a process that has run other isolates before: the
 * runtime's own native code and the asset server are warm. So per batch of targets, one workerd
 * process holds a Worker (an isolate) per target and one more, each loaded and warmed up at
 * startup (generator/edge/warm-up.ts) and on a port of its own; the extra one answers every
 * target first, untimed; then each target's isolate answers it as its first request, and again
 * (warm). The assets come from a second workerd (a `disk` service over DIST, started once) over
 * HTTP on the loopback, so that serving them is not on the measured thread.
 *
 * V8 runs with Cloudflare's flags (bench/cloudflare-v8.ts: every compile on the request's thread,
 * as Cloudflare bills it; workerd's defaults compile on other threads). Timed: the measured
 * process's main thread on-CPU time around each request, from
 * /proc/PID/task/TID/schedstat (Linux only), every thread's beside it (V8's background
 * and collections). The collections V8 printed (`v8Flags = ["--trace-gc"]`) from a request's
 * start until shortly after its answer are counted by kind. No request is retried; a failed batch
 * or a 5xx is counted and the exit code is 1.
 *
 *   npx tsx bench/workerd-first.ts --out DIST [--repeat N] [--batch N] [--port N] [--checkout DIR]
 *     [--profile DIR] PATH …  (`--checkout`: the Worker of another version, for an A/B;
 *     `--profile`: a CPU profile of each first request through workerd's inspector, written to
 *     DIR for bench/profile-summary.ts; the inspector attached, its timings are not the others';
 *     `--v8-flags="…"`: more V8 flags for the measured workerd, after Cloudflare's; with
 *     `--trace-opt` among them, which functions each first request compiled, for how long:
 *     bench/compile-census.ts; `--calibrate` instead of paths: workerd's own cost per request,
 *     per file and per KiB, bench/workerd-calibration.ts)
 *     (ports N + 1 to N + batch + 3)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { CLOUDFLARE_V8_FLAGS } from "./cloudflare-v8.ts";
import { compileCensus, compilesIn, type Compile } from "./compile-census.ts";
import { bundleWorker } from "./fresh-isolate.ts";
import { calibrationTargets, fitCost, type CalibrationTarget } from "./workerd-calibration.ts";
import { percentile } from "./pass-stats.ts";

const ROOT = resolve(import.meta.dirname, "..");
const WORKERD = join(ROOT, "node_modules/workerd/bin/workerd");

interface FirstRequest {
  readonly status: number;
  /** Main-thread on-CPU ms of the first request, and of every thread. */
  readonly main: number;
  readonly all: number;
  /** Main-thread ms of the second request. */
  readonly warm: number;
  /** Collections V8 printed during the first request: kind → count. */
  readonly collections: ReadonlyMap<string, number>;
  /** Compiles V8 printed during the first request (with `--v8-flags=--trace-opt`). */
  readonly compiles: readonly Compile[];
}

/** On-CPU nanoseconds of each thread of `pid` (schedstat's first field). */
function threadTimes(pid: number): Map<number, number> {
  const times = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [ns = "0"] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ");
      times.set(Number(tid), Number(ns));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return times;
}

const total = (times: Map<number, number>) => [...times.values()].reduce((a, b) => a + b, 0);

/** The asset server: DIST as workerd's disk service, on `port`. */
const assetsConfig = (
  dist: string,
  port: number,
) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "assets", disk = (path = ${JSON.stringify(dist)}, writable = false)) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "assets") ],
);
`;

/**
 * The measured process: `isolates` Workers of the same bundle (each service a V8 isolate of its
 * own, loaded and warmed up at startup), Worker i on `port + 2 + i`.
 */
function config(
  bundleName: string,
  port: number,
  isolates: number,
  v8Flags: readonly string[],
): string {
  const compatibilityDate = /"compatibility_date":\s*"([^"]+)"/.exec(
    readFileSync(join(ROOT, "wrangler.jsonc"), "utf8"),
  )?.[1];
  if (compatibilityDate === undefined)
    throw new Error("wrangler.jsonc names no compatibility_date");
  const numbers = Array.from({ length: isolates }, (_, i) => i);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
${numbers.map((i) => `    (name = "w${i}", worker = .worker),`).join("\n")}
    (name = "assets", external = (address = "127.0.0.1:${port + 1}", http = ())),
  ],
  sockets = [
${numbers.map((i) => `    (name = "s${i}", address = "127.0.0.1:${port + 2 + i}", http = (), service = "w${i}"),`).join("\n")}
  ],
  v8Flags = ${JSON.stringify(["--trace-gc", ...CLOUDFLARE_V8_FLAGS, ...v8Flags])},
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.mjs", esModule = embed ${JSON.stringify(bundleName)}) ],
  compatibilityDate = "${compatibilityDate}",
  bindings = [ (name = "ASSETS", service = "assets") ],
);
`;
}

async function listening(port: number, proc: ChildProcess): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    if (proc.exitCode !== null) throw new Error(`workerd exited with ${proc.exitCode}`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), done(true)));
      socket.once("error", () => done(false));
    });
    if (open) return;
    await sleep(20);
  }
  throw new Error(`workerd did not listen on ${port}`);
}

/** Until the process's CPU moves less than 0.1 ms in 100 ms: startup and its compiles are done. */
async function settled(pid: number): Promise<void> {
  let before = total(threadTimes(pid));
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    const now = total(threadTimes(pid));
    if (now - before < 100_000) return;
    before = now;
  }
}

function get(port: number, agent: Agent, path: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, agent }, (response) => {
      response.resume();
      response.on("end", () => done(response.statusCode ?? 0));
    });
    req.on("error", fail);
    req.end();
  });
}

/** `workerd serve CONFIG` in `dir`, in a process group of its own, its output collected. */
function workerd(
  dir: string,
  configFile: string,
  output: string[],
  extra: readonly string[] = [],
): ChildProcess {
  // Its stdout to a pipe is block-buffered: stdbuf (coreutils) makes V8's trace arrive as printed.
  const proc = spawn("stdbuf", ["-o0", "-e0", WORKERD, "serve", configFile, ...extra], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  proc.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  proc.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  return proc;
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.pid !== undefined && proc.exitCode === null) process.kill(-proc.pid, "SIGTERM");
  await new Promise((done) => (proc.exitCode !== null ? done(null) : proc.once("exit", done)));
}

/** A CPU profile of one isolate through workerd's inspector (the DevTools protocol). */
async function startProfile(url: string): Promise<() => Promise<unknown>> {
  const socket = new WebSocket(url);
  await new Promise((done, fail) => {
    socket.addEventListener("open", done, { once: true });
    socket.addEventListener("error", () => fail(new Error(`no inspector at ${url}`)), {
      once: true,
    });
  });
  const waiting = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  let next = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((done) => {
      const id = ++next;
      waiting.set(id, done);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 50 });
  await call("Profiler.start");
  return async () => {
    const { profile } = (await call("Profiler.stop")) as { profile: unknown };
    socket.close();
    return profile;
  };
}

const delta = (a: Map<number, number>, b: Map<number, number>, tid?: number) =>
  [...b].reduce(
    (sum, [t, ns]) => (tid === undefined || t === tid ? sum + ns - (a.get(t) ?? 0) : sum),
    0,
  ) / 1e6;

/**
 * One workerd for `paths`: isolate 0 first answers every path (the process's own first use of
 * its code and the asset server's of the files: what a running Cloudflare process has behind
 * it), then isolate i + 1 answers path i as its first request, and again.
 */
async function batch(
  dir: string,
  port: number,
  paths: readonly string[],
  profileDir: string | undefined,
): Promise<FirstRequest[]> {
  const output: string[] = [];
  const inspector = port + 3 + paths.length;
  const proc = workerd(
    dir,
    "config.capnp",
    output,
    profileDir === undefined ? [] : [`--inspector-addr=127.0.0.1:${inspector}`],
  );
  const pid = proc.pid;
  if (pid === undefined) throw new Error("workerd did not start");
  const agents = paths.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const primer = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i <= paths.length; i++) await listening(port + 2 + i, proc);
    await settled(pid);
    for (const path of paths) await get(port + 2, primer, path);
    await settled(pid);
    const results: FirstRequest[] = [];
    for (const [i, path] of paths.entries()) {
      const agent = agents[i] as Agent;
      const stopProfile =
        profileDir === undefined
          ? undefined
          : await startProfile(`ws://127.0.0.1:${inspector}/w${i + 1}`);
      const from = output.join("").length;
      const before = threadTimes(pid);
      const status = await get(port + 3 + i, agent, path);
      const after = threadTimes(pid);
      if (stopProfile !== undefined && profileDir !== undefined) {
        const name = `${i}-${path.replace(/[^\w=-]+/g, "_").slice(0, 80)}.cpuprofile`;
        writeFileSync(join(profileDir, name), JSON.stringify(await stopProfile()));
      }
      await sleep(200); // the trace of what ran during the request reaches the pipe
      const during = output.join("").slice(from);
      const warmBefore = threadTimes(pid);
      await get(port + 3 + i, agent, path);
      const warmAfter = threadTimes(pid);
      const collections = new Map<string, number>();
      for (const [, kind = ""] of during.matchAll(/\d+ ms: ([A-Za-z-]+)/g))
        collections.set(kind, (collections.get(kind) ?? 0) + 1);
      results.push({
        status,
        main: delta(before, after, pid),
        all: delta(before, after),
        warm: delta(warmBefore, warmAfter, pid),
        collections,
        compiles: compilesIn(during),
      });
    }
    return results;
  } finally {
    for (const agent of [primer, ...agents]) agent.destroy();
    await stop(proc);
  }
}

const median = (values: readonly number[]) => percentile(values, 50);

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      out: { type: "string" },
      repeat: { type: "string", default: "1" },
      batch: { type: "string", default: "20" },
      port: { type: "string", default: "8700" },
      checkout: { type: "string" },
      profile: { type: "string" },
      "v8-flags": { type: "string" },
      calibrate: { type: "boolean", default: false },
    },
    allowPositionals: true,
  });
  if (values.out === undefined || (positionals.length === 0 && !values.calibrate))
    throw new Error(
      "usage: workerd-first.ts --out DIST [--repeat N] [--batch N] [--port N] [--checkout DIR] [--profile DIR] [--v8-flags FLAGS] (PATH … | --calibrate)",
    );
  const dist = resolve(values.out);
  const calibration: CalibrationTarget[] = values.calibrate ? calibrationTargets(dist) : [];
  const targets = values.calibrate ? calibration.map((t) => t.path) : positionals;
  const port = Number(values.port);
  const repeat = Number(values.repeat);
  const size = Number(values.batch);
  const dir = mkdtempSync(join(tmpdir(), "plz-workerd-"));
  const v8Flags = (values["v8-flags"] ?? "").split(/\s+/).filter(Boolean);
  const profileDir = values.profile === undefined ? undefined : resolve(values.profile);
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
  const runs = new Map<string, FirstRequest[]>(targets.map((path) => [path, []]));
  let failures = 0;
  const assetOutput: string[] = [];
  let assets: ChildProcess | undefined;
  try {
    if (values.calibrate)
      await bundleWorker(ROOT, join(dir, "worker.mjs"), "bench/fetch-only-worker.ts");
    else await bundleWorker(resolve(values.checkout ?? ROOT), join(dir, "worker.mjs"));
    writeFileSync(join(dir, "assets.capnp"), assetsConfig(dist, port + 1));
    assets = workerd(dir, "assets.capnp", assetOutput);
    await listening(port + 1, assets);
    for (let round = 0; round < repeat; round++)
      for (let from = 0; from < targets.length; from += size) {
        const paths = targets.slice(from, from + size);
        writeFileSync(
          join(dir, "config.capnp"),
          config("worker.mjs", port, paths.length + 1, v8Flags),
        );
        try {
          const results = await batch(dir, port, paths, profileDir);
          results.forEach((result, i) => runs.get(paths[i] as string)?.push(result));
        } catch (error) {
          failures += paths.length;
          console.log(
            `batch failed (not retried): ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    console.log(
      "first main ms   all threads   warm main   collections in the first   status  request",
    );
    for (const [path, results] of runs) {
      if (results.length === 0) continue;
      const kinds = new Map<string, number>();
      for (const result of results)
        for (const [kind, n] of result.collections) kinds.set(kind, (kinds.get(kind) ?? 0) + n);
      if (results.some((result) => result.status >= 500 || result.status === 0)) failures++;
      const statuses = [...new Set(results.map((result) => result.status))].join("/");
      const cell = (pick: (result: FirstRequest) => number, width: number) =>
        median(results.map(pick)).toFixed(2).padStart(width);
      const collected = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(", ") || "none";
      console.log(
        `${cell((r) => r.main, 13)}   ${cell((r) => r.all, 11)}   ${cell((r) => r.warm, 9)}   ${collected.padEnd(24)}   ${statuses.padStart(6)}  ${path}`,
      );
    }
    if (v8Flags.includes("--trace-opt"))
      console.log(
        compileCensus([...runs.values()].flatMap((results) => results.map((r) => r.compiles))).join(
          "\n",
        ),
      );
    if (values.calibrate) {
      const rows = (pick: (result: FirstRequest) => number) =>
        calibration.flatMap((t) => (runs.get(t.path) ?? []).map((r) => ({ ...t, ms: pick(r) })));
      for (const [name, pick] of [
        ["first", (r: FirstRequest) => r.main],
        ["warm", (r: FirstRequest) => r.warm],
      ] as const) {
        const cost = fitCost(rows(pick));
        console.log(
          `workerd's own cost, ${name} requests (main thread, least squares over ${rows(pick).length}): ` +
            `${cost.perRequest.toFixed(2)} ms per request + ${cost.perFile.toFixed(3)} ms per file + ${(cost.perKib * 1000).toFixed(1)} µs per KiB`,
        );
      }
    }
    const firsts = [...runs.values()].flatMap((results) => results.map((r) => r.main));
    console.log(
      `first requests, main thread, p50 / max: ${median(firsts).toFixed(2)} / ${Math.max(...firsts).toFixed(2)} ms; ` +
        `medians of ${repeat} fresh isolates each; failures, not retried: ${failures}`,
    );
  } finally {
    if (assets !== undefined) await stop(assets);
    rmSync(dir, { recursive: true, force: true });
  }
  if (failures > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
