/**
 * `npm run bench`: the synthetic national street list (national-streets.ts) built three ways in one
 * invocation, so that the ratios are measured on the same machine state, and one table:
 *
 *   - today's layout: the project before packed storage (commit BASELINE_COMMIT, checked out into
 *     a temporary git worktree with this checkout's node_modules), default budget;
 *   - packed storage with the default budget (100,000 files, a paid account);
 *   - packed storage with `--max-files 20000` (a free account).
 *
 * Per layout: build wall, CPU, peak RSS and phases (each build in its own process); files and
 * bytes; the machine's write floor for the same files; the Worker's CPU per request in-process
 * (≥ 10,000 requests each for a size-50 and a size-10 page of random localities), the asset
 * fetches of a warm request and whether they were page files or packed chunks; the first request
 * of a new isolate (cold start) on the largest and the smallest locality; and end to end through
 * the local runtime for the free-account build.
 *
 *   npm run bench -- [--source FILE] [--requests N] [--e2e N] [--skip-baseline] [--compare REV] [--builds-only]
 *
 * `--compare REV` adds the two packed builds made by commit REV (a worktree of it beside the
 * builds), for a before/after of the build figures in one run; `--builds-only` measures the builds
 * alone (wall, CPU, peak RSS, phases, files), not the requests. Each build's wall time is its whole
 * process, start to exit, as `npm run build` takes it; the load average is printed with the table.
 *
 * Every output is kept until the run ends (about 2 GB a 100,000-file build), none deleted between
 * builds: on ext4 without a journal the inode allocator passes over every inode freed in the last
 * few minutes (up to five), so a build after the deletion of 100,000 files spends seconds to tens
 * of seconds more in the kernel whichever code it runs (docs/OPERATIONS.md, "Why the
 * 100,000-file builds above grew run over run").
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseFile } from "fast-csv";
import { startWranglerDev } from "../generator/serve/wrangler-dev.ts";
import { jsonBuild } from "./build-invocation.ts";
import { eventLoopTurn } from "./event-loop-turn.ts";
import { ensureNationalStreets } from "./national-streets.ts";

/** The last commit before packed storage: the layout of one file per page and per locality download. */
const BASELINE_COMMIT = "cd0ba45";
const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    requests: { type: "string", default: "10000" },
    e2e: { type: "string", default: "300" },
    "skip-baseline": { type: "boolean", default: false },
    compare: { type: "string" },
    "builds-only": { type: "boolean", default: false },
  },
});
const source = resolve(args.source);
const requests = Number(args.requests);
const e2eRequests = Number(args.e2e);
const work = mkdtempSync(join(tmpdir(), "plz-bench-national-"));

type Handler = (request: Request) => Promise<Response>;
interface Layout {
  readonly name: string;
  /** The project checkout that builds it. */
  readonly root: string;
  readonly maxFiles: number;
  /** The Worker's handler over an assets binding, as that checkout's worker.ts makes it. */
  readonly handler: (assets: { fetch(request: Request): Promise<Response> }) => Promise<Handler>;
  /** Only the build is measured. */
  readonly buildOnly?: boolean;
}
interface BuildJson {
  views: Record<string, number>;
  pageSizes: Record<string, number[]>;
  timingsMs: Record<string, number>;
  cpuMs: number;
  peakRssMiB: number;
}

await ensureNationalStreets(source);
const localities = await readLocalities();
const inputRows = localities.reduce((sum, l) => sum + l.total, 0);

const layouts: Layout[] = [];
if (args.compare !== undefined)
  for (const maxFiles of [100_000, 20_000])
    layouts.push({
      name: `${args.compare}, ${maxFiles.toLocaleString("en")} files`,
      root: checkout(args.compare, "compare"),
      maxFiles,
      handler: currentHandler,
      buildOnly: true,
    });
if (!args["skip-baseline"])
  layouts.push({
    name: `today (${BASELINE_COMMIT})`,
    root: checkout(BASELINE_COMMIT, "baseline"),
    maxFiles: 100_000,
    handler: baselineHandler,
  });
layouts.push({
  name: "packed, 100,000 files",
  root: ROOT,
  maxFiles: 100_000,
  handler: currentHandler,
});
layouts.push({
  name: "packed, 20,000 files",
  root: ROOT,
  maxFiles: 20_000,
  handler: currentHandler,
});

const table = new Map<string, string[]>();
const cell = (row: string, column: number, value: string) => {
  const cells = table.get(row) ?? layouts.map(() => "–");
  cells[column] = value;
  table.set(row, cells);
  process.stderr.write(`${layouts[column]?.name}: ${row}: ${value}\n`);
};

let freeAccountOut: string | undefined;
try {
  for (const [column, layout] of layouts.entries()) {
    const out = join(work, `dist-${column}`);
    const started = performance.now();
    const summary = await runBuild(layout, out);
    const wallMs = performance.now() - started;
    const t = summary.timingsMs;
    cell(
      "input rows / localities (views)",
      column,
      `${inputRows.toLocaleString("en")} / ${(summary.views["de.streets"] ?? 0).toLocaleString("en")}`,
    );
    cell(
      "build wall / CPU",
      column,
      `${(wallMs / 1000).toFixed(1)} s / ${(summary.cpuMs / 1000).toFixed(1)} s`,
    );
    cell("build peak RSS", column, `${summary.peakRssMiB} MiB`);
    cell(
      "phases read / sort / render / write",
      column,
      ["read", "sort", "render", "write"]
        .map((p) => `${((t[p] ?? 0) / 1000).toFixed(1)}`)
        .join(" / ") + " s",
    );

    const files = walk(out);
    const bytes = files.reduce((sum, f) => sum + f.size, 0);
    cell(
      "files / bytes",
      column,
      `${files.length.toLocaleString("en")} / ${(bytes / 2 ** 20).toFixed(0)} MiB`,
    );
    cell(
      "largest file",
      column,
      `${(Math.max(...files.map((f) => f.size)) / 1024).toFixed(0)} KiB`,
    );
    cell(
      "page sizes as files (de.streets)",
      column,
      describeSizes(summary.pageSizes["de.streets"] ?? []),
    );
    if (layout.buildOnly === true || args["builds-only"]) continue;
    const floorMs = writeFloor(files, join(work, `floor-${column}`));
    cell(
      "write phase / write floor",
      column,
      `${((t["write"] ?? 0) / 1000).toFixed(1)} s / ${(floorMs / 1000).toFixed(1)} s = ${((t["write"] ?? 0) / floorMs).toFixed(2)}×`,
    );

    const assets = memoryAssets(out);
    const handler = await layout.handler(assets);
    for (const size of [50, 10]) {
      const cost = await workerCost(handler, assets, localities, size);
      cell(
        `Worker CPU / request, size ${size} (${requests.toLocaleString("en")}): Worker / + stand-in / process`,
        column,
        `${cost.workerMs.toFixed(3)} / ${cost.threadMs.toFixed(3)} / ${cost.processMs.toFixed(3)} ms (${cost.kind})`,
      );
      cell(`asset fetches / warm request, size ${size}`, column, `${cost.fetches.toFixed(2)}`);
    }
    const largest = localities[0];
    const smallest = localities.at(-1);
    if (largest !== undefined && smallest !== undefined) {
      // One after the other: run side by side, each sample's CPU would include the other's.
      const cold: number[] = [];
      for (const locality of [largest, smallest])
        cold.push(await coldStart(layout, out, locality.name));
      cell(
        "cold start Worker CPU, largest / smallest locality",
        column,
        cold.map((ms) => `${ms.toFixed(1)} ms`).join(" / "),
      );
    }
    if (layout.maxFiles === 20_000 && layout.root === ROOT) freeAccountOut = out;
  }

  if (freeAccountOut !== undefined && e2eRequests > 0) {
    const column = layouts.length - 1;
    const [biggest] = localities;
    const server = await startWranglerDev(freeAccountOut);
    try {
      const name = encodeURIComponent(biggest?.name ?? "");
      const total = biggest?.total ?? 0;
      for (const [label, path] of [
        ["page 1, size 50", `/de/Streets?locality=${name}&pageSize=50`],
        [
          "last page, size 50",
          `/de/Streets?locality=${name}&pageSize=50&page=${Math.ceil(total / 50)}`,
        ],
        [
          "deep page, size 10",
          `/de/Streets?locality=${name}&pageSize=10&page=${Math.ceil(total / 10) - 1}`,
        ],
      ] as const) {
        const latencies: number[] = [];
        for (let i = 0; i < e2eRequests + 20; i++) {
          const t0 = performance.now();
          const response = await fetch(`${server.origin}${path}`);
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
          if (i >= 20) latencies.push(performance.now() - t0);
        }
        latencies.sort((a, b) => a - b);
        const at = (q: number) =>
          latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
        cell(
          `e2e wrangler dev, ${label}: p50 / p99 (${e2eRequests})`,
          column,
          `${at(0.5).toFixed(2)} / ${at(0.99).toFixed(2)} ms`,
        );
      }
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const names = [
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
  ...layouts.map((l) => l.name),
];
const rows = [names, ...[...table].map(([name, cells]) => [name, ...cells])];
const widths = names.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
process.stdout.write(
  `\n${rows.map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ")).join("\n")}\n`,
);
process.exit(0);

/** A git worktree of the baseline commit beside the temporary builds, sharing this checkout's node_modules. */
function checkout(commit: string, name: string): string {
  const dir = join(work, name);
  if (existsSync(dir)) return dir;
  execFileSync("git", ["-C", ROOT, "worktree", "add", "--detach", "--force", dir, commit], {
    stdio: "ignore",
  });
  process.on("exit", () =>
    execFileSync("git", ["-C", ROOT, "worktree", "remove", "--force", dir], { stdio: "ignore" }),
  );
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

async function currentHandler(assets: {
  fetch(input: Request | string): Promise<Response>;
}): Promise<Handler> {
  const { createHandler } = (await import("../generator/edge/handler.ts")) as {
    createHandler: (a: typeof assets) => Handler;
  };
  return createHandler(assets);
}

/** The baseline's worker.ts: the resources and common headers compiled in, the handler over them. */
async function baselineHandler(assets: {
  fetch(request: Request): Promise<Response>;
}): Promise<Handler> {
  const root = join(work, "baseline");
  const { createHandler } = (await import(join(root, "generator/edge/handler.ts"))) as {
    createHandler: (resources: unknown, common: unknown, a: typeof assets) => Handler;
  };
  const { RESOURCES } = (await import(join(root, "generator/resources/index.ts"))) as {
    RESOURCES: unknown;
  };
  const { commonHeaders } = (await import(join(root, "generator/routes/headers.ts"))) as {
    commonHeaders: (template: string) => unknown;
  };
  return createHandler(
    RESOURCES,
    commonHeaders(readFileSync(join(root, "_headers"), "utf8")),
    assets,
  );
}

function runBuild(layout: Layout, out: string): Promise<BuildJson> {
  // Both layouts run as this tree's `npm run build` runs (heap limits, malloc settings), from their own checkout.
  return jsonBuild<BuildJson>(source, out, ["--max-files", String(layout.maxFiles)], layout.root);
}

/** Every locality of the input with its number of streets, largest first (as the API folds names: NFC, trimmed, lower case). */
async function readLocalities(): Promise<{ name: string; total: number }[]> {
  const counts = new Map<string, { name: string; total: number }>();
  await new Promise<void>((done, fail) => {
    parseFile<Record<string, string>, Record<string, string>>(source, { headers: true })
      .on("data", (row: Record<string, string>) => {
        const name = row["Locality"] ?? "";
        const key = name.normalize("NFC").trim().toLowerCase();
        const entry = counts.get(key) ?? { name, total: 0 };
        entry.total++;
        counts.set(key, entry);
      })
      .on("error", fail)
      .on("end", () => done());
  });
  return [...counts.values()].sort((a, b) => b.total - a.total);
}

/** The built files from memory, counting what is fetched: the asset server's work is not the Worker's. */
function memoryAssets(out: string) {
  const cache = new Map<string, Buffer | null>();
  const fetched: string[] = [];
  const cpu = { microseconds: 0 };
  return {
    fetched,
    /** Main-thread CPU spent in this stand-in (work of the asset service on Cloudflare, not of the Worker). */
    cpu,
    fetch: async (request: Request): Promise<Response> => {
      const before = mainThreadMicros();
      const path = decodeURIComponent(new URL(request.url).pathname);
      fetched.push(path);
      let body = cache.get(path);
      if (body === undefined) {
        const file = join(out, path);
        body = existsSync(file) && statSync(file).isFile() ? readFileSync(file) : null;
        cache.set(path, body);
      }
      const response =
        body === null
          ? new Response(null, { status: 404 })
          : new Response(new Uint8Array(body), {
              headers: {
                "content-type": "application/octet-stream",
                "content-length": String(body.byteLength),
              },
            });
      cpu.microseconds += mainThreadMicros() - before;
      return response;
    },
  };
}

/**
 * CPU per request three ways: the Worker's (main thread, less the asset stand-in's share), the main
 * thread's, and the whole process's. Cloudflare bills the isolate's thread; the process figure also
 * holds V8's background threads (concurrent GC marking, compilation), which on this 2-core machine
 * ran beside the request (in one run 0.42 ms process vs 0.20 ms main thread, 0.26 ms wall).
 */
async function workerCost(
  handler: Handler,
  assets: ReturnType<typeof memoryAssets>,
  localities: readonly { name: string; total: number }[],
  size: number,
) {
  let seed = 42;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const paths = Array.from({ length: 2000 }, () => {
    const { name, total } = localities[Math.floor(random() * localities.length)] ?? {
      name: "",
      total: 0,
    };
    return `/de/Streets?locality=${encodeURIComponent(name)}&pageSize=${size}&page=${1 + Math.floor(random() * Math.max(1, Math.ceil(total / size)))}`;
  });
  for (const path of paths) await (await handler(new Request(`http://bench${path}`))).arrayBuffer(); // warm: shards read once per isolate
  assets.fetched.length = 0;
  assets.cpu.microseconds = 0;
  const processBefore = process.cpuUsage();
  const threadBefore = mainThreadMicros();
  for (let i = 0; i < requests; i++) {
    const path = paths[i % paths.length] ?? "";
    const response = await handler(new Request(`http://bench${path}`));
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    await response.arrayBuffer();
  }
  const thread = mainThreadMicros() - threadBefore;
  const all = process.cpuUsage(processBefore);
  const packed = assets.fetched.filter((p) => p.startsWith("/_c/")).length;
  const kind =
    packed === 0
      ? "page files"
      : packed === assets.fetched.length
        ? "packed"
        : `${Math.round((100 * packed) / assets.fetched.length)}% packed`;
  const perRequest = (microseconds: number) => microseconds / 1000 / requests;
  return {
    workerMs: perRequest(thread - assets.cpu.microseconds),
    threadMs: perRequest(thread),
    processMs: perRequest(all.user + all.system),
    fetches: assets.fetched.length / requests,
    kind,
  };
}

/** The Worker's CPU (main thread, less the asset stand-in's reads) for a new isolate's first request (route table and an index shard read, nothing cached), median of 20. */
async function coldStart(layout: Layout, out: string, locality: string): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    const assets = memoryAssets(out);
    const handler = await layout.handler(assets);
    await eventLoopTurn(); // untimed: tasks V8 posted during the previous sample run here
    const before = mainThreadMicros();
    await (
      await handler(new Request(`http://bench/de/Streets?locality=${encodeURIComponent(locality)}`))
    ).arrayBuffer();
    samples.push((mainThreadMicros() - before - assets.cpu.microseconds) / 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[10] ?? NaN;
}

/**
 * The main thread's CPU time in microseconds. `threadCpuUsage` alone advances in scheduler ticks
 * (4 ms here); reading the process's usage first brings the thread's runtime up to date (Linux
 * accounts the running task on that call), which makes it exact.
 */
function mainThreadMicros(): number {
  process.cpuUsage();
  const { user, system } = process.threadCpuUsage();
  return user + system;
}

/** The same number of files of the same sizes in the same directories, written as plainly as Node can (into `dir`, kept until the run ends). */
function writeFloor(files: readonly { path: string; size: number }[], dir: string): number {
  const started = performance.now();
  const made = new Set<string>();
  for (const file of files) {
    const target = join(dir, file.path);
    const parent = dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(target, Buffer.alloc(file.size, 97));
  }
  return performance.now() - started;
}

function walk(root: string): { path: string; size: number }[] {
  const found: { path: string; size: number }[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else found.push({ path, size: statSync(join(root, path)).size });
    }
  };
  visit("");
  return found;
}

function describeSizes(list: readonly number[]): string {
  return list.length === 50 ? "all 1–50" : list.length === 0 ? "none" : list.join(", ");
}
