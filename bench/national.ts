/**
 * `npm run bench`: builds the synthetic national street list (../shared/bench) and prints one table:
 * build time, CPU, memory and phases; files and bytes; the machine's write floor for the same
 * files; the Worker's CPU per request in-process; end-to-end latency through wrangler dev.
 *
 *   npm run bench -- [--source FILE] [--out DIR] [--requests N] [--e2e N]
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { hasPageFiles } from "../generator/contract/address.ts";
import { decodeShard } from "../generator/contract/shard.ts";
import type { Assets } from "../generator/edge/assets.ts";
import { createHandler } from "../generator/edge/handler.ts";
import { startWranglerDev as startServer } from "../generator/serve/wrangler-dev.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    out: { type: "string", default: join(tmpdir(), "plz-bench-national") },
    requests: { type: "string", default: "10000" },
    e2e: { type: "string", default: "400" },
  },
});
const source = resolve(args.source);
const out = resolve(args.out);
const requests = Number(args.requests);
const e2eRequests = Number(args.e2e);
const rows: [string, string][] = [];
const row = (name: string, value: string) => {
  rows.push([name, value]);
  process.stderr.write(`${name}: ${value}\n`);
};

// 1. Input: the synthetic national file (generated once; never shipped as data).
if (!existsSync(source)) {
  process.stderr.write(`generating ${source}…\n`);
  execFileSync(process.execPath, [resolve(ROOT, "../shared/bench/make-national-streets.mjs"), "--out", source], { stdio: "inherit" });
}
const inputLines = readFileSync(source, "utf8").split("\n").filter((line) => line !== "").length - 1;

// 2. The build, in its own process (its peak RSS is its own).
rmSync(out, { recursive: true, force: true });
const started = performance.now();
const summary = await runBuild();
const wallMs = performance.now() - started;
const streetViews = summary.views["de.streets"] ?? 0;
row("input rows / localities", `${inputLines.toLocaleString("en")} / ${streetViews.toLocaleString("en")}`);
row("build wall / CPU", `${(wallMs / 1000).toFixed(1)} s / ${(summary.cpuMs / 1000).toFixed(1)} s`);
row("build peak RSS", `${summary.peakRssMiB} MiB`);
const t = summary.timingsMs;
row("phases read / sort / render / write", ["read", "sort", "render", "write"].map((p) => `${((t[p] ?? 0) / 1000).toFixed(1)} s`).join(" / "));

// 3. What was written.
const files = walk(out);
const bytes = files.reduce((sum, f) => sum + f.size, 0);
const largest = Math.max(...files.map((f) => f.size));
row("files / bytes", `${files.length.toLocaleString("en")} / ${(bytes / 2 ** 20).toFixed(0)} MiB (largest file ${(largest / 1024).toFixed(0)} KiB)`);
row("page sizes as files (de.streets)", describeSizes(summary.pageSizes["de.streets"] ?? []));

// 4. The write floor: the same number of files of the same sizes in the same directories, written
// as plainly as Node can (one mkdir per directory, writeFileSync per file).
const floorDir = mkdtempSync(join(tmpdir(), "plz-floor-"));
const floorStarted = performance.now();
const made = new Set<string>();
for (const file of files) {
  const target = join(floorDir, file.path);
  const dir = dirname(target);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  writeFileSync(target, Buffer.alloc(file.size, 97));
}
const floorMs = performance.now() - floorStarted;
rmSync(floorDir, { recursive: true, force: true });
row("write phase / write floor", `${((t["write"] ?? 0) / 1000).toFixed(1)} s / ${(floorMs / 1000).toFixed(1)} s = ${((t["write"] ?? 0) / floorMs).toFixed(2)}×`);

// 5. The Worker in-process, with a fake ASSETS binding serving the built files from memory.
const shards = readdirSync(join(out, "_i/de.streets")).map((name) => decodeShard(readFileSync(join(out, "_i/de.streets", name), "utf8")));
const sizes = shards[0]?.sizes ?? new Set<number>();
const entries = shards.flatMap((shard) => [...shard.entries].map(([key, entry]) => [key, entry.total] as const)).sort((a, b) => b[1] - a[1]);
const slicedSize = [10, 20, 25, 7, 1].find((size) => !sizes.has(size)) ?? 10;
const cache = new Map<string, Uint8Array>();
const assets: Assets = {
  fetch: async (request) => {
    const path = new URL(request.url).pathname;
    let body = cache.get(path);
    if (body === undefined) {
      const file = join(out, path);
      if (!existsSync(file)) return new Response(null, { status: 404 });
      body = readFileSync(file);
      cache.set(path, body);
    }
    return new Response(body, { headers: { "content-type": "application/json" } });
  },
};
const handler = createHandler(assets);
let seed = 42;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const sample = (materialised: boolean) =>
  Array.from({ length: 500 }, () => {
    const [key = "", total = 0] = entries[Math.floor(random() * Math.min(entries.length, 2000))] ?? [];
    const size = materialised ? 50 : slicedSize;
    if (hasPageFiles(sizes, size, total) !== materialised) return `/de/Streets?locality=${encodeURIComponent(key)}&pageSize=50`;
    const page = 1 + Math.floor(random() * Math.ceil(total / size));
    return `/de/Streets?locality=${encodeURIComponent(key)}&pageSize=${size}&page=${page}`;
  });
async function cpuPerRequest(paths: readonly string[]): Promise<number> {
  for (const path of paths) await (await handler(new Request(`http://bench${path}`))).arrayBuffer(); // warm: files and shards cached
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const response = await handler(new Request(`http://bench${paths[i % paths.length]}`));
    if (response.status !== 200) throw new Error(`${paths[i % paths.length]}: ${response.status}`);
    await response.arrayBuffer();
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / requests;
}
row(`Worker CPU / request, materialised page (${requests})`, `${(await cpuPerRequest(sample(true))).toFixed(3)} ms`);
row(`Worker CPU / request, page of size ${slicedSize} cut from size 50 (${requests})`, `${(await cpuPerRequest(sample(false))).toFixed(3)} ms`);

// 6. End to end through wrangler dev (workerd), sequential requests on loopback.
const server = await startServer(out);
try {
  const [biggest = "", biggestTotal = 0] = entries[0] ?? [];
  const locality = encodeURIComponent(biggest);
  const kinds: [string, string][] = [
    ["page 1, size 50 (file)", `/de/Streets?locality=${locality}&pageSize=50&page=1`],
    [`deep page, size 50 (file)`, `/de/Streets?locality=${locality}&pageSize=50&page=${Math.ceil(biggestTotal / 50)}`],
    [`page 1, size ${slicedSize} (cut)`, `/de/Streets?locality=${locality}&pageSize=${slicedSize}&page=1`],
    [`deep page, size ${slicedSize} (cut)`, `/de/Streets?locality=${locality}&pageSize=${slicedSize}&page=${Math.ceil(biggestTotal / slicedSize) - 1}`],
  ];
  for (const [name, path] of kinds) {
    const latencies: number[] = [];
    for (let i = 0; i < e2eRequests + 20; i++) {
      const t0 = performance.now();
      const response = await fetch(`${server.origin}${path}`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      if (i >= 20) latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    row(`e2e ${name} p50 / p99 (${e2eRequests})`, `${at(0.5).toFixed(2)} ms / ${at(0.99).toFixed(2)} ms`);
  }
} finally {
  await server.stop();
}

const width = Math.max(...rows.map(([name]) => name.length));
process.stdout.write(`\n${rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n`);

interface BuildJson {
  views: Record<string, number>;
  pageSizes: Record<string, number[]>;
  timingsMs: Record<string, number>;
  cpuMs: number;
  peakRssMiB: number;
}

function runBuild(): Promise<BuildJson> {
  return new Promise((resolvePromise, reject) => {
    // The same heap limit as `npm run build` (package.json): it keeps the peak RSS of a national build near 1 GB.
    const child = spawn(join(ROOT, "node_modules/.bin/tsx"), ["--max-old-space-size=1024", "generator/cli/main.ts", "build", "--source", `de-streets=${source}`, "--out", out, "--json"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("exit", (code) => (code === 0 ? resolvePromise(JSON.parse(stdout) as BuildJson) : reject(new Error(`build exited with ${code}`))));
  });
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
  return list.length === 50 ? "all 1-50" : list.join(", ");
}
