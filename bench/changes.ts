/**
 * `npm run bench:changes`: what the change feed adds to a national build. A full build of the
 * synthetic national street list, then the same list with 1% of its rows changed, rebuilt twice
 * from the same state (the first build's output, hard-linked): once without a predecessor (the
 * feed empty: the build as it was) and once with it (the feed diffs every dataset against the
 * first build's). Each build runs in its own process; CPU time is the process's own, which the
 * load of other processes on the machine changes far less than the wall time.
 *
 * With `--before DIR` (another checkout of the generator, e.g. `git archive` of an earlier commit
 * with this one's node_modules linked in), the rebuild with the feed runs once more with DIR's
 * generator, between the other two: an A/B of two versions under the same machine load.
 *
 *   npm run bench:changes -- [--source FILE] [--out DIR] [--every N] [--before DIR]
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { RecordDiff } from "../generator/build/record-diff.ts";
import { localPredecessor } from "../generator/build/local-predecessor.ts";
import { oldDatasetOf } from "../generator/build/predecessor.ts";
import { forEachJsonRecord } from "../generator/build/json-records.ts";
import { streets as deStreets } from "../generator/resources/de.ts";
import type { EncodedRecords } from "../generator/build/encode.ts";
import { jsonBuild } from "./build-invocation.ts";
import { ensureNationalStreets } from "./national-streets.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    out: { type: "string", default: join(tmpdir(), "plz-bench-changes") },
    every: { type: "string", default: "100" },
    before: { type: "string" },
  },
});
const source = resolve(args.source);
const out = resolve(args.out);
const every = Number(args.every);
const before = args.before === undefined ? undefined : resolve(args.before);

interface BuildJson {
  cpuMs: number;
  peakRssMiB: number;
  timingsMs: Record<string, number>;
  downloads: { changeFeed?: { builds: number } };
}

await ensureNationalStreets(source);

// 1% of the rows changed: every Nth street renamed (a rename is a removed and an added record).
const lines = readFileSync(source, "utf8").split("\n");
let changedRows = 0;
for (let i = 1; i < lines.length; i++) {
  if (i % every !== 0 || lines[i] === "") continue;
  lines[i] = (lines[i] ?? "").replace(
    /^("?)([^,"]+)/,
    (_, quote: string, name: string) => `${quote}${name} Nord`,
  );
  changedRows++;
}
const changedSource = join(tmpdir(), "plz-bench-changes-changed.csv");
writeFileSync(changedSource, lines.join("\n"));
const rows = lines.filter((line) => line !== "").length - 1;

const withFeed = `${out}-feed`;
const withoutFeed = `${out}-nofeed`;
const withFeedBefore = `${out}-feed-before`;
const dirs = [out, withFeed, withoutFeed, withFeedBefore];
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
const load = [loadavg()[0] ?? 0];
const first = await timed(() => build(source, out, ["--full"]));
// The same previous output for both rebuilds; without its downloads manifest it is no predecessor.
execFileSync("cp", ["-al", out, withFeed]);
execFileSync("cp", ["-al", out, withoutFeed]);
if (before !== undefined) execFileSync("cp", ["-al", out, withFeedBefore]);
rmSync(join(withoutFeed, "downloads/index.json"));
load.push(loadavg()[0] ?? 0);
const plain = await timed(() => build(changedSource, withoutFeed, []));
load.push(loadavg()[0] ?? 0);
const feedBefore =
  before === undefined
    ? undefined
    : await timed(() => build(changedSource, withFeedBefore, [], before));
if (before !== undefined) load.push(loadavg()[0] ?? 0);
const feed = await timed(() => build(changedSource, withFeed, []));
load.push(loadavg()[0] ?? 0);
const alone = await diffAlone();
const changeFiles = JSON.parse(
  readFileSync(join(withFeed, "downloads/changes/index.json"), "utf8"),
) as {
  builds: {
    files: {
      resource: string;
      format: string;
      bytes: number;
      added: number;
      removed: number;
      changed: number;
    }[];
  }[];
};
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });

const streets = changeFiles.builds[0]?.files.filter((f) => f.resource === "de.streets") ?? [];
const table: [string, string][] = [
  [
    "input rows / changed rows",
    `${rows.toLocaleString("en")} / ${changedRows.toLocaleString("en")} (${((100 * changedRows) / rows).toFixed(2)}%)`,
  ],
  ["first build (full)", describe(first)],
  ["rebuild, 1% changed, no predecessor", describe(plain)],
  ["rebuild, 1% changed, with the feed", describe(feed)],
  ...(feedBefore === undefined
    ? []
    : ([
        [`rebuild, 1% changed, with the feed, generator in ${before}`, describe(feedBefore)],
        [`the feed adds, generator in ${before}`, adds(feedBefore)],
      ] as [string, string][])),
  ["the feed adds", adds(feed)],
  [
    "de.streets change files",
    streets
      .map(
        (f) =>
          `${f.format} ${(f.bytes / 1024).toFixed(0)} KiB (${f.added} added, ${f.removed} removed, ${f.changed} changed)`,
      )
      .join("; "),
  ],
  [
    "the de.streets diff alone, in this process",
    `main-thread CPU ${(alone.cpuMs / 1000).toFixed(1)} s (${(alone.wallMs / 1000).toFixed(1)} s wall), RSS +${alone.rssMiB} MiB over the new records held as the build holds one view's`,
  ],
  [
    "load average (1 min) before each build and at the end",
    load.map((l) => l.toFixed(1)).join(", "),
  ],
];
const width = Math.max(...table.map(([name]) => name.length));
process.stdout.write(
  `${table.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n`,
);

/**
 * The national street list's diff by itself, as the build runs it: the first build's dataset as
 * the predecessor, the changed build's records fed part by part, as its dataset writer feeds them. Main-thread
 * CPU, which other processes' load hardly changes.
 */
async function diffAlone(): Promise<{ cpuMs: number; wallMs: number; rssMiB: number }> {
  const predecessor = localPredecessor(out);
  const next = localPredecessor(withFeed);
  if (predecessor === undefined || next === undefined) throw new Error("no builds to diff");
  const nextParts = oldDatasetOf(next, "de.streets");
  const encodedParts: { encoded: EncodedRecords; sha256: string }[] = [];
  for (const [part, { sha256 }] of nextParts.parts.entries()) {
    const raw = await nextParts.read(part);
    const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
    const offsets: number[] = [];
    forEachJsonRecord(bytes, (start) => offsets.push(start));
    offsets.push(bytes.length);
    // As packed: each record followed by its comma (the array's brackets and commas are the bytes between).
    const json = Float64Array.from(offsets);
    encodedParts.push({
      encoded: {
        count: offsets.length - 1,
        bytes: { json: bytes, csv: Buffer.alloc(0) },
        offsets: { json, csv: new Float64Array(offsets.length) },
      },
      sha256,
    });
  }
  const rssBefore = process.memoryUsage.rss();
  const cpuBefore = process.threadCpuUsage();
  const started = performance.now();
  const diff = new RecordDiff(oldDatasetOf(predecessor, "de.streets"), deStreets.record.columns);
  for (const { encoded, sha256 } of encodedParts)
    await diff.part(
      [{ json: encoded.bytes.json, offsets: encoded.offsets.json, from: 0, to: encoded.count }],
      sha256,
    );
  const changes = await diff.finish("de.streets");
  const cpu = process.threadCpuUsage(cpuBefore);
  const rssMiB = Math.round((process.resourceUsage().maxRSS * 1024 - rssBefore) / 2 ** 20);
  if (changes.length === 0) throw new Error("the diff found no changes");
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - started, rssMiB };
}

function adds(build: { ms: number; result: BuildJson }): string {
  return `CPU ${((build.result.cpuMs - plain.result.cpuMs) / 1000).toFixed(1)} s, wall ${((build.ms - plain.ms) / 1000).toFixed(1)} s, peak RSS ${build.result.peakRssMiB - plain.result.peakRssMiB} MiB, render ${(((build.result.timingsMs["render"] ?? 0) - (plain.result.timingsMs["render"] ?? 0)) / 1000).toFixed(1)} s`;
}

function describe({ ms, result }: { ms: number; result: BuildJson }): string {
  return `${(ms / 1000).toFixed(1)} s wall, CPU ${(result.cpuMs / 1000).toFixed(1)} s, peak RSS ${result.peakRssMiB} MiB, render ${((result.timingsMs["render"] ?? 0) / 1000).toFixed(1)} s`;
}

async function timed(run: () => Promise<BuildJson>): Promise<{ ms: number; result: BuildJson }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

const build = (streets: string, dir: string, extra: string[], generator = ROOT) =>
  jsonBuild<BuildJson>(streets, dir, extra, generator);
