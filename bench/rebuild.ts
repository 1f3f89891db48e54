/**
 * `npm run bench:rebuild`: a full build of the synthetic national street list, then the nightly
 * case: the same list with 1% of its rows changed, rebuilt incrementally into the same output and,
 * for comparison, in full into a fresh one. Prints times, change counts and the download sizes.
 *
 *   npm run bench:rebuild -- [--source FILE] [--out DIR] [--every N]
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { jsonBuild } from "./build-invocation.ts";
import { ensureNationalStreets } from "./national-streets.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    out: { type: "string", default: join(tmpdir(), "plz-bench-rebuild") },
    every: { type: "string", default: "100" },
  },
});
const source = resolve(args.source);
const out = resolve(args.out);
const every = Number(args.every);

interface BuildJson {
  cpuMs: number;
  peakRssMiB: number;
  timingsMs: Record<string, number>;
  files: Record<string, { files: number; bytes: number }>;
  changes?: { added: number; changed: number; removed: number; unchanged: number };
  downloads: { files: number };
}

await ensureNationalStreets(source);

// 1% of the rows changed: every 100th street renamed (a real nightly diff is mostly renames,
// new and removed streets; a rename moves the street within its locality's order).
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
const changedSource = join(tmpdir(), "plz-bench-national-changed.csv");
writeFileSync(changedSource, lines.join("\n"));
const rows = lines.filter((line) => line !== "").length - 1;

rmSync(out, { recursive: true, force: true });
const fresh = `${out}-full`;
rmSync(fresh, { recursive: true, force: true });

const full = await timed(() => build(source, out, ["--full"]));
const incremental = await timed(() => build(changedSource, out, []));
const fullAgain = await timed(() => build(changedSource, fresh, ["--full"]));
rmSync(fresh, { recursive: true, force: true });

const table: [string, string][] = [
  [
    "input rows / changed rows",
    `${rows.toLocaleString("en")} / ${changedRows.toLocaleString("en")} (${((100 * changedRows) / rows).toFixed(2)}%)`,
  ],
  ["full build (first, into an empty output)", describe(full)],
  ["incremental rebuild (1% changed, same output)", describe(incremental)],
  ["full rebuild of the changed data (empty output)", describe(fullAgain)],
  ["changes", changes(incremental.result)],
  [
    "incremental / full",
    `${(incremental.ms / fullAgain.ms).toFixed(2)}× the wall time, ${((incremental.result.timingsMs["write"] ?? 0) / (fullAgain.result.timingsMs["write"] ?? 1)).toFixed(2)}× the write phase`,
  ],
  ["downloads", downloads(incremental.result)],
];
const width = Math.max(...table.map(([name]) => name.length));
process.stdout.write(
  `${table.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n")}\n`,
);

function describe({ ms, result }: { ms: number; result: BuildJson }): string {
  const t = result.timingsMs;
  const phases = ["read", "sort", "render", "write"]
    .map((p) => `${((t[p] ?? 0) / 1000).toFixed(1)}`)
    .join(" / ");
  const files = Object.values(result.files).reduce((sum, g) => sum + g.files, 0);
  return `${(ms / 1000).toFixed(1)} s wall, CPU ${(result.cpuMs / 1000).toFixed(1)} s, peak RSS ${result.peakRssMiB} MiB, phases read/sort/render/write ${phases} s, ${files.toLocaleString("en")} files`;
}

function changes(result: BuildJson): string {
  const c = result.changes;
  return c === undefined
    ? "–"
    : `${c.added} added, ${c.changed} changed, ${c.removed} removed, ${c.unchanged} unchanged`;
}

function downloads(result: BuildJson): string {
  const group = result.files["downloads"];
  return group === undefined
    ? "–"
    : `${group.files.toLocaleString("en")} files, ${(group.bytes / 2 ** 20).toFixed(0)} MiB`;
}

async function timed(run: () => Promise<BuildJson>): Promise<{ ms: number; result: BuildJson }> {
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

const build = (streets: string, dir: string, extra: string[]) =>
  jsonBuild<BuildJson>(streets, dir, extra);
