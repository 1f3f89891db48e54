/**
 * `npm run bench:changes`: what the change feed adds to a national build. A full build of the
 * synthetic national street list, then the same list with 1% of its rows changed, rebuilt from the
 * same state (the first build's output, hard-linked) in pairs: once without a predecessor (the
 * feed empty: the build as it was) and once with it (the feed diffs every dataset against the
 * first build's). The two builds of a pair run back to back, in alternating order from pair to
 * pair, so a change in the machine's load falls on both; the figure is each pair's difference, and
 * their median and spread over the pairs. Each build runs in its own process.
 *
 * Before each build the bench runs `sync` and waits for the kernel's writeback to end, so that
 * neither build pays for the other's writes. On a disk a build still writes about a GB, which a
 * busy machine may take longer to absorb in the one build than in the other; `--out-dir DIR` puts
 * everything the bench writes (the first build, the rebuilds, the changed list) under DIR, e.g. a
 * tmpfs (`/dev/shm/…`), to take the disk out of the comparison. Each pair records the file
 * system its outputs were on, and the table prints it.
 *
 * A shared machine may not give one run the time for many pairs: `--base DIR` reuses a first
 * build there (made there, and kept, when there is none), `--results FILE` appends each pair to FILE (JSON lines), and
 * `--summarize` prints the table of every pair in FILE without building.
 *
 *   npm run bench:changes -- [--source FILE] [--out DIR] [--out-dir DIR] [--every N] [--pairs N]
 *     [--base DIR] [--keep-base] [--results FILE] [--summarize]
 */
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { jsonBuild } from "./build-invocation.ts";
import { ensureNationalStreets } from "./national-streets.ts";

const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    out: { type: "string" },
    "out-dir": { type: "string" },
    every: { type: "string", default: "100" },
    pairs: { type: "string", default: "5" },
    base: { type: "string" },
    "keep-base": { type: "boolean", default: false },
    results: { type: "string" },
    summarize: { type: "boolean", default: false },
  },
});
const source = resolve(args.source);
const outDir = args["out-dir"] === undefined ? tmpdir() : resolve(args["out-dir"]);
if (args["out-dir"] !== undefined) mkdirSync(outDir, { recursive: true });
const out = resolve(args.out ?? join(outDir, "plz-bench-changes"));
const every = Number(args.every);
const results = args.results === undefined ? undefined : resolve(args.results);

interface BuildJson {
  cpuMs: number;
  peakRssMiB: number;
  timingsMs: Record<string, number>;
}

/** One build as the bench reports it. */
interface Run {
  wallMs: number;
  cpuMs: number;
  peakRssMiB: number;
  renderMs: number;
  /** The build's phases (wall time each). */
  phasesMs?: Record<string, number>;
}

/** One pair: the build without the feed and with it, which ran first, the load before and after. */
interface Pair {
  plain: Run;
  feed: Run;
  first: "plain" | "feed";
  load: [number, number];
  changeFiles?: string;
  /** The file system the builds wrote to (e.g. tmpfs), and the MiB still dirty after `sync` before each build. */
  medium?: string;
  dirtyMiB?: [number, number];
}

if (args.summarize) {
  if (results === undefined) throw new Error("--summarize needs --results FILE");
  print(readPairs(results));
  process.exit(0);
}

await ensureNationalStreets(source);
const changedSource = join(outDir, "plz-bench-changes-changed.csv");
const rows = writeChanged(source, changedSource, every);
process.stdout.write(
  `input rows / changed rows: ${rows.rows.toLocaleString("en")} / ${rows.changed.toLocaleString("en")} (${((100 * rows.changed) / rows.rows).toFixed(2)}%)\n`,
);

const base = args.base === undefined ? out : resolve(args.base);
mkdirSync(dirname(base), { recursive: true });
const medium = fileSystem(dirname(out));
process.stdout.write(
  `outputs on ${medium} (${dirname(out)}); first build on ${fileSystem(dirname(base))} (${base})\n`,
);
// A first build in --base is kept (made there when there is none); the default one with --keep-base.
const keepBase = args["keep-base"] || args.base !== undefined;
if (!existsSync(join(base, "downloads/index.json"))) {
  rmSync(base, { recursive: true, force: true });
  const first = await timed(source, base, ["--full"]);
  process.stdout.write(`first build (full): ${describe(first)}\n`);
}

const pairs: Pair[] = [];
for (let i = 0; i < Number(args.pairs); i++) {
  const before = loadavg()[0] ?? 0;
  const order: ("plain" | "feed")[] = i % 2 === 0 ? ["plain", "feed"] : ["feed", "plain"];
  const runs: Partial<Record<"plain" | "feed", Run>> = {};
  let changeFiles: string | undefined;
  const dirty: number[] = [];
  for (const kind of order) {
    const dir = `${out}-${kind}`;
    rmSync(dir, { recursive: true, force: true });
    execFileSync("cp", ["-al", base, dir]);
    // The same previous output for both; without its downloads manifest it is no predecessor.
    if (kind === "plain") rmSync(join(dir, "downloads/index.json"));
    // The last build's writes (and removal) flushed before this one starts, not during it. The
    // second build of a pair can still be slower than the first: alternating the order cancels it.
    dirty.push(await settle());
    runs[kind] = await timed(changedSource, dir, []);
    if (kind === "feed") changeFiles = streetChangeFiles(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  const pair: Pair = {
    plain: runs.plain as Run,
    feed: runs.feed as Run,
    first: order[0] ?? "plain",
    load: [before, loadavg()[0] ?? 0],
    ...(changeFiles === undefined ? {} : { changeFiles }),
    medium,
    dirtyMiB: [dirty[0] ?? 0, dirty[1] ?? 0],
  };
  pairs.push(pair);
  if (results !== undefined) appendFileSync(results, `${JSON.stringify(pair)}\n`);
  process.stderr.write(`pair ${i + 1}: ${row(pair)}\n`);
}
if (!keepBase) rmSync(base, { recursive: true, force: true });
if (!keepBase && args["out-dir"] !== undefined) rmSync(changedSource, { force: true });
print(results === undefined ? pairs : readPairs(results));

/** The file system `dir` is on, as `stat -f` names it (tmpfs, ext2/ext3, …). */
function fileSystem(dir: string): string {
  return execFileSync("stat", ["-f", "-c", "%T", dir], { encoding: "utf8" }).trim();
}

/**
 * Flushes every file system (`sync` returns once what was dirty is written) and waits, up to 60 s,
 * until the kernel is writing back less than 1 MiB; resolves to the MiB dirty then (other
 * processes' writes, on a shared machine).
 */
async function settle(): Promise<number> {
  execFileSync("sync");
  const meminfo = (field: string) =>
    Number(
      new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/meminfo", "utf8"))?.[1] ??
        0,
    ) / 1024;
  for (let waited = 0; meminfo("Writeback") >= 1 && waited < 60_000; waited += 100)
    await new Promise((done) => setTimeout(done, 100));
  return meminfo("Dirty");
}

/** Renames every `every`th street (a rename is a removed and an added record). */
function writeChanged(from: string, to: string, every: number): { rows: number; changed: number } {
  const lines = readFileSync(from, "utf8").split("\n");
  let changed = 0;
  for (let i = 1; i < lines.length; i++) {
    if (i % every !== 0 || lines[i] === "") continue;
    lines[i] = (lines[i] ?? "").replace(
      /^("?)([^,"]+)/,
      (_, quote: string, name: string) => `${quote}${name} Nord`,
    );
    changed++;
  }
  writeFileSync(to, lines.join("\n"));
  return { rows: lines.filter((line) => line !== "").length - 1, changed };
}

function streetChangeFiles(dir: string): string {
  const feed = JSON.parse(readFileSync(join(dir, "downloads/changes/index.json"), "utf8")) as {
    builds: { files: { resource: string; format: string; bytes: number; added: number }[] }[];
  };
  return (feed.builds[0]?.files ?? [])
    .filter((f) => f.resource === "de.streets")
    .map((f) => `${f.format} ${(f.bytes / 2 ** 20).toFixed(1)} MiB`)
    .join(", ");
}

function readPairs(file: string): Pair[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Pair);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function signed(value: number, digits = 1): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
}

function row(pair: Pair): string {
  const d = difference(pair);
  return [
    `first ${pair.first.padEnd(5)}`,
    `no feed ${seconds(pair.plain.wallMs)} s wall, ${seconds(pair.plain.cpuMs)} s CPU`,
    `feed ${seconds(pair.feed.wallMs)} s wall, ${seconds(pair.feed.cpuMs)} s CPU`,
    `adds wall ${signed(d.wall)} s, CPU ${signed(d.cpu)} s, render ${signed(d.render)} s, peak RSS ${signed(d.rss, 0)} MiB`,
    ...(pair.feed.phasesMs === undefined ? [] : [`phases ${phases(pair)}`]),
    `load ${pair.load.map((l) => l.toFixed(1)).join("→")}`,
    ...(pair.medium === undefined ? [] : [`on ${pair.medium}`]),
    ...(pair.dirtyMiB === undefined
      ? []
      : [`dirty after sync ${pair.dirtyMiB.map((d) => d.toFixed(0)).join("/")} MiB`]),
  ].join(" | ");
}

/** What the feed adds to each phase of the build (wall). */
function phases(pair: Pair): string {
  return Object.entries(pair.feed.phasesMs ?? {})
    .map(([name, ms]) => `${name} ${signed((ms - (pair.plain.phasesMs?.[name] ?? 0)) / 1000)}`)
    .join(", ");
}

function difference(pair: Pair): { wall: number; cpu: number; render: number; rss: number } {
  return {
    wall: (pair.feed.wallMs - pair.plain.wallMs) / 1000,
    cpu: (pair.feed.cpuMs - pair.plain.cpuMs) / 1000,
    render: (pair.feed.renderMs - pair.plain.renderMs) / 1000,
    rss: pair.feed.peakRssMiB - pair.plain.peakRssMiB,
  };
}

function print(all: readonly Pair[]): void {
  const lines = all.map((pair, i) => `pair ${i + 1}: ${row(pair)}`);
  const diffs = all.map(difference);
  for (const key of ["wall", "cpu", "render", "rss"] as const) {
    const values = diffs.map((d) => d[key]).sort((a, b) => a - b);
    const digits = key === "rss" ? 0 : 1;
    const unit = key === "rss" ? "MiB" : "s";
    lines.push(
      `the feed adds, ${key}: median ${signed(median(values), digits)} ${unit}, spread ${signed(values[0] ?? 0, digits)} to ${signed(values.at(-1) ?? 0, digits)} ${unit} (${values.length} pairs)`,
    );
  }
  const order = all
    .map((pair) => {
      const d = difference(pair).wall;
      return pair.first === "plain" ? d : -d;
    })
    .sort((a, b) => a - b);
  lines.push(
    `the second build of a pair against the first, wall: median ${signed(median(order))} s (the order's own effect; alternating cancels it)`,
  );
  // The order's effect is added to one order's differences and taken from the other's: their mean cancels it.
  for (const key of ["wall", "cpu", "render"] as const) {
    const of = (first: Pair["first"]) =>
      median(
        all
          .filter((pair) => pair.first === first)
          .map((pair) => difference(pair)[key])
          .sort((a, b) => a - b),
      );
    lines.push(
      `the feed adds, ${key}, order-balanced (mean of each order's median): ${signed((of("plain") + of("feed")) / 2)} s (plain first ${signed(of("plain"))}, feed first ${signed(of("feed"))})`,
    );
  }
  const media = [...new Set(all.map((pair) => pair.medium ?? "unrecorded"))];
  lines.push(`the builds' outputs were on: ${media.join(", ")}`);
  const files = all.find((pair) => pair.changeFiles !== undefined)?.changeFiles;
  if (files !== undefined) lines.push(`de.streets change files: ${files}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

function median(sorted: readonly number[]): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function describe(run: Run): string {
  return `${seconds(run.wallMs)} s wall, CPU ${seconds(run.cpuMs)} s, peak RSS ${run.peakRssMiB} MiB, render ${seconds(run.renderMs)} s`;
}

async function timed(streets: string, dir: string, extra: string[]): Promise<Run> {
  const started = performance.now();
  const result = await jsonBuild<BuildJson>(streets, dir, extra);
  return {
    wallMs: performance.now() - started,
    cpuMs: result.cpuMs,
    peakRssMiB: result.peakRssMiB,
    renderMs: result.timingsMs["render"] ?? 0,
    phasesMs: result.timingsMs,
  };
}
