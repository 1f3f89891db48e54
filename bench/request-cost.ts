/**
 * `npm run bench:cost -- [--dir DIR] [--requests N]`: what one API request costs the Worker, in
 * CPU time, measured in-process on a build (default: the embedded data built into a temporary
 * directory). The Worker's handler runs against a stand-in for the static-assets binding that
 * hands out the build's files from memory, so the figure is the Worker's own work (routing, query
 * parsing, the index lookup, cutting a page, the response), which is what Cloudflare bills as CPU
 * time; reading the files is the asset server's. The clock is the main thread's
 * (process.threadCpuUsage), the thread that runs the Worker's code, as Cloudflare bills an
 * isolate's own thread: the whole process's clock adds V8's background threads, and counts them
 * in scheduler ticks. Before each timed request the event loop turns once, untimed
 * (bench/event-loop-turn.ts). Prints per request kind the median, 99th percentile and maximum,
 * warm (files and index shards already read by the isolate), and the first request of a new
 * isolate (which reads the route table and a shard).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildToDirectory } from "../generator/build/build.ts";
import { createHandler } from "../generator/edge/handler.ts";
import { eventLoopTurn } from "./event-loop-turn.ts";
import { mainCpu } from "./main-cpu.ts";
import { memoryAssets } from "./memory-assets.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: { dir: { type: "string" }, requests: { type: "string", default: "2000" } },
});
const requests = Number(args.requests);

let work: string | undefined;
let dir = args.dir === undefined ? undefined : resolve(args.dir);
if (dir === undefined) {
  work = mkdtempSync(join(tmpdir(), "plz-cost-"));
  dir = join(work, "dist");
  process.stderr.write("building the embedded data …\n");
  await buildToDirectory(
    {
      root: ROOT,
      sources: {},
      maxFiles: 100_000,
      headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
      guards: { baseline: "none" },
    },
    dir,
  );
}
const root = dir;

const assets = memoryAssets(root, { etag: '"bench"' });

/** Name, request, the status it must get. */
const kinds: [string, string, number][] = [
  ["page file (Berlin, size 50, page 100)", "/de/Streets?locality=Berlin&page=100", 200],
  [
    "page cut from size 50 (size 7, page 1000)",
    "/de/Streets?locality=Berlin&pageSize=7&page=1000",
    200,
  ],
  [
    "CSV page (size 13, page 77)",
    "/de/Streets?locality=berlin&pageSize=13&page=77&format=csv",
    200,
  ],
  ["view inlined in its index (a district)", "/de/Districts/09189/Municipalities", 200],
  ["filtered localities", "/de/Localities?postalCode=01920", 200],
  ["unpaged list", "/ch/Cantons", 200],
  ["400 (pageSize=51)", "/de/Streets?locality=Berlin&pageSize=51", 400],
  ["404", "/de/Nowhere", 404],
];

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (value: number) => `${value.toFixed(3)} ms`;

async function cpuOf(
  handler: (request: Request) => Promise<Response>,
  path: string,
  status: number,
): Promise<number> {
  await eventLoopTurn(); // untimed: tasks V8 posted during the previous request run here
  const before = mainCpu();
  const response = await handler(new Request(`https://bench${path}`));
  await response.arrayBuffer();
  const used = mainCpu() - before;
  if (response.status !== status)
    throw new Error(`${path}: status ${response.status}, expected ${status}`);
  return used;
}

try {
  const warm = createHandler(assets);
  const rows = [
    `Worker main-thread CPU per request, in-process, ${requests} requests per kind, each after an untimed turn of the event loop (${root})`,
    `${"request".padEnd(44)} ${"p50".padStart(10)} ${"p99".padStart(10)} ${"max".padStart(10)}`,
  ];
  for (const [name, path, status] of kinds) {
    for (let i = 0; i < 50; i++) await cpuOf(warm, path, status); // the isolate has read this request's files
    const samples: number[] = [];
    for (let i = 0; i < requests; i++) samples.push(await cpuOf(warm, path, status));
    samples.sort((a, b) => a - b);
    rows.push(
      `${name.padEnd(44)} ${ms(percentile(samples, 50)).padStart(10)} ${ms(percentile(samples, 99)).padStart(10)} ${ms(samples.at(-1) ?? 0).padStart(10)}`,
    );
  }
  const cold: number[] = [];
  for (let i = 0; i < 200; i++)
    cold.push(await cpuOf(createHandler(assets), kinds[0]?.[1] ?? "/", 200));
  cold.sort((a, b) => a - b);
  rows.push(
    `${"first request of a new isolate (a page file)".padEnd(44)} ${ms(percentile(cold, 50)).padStart(10)} ${ms(percentile(cold, 99)).padStart(10)} ${ms(cold.at(-1) ?? 0).padStart(10)}`,
  );
  process.stdout.write(`${rows.join("\n")}\n`);
} finally {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
}
