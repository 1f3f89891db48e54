/**
 * `npm run bench:search`: street search at national scale (issue 13). Builds the synthetic national
 * street list with and without the search index (A/B, each build in its own process), then runs
 * the query mix of bench/search-mix.ts through the Worker in-process over the built files and
 * prints per query class: our wall time and CPU per request (p50 / p99), asset fetches per warm
 * request, index bytes read per request, and PostgreSQL's time for the same requests with the ratio.
 *
 *   bash bench/postgres-up.sh                          # once, for the PostgreSQL column
 *   npm run bench:search -- [--source FILE] [--out DIR] [--max-files N] [--postgres-json FILE] [--no-postgres] [--no-ab]
 *                           [--no-build (reuse --out)] [--slowest N (print the N slowest requests)] [--passes N]
 *
 * CPU is the process's (process.cpuUsage, microseconds). On a shared machine other processes and
 * the collector add to single requests, so the mix is measured in N passes: the table gives the
 * first pass and, per request, the least of the N (the request's own cost with the least noise).
 *
 * PostgreSQL's figures come from `npm run bench:postgres` run here on the same file and seed
 * (or from --postgres-json, a file that command wrote). "Warm" means after one untimed pass over
 * the whole mix: the isolate then holds the route table, the index's meta, lexicon and trigram
 * shards, the rendered tails and its last 48 list chunks, as a Worker isolate serving traffic would.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Assets } from "../generator/edge/assets.ts";
import { createHandler } from "../generator/edge/handler.ts";
import { readStreets } from "../generator/sources/de-streets.ts";
import { searchMix, type SearchRequest } from "./search-mix.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    out: { type: "string", default: join(tmpdir(), "plz-bench-search") },
    "max-files": { type: "string", default: "20000" },
    seed: { type: "string", default: "13" },
    "postgres-json": { type: "string" },
    "no-postgres": { type: "boolean", default: false },
    "no-ab": { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    slowest: { type: "string", default: "0" },
    passes: { type: "string", default: "3" },
  },
});
const log = (line: string) => process.stderr.write(`${line}\n`);
const source = resolve(args.source);
if (!existsSync(source)) {
  log(`generating ${source}…`);
  execFileSync(process.execPath, [resolve(ROOT, "../shared/bench/make-national-streets.mjs"), "--out", source], { stdio: "inherit" });
}

interface BuildJson {
  timingsMs: Record<string, number>;
  cpuMs: number;
  peakRssMiB: number;
  files: Record<string, { files: number; bytes: number }>;
}
function build(out: string, withIndex: boolean): { summary: BuildJson; wallMs: number } {
  rmSync(out, { recursive: true, force: true });
  const started = performance.now();
  const flags = ["--max-old-space-size=1024", "generator/cli/main.ts", "build", "--source", `de-streets=${source}`, "--out", out, "--max-files", args["max-files"], "--full", "--json", ...(withIndex ? [] : ["--no-search-index"])];
  const child = spawnSync(join(ROOT, "node_modules/.bin/tsx"), flags, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "inherit"] });
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
  row("build with index: wall / search phase / peak RSS", `${(withIndex.wallMs / 1000).toFixed(1)} s / ${((withIndex.summary.timingsMs["search"] ?? 0) / 1000).toFixed(1)} s / ${withIndex.summary.peakRssMiB} MiB`);
  row("files in the build (budget)", `${fileCount.toLocaleString("en")} (${args["max-files"]})`);
  if (!args["no-ab"]) abBuild(withIndex);
}
function abBuild(withIndex: { summary: BuildJson; wallMs: number }): void {
  log("building without the search index…");
  const without = build(join(out, "..", "plz-bench-search-without"), false);
  rmSync(join(out, "..", "plz-bench-search-without"), { recursive: true, force: true });
  row("build without index: wall / peak RSS", `${(without.wallMs / 1000).toFixed(1)} s / ${without.summary.peakRssMiB} MiB`);
  row("added by the index: wall / peak RSS", `${((withIndex.wallMs - without.wallMs) / 1000).toFixed(1)} s / ${withIndex.summary.peakRssMiB - without.summary.peakRssMiB} MiB`);
}

// The Worker in-process over the built files, every fetch counted.
const files = new Map<string, Uint8Array>();
let fetches = 0;
let indexBytes = 0;
const assets: Assets = {
  fetch: async (request) => {
    const path = new URL(request.url).pathname;
    fetches++;
    let body = files.get(path);
    if (body === undefined) {
      const file = join(out, path);
      if (!existsSync(file)) return new Response(null, { status: 404 });
      files.set(path, (body = readFileSync(file)));
    }
    if (path.startsWith("/_s/")) indexBytes += body.byteLength;
    return new Response(body, { headers: { "content-type": "application/octet-stream" } });
  },
};
const handler = createHandler(assets);
const streets = await readStreets(readFileSync(source), source);
const requests = searchMix(streets, Number(args.seed));
const target = (r: SearchRequest) => {
  const q = new URLSearchParams();
  if (r.kind === "fts") {
    q.set("searchTerm", r.searchTerm);
    if (r.prefix) q.set("lastWordPrefix", "true");
    return `/de/FullTextSearch?${q}`;
  }
  for (const p of ["name", "postalCode", "locality"] as const) if (r[p] !== undefined) q.set(p, r[p] ?? "");
  return `/de/Streets?${q}`;
};
log(`warm-up pass over ${requests.length.toLocaleString("en")} requests…`);
let failures = 0;
for (const r of requests) {
  const response = await handler(new Request(`http://bench${target(r)}`));
  await response.arrayBuffer();
  if (response.status !== 200) failures++;
}
log("measured pass…");
interface Sample {
  target: string;
  wall: number;
  cpu: number;
  /** The least over the passes. */
  minWall: number;
  minCpu: number;
  fetches: number;
  bytes: number;
}
const byClass = new Map<string, Sample[]>();
const cpuNow = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const samples: Sample[] = [];
for (let pass = 0; pass < Number(args.passes); pass++) {
  for (const [i, r] of requests.entries()) {
    [fetches, indexBytes] = [0, 0];
    const cpu = cpuNow();
    const started = performance.now();
    const response = await handler(new Request(`http://bench${target(r)}`));
    await response.arrayBuffer();
    const wall = performance.now() - started;
    const used = cpuNow() - cpu;
    if (response.status !== 200) failures++;
    const seen = samples[i];
    if (seen === undefined) {
      const sample = { target: target(r), wall, cpu: used, minWall: wall, minCpu: used, fetches, bytes: indexBytes };
      samples[i] = sample;
      (byClass.get(r.class) ?? byClass.set(r.class, []).get(r.class))?.push(sample);
    } else {
      seen.minWall = Math.min(seen.minWall, wall);
      seen.minCpu = Math.min(seen.minCpu, used);
    }
  }
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const postgres = postgresFigures();
const all = [...byClass.values()].flat();
row("requests × passes (failures, not retried)", `${all.length.toLocaleString("en")} × ${args.passes} (${failures})`);
row("Worker CPU per request p50 / p99, first pass", `${percentile(all.map((s) => s.cpu), 50).toFixed(3)} ms / ${percentile(all.map((s) => s.cpu), 99).toFixed(3)} ms`);
row(`Worker CPU per request p50 / p99, least of ${args.passes} passes`, `${percentile(all.map((s) => s.minCpu), 50).toFixed(3)} ms / ${percentile(all.map((s) => s.minCpu), 99).toFixed(3)} ms`);
row("wall per request p50 / p99, first pass", `${percentile(all.map((s) => s.wall), 50).toFixed(3)} ms / ${percentile(all.map((s) => s.wall), 99).toFixed(3)} ms`);
row("asset fetches per warm request p50 / p99 / max", `${percentile(all.map((s) => s.fetches), 50)} / ${percentile(all.map((s) => s.fetches), 99)} / ${Math.max(...all.map((s) => s.fetches))}`);
row("index bytes read per warm request p99 / max", `${(percentile(all.map((s) => s.bytes), 99) / 1024).toFixed(0)} KiB / ${(Math.max(...all.map((s) => s.bytes)) / 1024).toFixed(0)} KiB`);

for (const s of [...all].sort((a, b) => b.minCpu - a.minCpu).slice(0, Number(args.slowest))) log(`slow: ${s.minCpu.toFixed(2)} ms CPU (least), ${s.cpu.toFixed(2)} ms first, ${s.fetches} fetches: ${decodeURIComponent(s.target)}`);
const width = Math.max(...rows.map(([name]) => name.length));
process.stdout.write(`\n${rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n\n`);
const head = ["class", "n", "ours p50", "ours p99", "cpu p50", "cpu p99", "least cpu p50", "least cpu p99", "fetch max", "KiB max", "pg p50", "pg p99", "pg/ours p50", "pg/ours p99"];
const table = [...byClass].map(([name, samples]) => {
  const pg = postgres?.get(name);
  const [p50, p99] = [percentile(samples.map((s) => s.wall), 50), percentile(samples.map((s) => s.wall), 99)];
  return [
    name,
    String(samples.length),
    p50.toFixed(3),
    p99.toFixed(3),
    percentile(samples.map((s) => s.cpu), 50).toFixed(3),
    percentile(samples.map((s) => s.cpu), 99).toFixed(3),
    percentile(samples.map((s) => s.minCpu), 50).toFixed(3),
    percentile(samples.map((s) => s.minCpu), 99).toFixed(3),
    String(Math.max(...samples.map((s) => s.fetches))),
    (Math.max(...samples.map((s) => s.bytes)) / 1024).toFixed(0),
    pg === undefined ? "–" : pg.p50.toFixed(2),
    pg === undefined ? "–" : pg.p99.toFixed(2),
    pg === undefined ? "–" : `${(pg.p50 / p50).toFixed(1)}×`,
    pg === undefined ? "–" : `${(pg.p99 / p99).toFixed(1)}×`,
  ];
});
const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? "").length)));
for (const line of [head, ...table]) process.stdout.write(`${line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")}\n`);
process.stdout.write(`(ms per request; ours: in-process Worker over the built files after a warm-up pass, wall and CPU of the first measured pass, "least": per request the least of ${args.passes} passes; pg: page + count on one connection, bench/postgres.ts; fetches and KiB: the first measured pass)\n`);

function postgresFigures(): Map<string, { p50: number; p99: number }> | undefined {
  let file = args["postgres-json"];
  if (file === undefined && !args["no-postgres"]) {
    file = join(tmpdir(), "plz-bench-search-postgres.json");
    log("PostgreSQL: npm run bench:postgres on the same file and seed…");
    const child = spawnSync(join(ROOT, "node_modules/.bin/tsx"), ["bench/postgres.ts", "--source", source, "--seed", args.seed, "--json", file], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
    if (child.status !== 0) {
      log("PostgreSQL is not available (bash bench/postgres-up.sh starts it): its columns stay empty");
      return undefined;
    }
  }
  if (file === undefined) return undefined;
  const json = JSON.parse(readFileSync(file, "utf8")) as { classes: { class: string; p50: number; p99: number }[] };
  return new Map(json.classes.map((c) => [c.class, { p50: c.p50, p99: c.p99 }]));
}
