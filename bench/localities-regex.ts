/**
 * `npx tsx bench/localities-regex.ts [--dir DIR] [--passes N] [--cold-passes N] [--ceiling MS]
 * [--only PATTERNS]` (newline-separated, tried as names and as postal codes):
 * the Worker's CPU for `/{de,at,ch,li}/Localities` with regular-expression filters, in-process on
 * a build of the embedded data (default: the four countries' localities built into a temporary
 * directory). For every pattern of an adversarial list (broad matches, large classes, nested and
 * bounded repetitions, long alternations of names, `.*`-heavy patterns, anchors, the longest
 * patterns accepted), on every country, prints the main thread's CPU per request
 * (process.threadCpuUsage, the thread that runs the Worker's code): cold (a fresh handler: the
 * route table, the match table, the pattern's first compile and the engine's first states; the
 * code itself has run before, this very request included, untimed, as in bench:search's cold
 * requests; the least of --cold-passes fresh handlers, default 3) and warm (the
 * least of N passes: the request's own cost with the least noise from other processes), most
 * expensive first; each request after an untimed turn of the event loop (bench/event-loop-turn.ts). Then cold and warm max / p99 / p50, the ten most expensive cold and warm, the
 * requests over --ceiling ms (default 10, the free plan's CPU limit) and those not answered 200:
 * any, and the exit code is 1. A pattern refused as too large (400) counts as answered.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildToDirectory } from "../generator/build/build.ts";
import { forgetIsolateState } from "../generator/contract/isolate-state.ts";
import { createHandler, type Handler } from "../generator/edge/handler.ts";
import { eventLoopTurn } from "./event-loop-turn.ts";
import { mainCpu } from "./main-cpu.ts";
import { memoryAssets } from "./memory-assets.ts";
import { localityPatternPath, localityPatterns } from "./localities-patterns.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    passes: { type: "string", default: "20" },
    "cold-passes": { type: "string", default: "3" },
    ceiling: { type: "string", default: "10" },
    only: { type: "string" },
  },
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
});
const ceiling = Number(args.ceiling);
const passes = Number(args.passes);
const coldPasses = Math.max(1, Number(args["cold-passes"]));

let work: string | undefined;
let dir = args.dir === undefined ? undefined : resolve(args.dir);
if (dir === undefined) {
  work = mkdtempSync(join(tmpdir(), "plz-regex-"));
  dir = join(work, "dist");
  process.stderr.write("building the embedded localities …\n");
  await buildToDirectory(
    {
      root: ROOT,
      sources: {},
      maxFiles: 20_000,
      headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
      guards: { baseline: "none" },
      only: ["de.localities", "at.localities", "ch.localities", "li.localities"],
    },
    dir,
  );
}
const root = dir;

const assets = memoryAssets(root);

// --only PATTERNS: the patterns given (newline-separated), as names and postal codes, on every country.
const patterns = localityPatterns(args.only?.split("\n"));

async function cost(
  handler: Handler,
  target: string,
): Promise<{ ms: number; status: number; total: string }> {
  await eventLoopTurn(); // untimed: tasks V8 posted during the previous request run here
  const before = mainCpu();
  const response = await handler(new Request(`https://bench${target}`));
  await response.arrayBuffer();
  return {
    ms: mainCpu() - before,
    status: response.status,
    total: response.headers.get("x-total-count") ?? "-",
  };
}

try {
  const rows: { target: string; cold: number; warm: number; status: number; total: string }[] = [];
  const warm = createHandler(assets);
  for (const [country, param, pattern] of patterns) {
    const target = localityPatternPath(country, param, pattern);
    // The warm handler has read the route table and match table, and the code this request runs
    // has run once: the request itself, untimed (as bench/search-cold.ts's untimed pass: a fresh
    // handler's first request measures the data a new isolate reads and what it builds from it,
    // not the first compilation of this code), then a literal and patterns without literals.
    // Then every memo and lazily built table is emptied (forgetIsolateState), as in a new isolate.
    // The least of --cold-passes such first requests, as warm is the least of --passes.
    await warm(new Request(`https://bench${target}`));
    let cold = { ms: Infinity, status: 0, total: "" };
    for (let i = 0; i < coldPasses; i++) {
      await warm(new Request(`https://bench/${country}/Localities?postalCode=0&name=a`));
      await warm(new Request(`https://bench/${country}/Localities?postalCode=%5E1.3&name=b.r`));
      // and a pattern without literals, which the engine tests value by value (regex/automaton.ts).
      await warm(new Request(`https://bench/${country}/Localities?name=%5Cs%5B0-9%5D`));
      forgetIsolateState();
      const first = await cost(createHandler(assets), target);
      if (first.ms < cold.ms) cold = first;
    }
    let best = Infinity;
    let last = cold;
    for (let i = 0; i < passes; i++) {
      last = await cost(warm, target);
      best = Math.min(best, last.ms);
    }
    rows.push({
      target: `${country} ${param}=${pattern}`,
      cold: cold.ms,
      warm: best,
      status: last.status,
      total: last.total,
    });
  }
  rows.sort((a, b) => b.warm - a.warm);
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(
    `Worker main-thread CPU per /{cc}/Localities request, in-process (${root}); each request after an untimed turn of the event loop; cold = least of ${coldPasses} first requests; warm = least of ${passes}; load average ${load}`,
  );
  console.log(
    `${"pattern".padEnd(60)} ${"status".padStart(6)} ${"total".padStart(6)} ${"cold ms".padStart(9)} ${"warm ms".padStart(9)}`,
  );
  for (const r of rows)
    console.log(
      `${r.target.slice(0, 60).padEnd(60)} ${String(r.status).padStart(6)} ${r.total.padStart(6)} ${r.cold.toFixed(2).padStart(9)} ${r.warm.toFixed(2).padStart(9)}`,
    );
  const summary = (label: string, figures: number[]): string => {
    const sorted = [...figures].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
    return `${label}: max ${at(1).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, p50 ${at(0.5).toFixed(2)} ms`;
  };
  console.log(
    summary(
      "warm",
      rows.map((r) => r.warm),
    ),
  );
  console.log(
    summary(
      "cold",
      rows.map((r) => r.cold),
    ),
  );
  for (const which of ["cold", "warm"] as const) {
    console.log(`ten most expensive ${which} (${which} ms, the other):`);
    for (const r of [...rows].sort((a, b) => b[which] - a[which]).slice(0, 10))
      console.log(
        `  ${r[which].toFixed(2).padStart(7)} ${r[which === "cold" ? "warm" : "cold"].toFixed(2).padStart(7)}  ${r.status} ${r.target.slice(0, 110)}`,
      );
  }
  const over = rows.filter((r) => r.cold > ceiling || r.warm > ceiling);
  console.log(`requests over ${ceiling} ms (cold or warm): ${over.length}`);
  for (const r of over)
    console.log(`  ${r.target}: cold ${r.cold.toFixed(2)}, warm ${r.warm.toFixed(2)}`);
  const failed = rows.filter((r) => r.status !== 200 && r.status !== 400);
  console.log(`patterns refused (400): ${rows.filter((r) => r.status === 400).length}`);
  console.log(`requests not answered 200: ${failed.length}`);
  for (const r of failed) console.log(`  ${r.target}: ${r.status}`);
  if (over.length > 0 || failed.length > 0) process.exitCode = 1;
} finally {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
}
