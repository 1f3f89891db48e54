/**
 * `npx tsx bench/localities-regex.ts [--dir DIR] [--passes N] [--ceiling MS]`: the Worker's CPU for
 * `/de/Localities` with regular-expression filters, in-process on a build of the embedded data
 * (default: de.localities built into a temporary directory). For every pattern of an adversarial
 * list (broad matches, large classes, nested and bounded repetitions, long alternations, the
 * longest patterns accepted), prints the main thread's CPU per request (process.threadCpuUsage,
 * the thread that runs the Worker's code): cold (a fresh handler: the route table, the match
 * table, the pattern's first compile and the engine's first states; the code itself has run
 * before) and warm (the least of N passes: the request's own cost
 * with the least noise from other processes), most expensive first. Then cold and warm max / p99 /
 * p50, the requests over --ceiling ms (default 10, the free plan's CPU limit) and those not
 * answered 200: any, and the exit code is 1.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildToDirectory } from "../generator/build/build.ts";
import { createHandler, type Handler } from "../generator/edge/handler.ts";
import { memoryAssets } from "./memory-assets.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    passes: { type: "string", default: "20" },
    ceiling: { type: "string", default: "10" },
  },
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
});
const ceiling = Number(args.ceiling);
const passes = Number(args.passes);

let work: string | undefined;
let dir = args.dir === undefined ? undefined : resolve(args.dir);
if (dir === undefined) {
  work = mkdtempSync(join(tmpdir(), "plz-regex-"));
  dir = join(work, "dist");
  process.stderr.write("building the embedded German localities …\n");
  await buildToDirectory(
    {
      root: ROOT,
      sources: {},
      maxFiles: 20_000,
      headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
      guards: { baseline: "none" },
      only: ["de.localities"],
    },
    dir,
  );
}
const root = dir;

const assets = memoryAssets(root);

const longAlternation = Array.from({ length: 19 }, (_, i) => `stadt${i}`).join("|");
const patterns: [string, string][] = [
  ["name", "Frankfurt"],
  ["name", "berl"],
  ["name", "^Berlin$"],
  ["name", "(Berlin|Hamburg)"],
  ["name", "e"],
  ["name", "."],
  ["name", "^"],
  ["name", "(a+)+$"],
  ["name", "(.*a){12}"],
  ["name", "(.*e){20}x"],
  ["name", "[a-zäöüß]+ [a-zäöüß]+ [a-zäöüß]+$"],
  ["name", "\\w+\\W+\\w+\\W+\\w+"],
  ["name", "[^x]*[^y]*[^z]*q"],
  ["name", "(a|e|i|o|u)(a|e|i|o|u)(a|e|i|o|u)"],
  ["name", "(.{1,10}){1,10}z"],
  ["name", "x{0,255}y{0,255}"],
  ["name", longAlternation],
  ["name", "ß|ä|ö|ü|é|è|ê|à|â|ç|ñ"],
  ["name", `${"(a|b|c|d|e)".repeat(18)}`],
  ["name", `${"[a-zäöüß]".repeat(20)}`],
  // Classes the alphabet cut shrinks most, and repetitions of them.
  ["name", "\\W\\w\\W\\w\\W"],
  ["name", "\\S+\\s\\S+\\s\\S+\\s\\S+"],
  ["name", "[^a]+[^b]+[^c]+[^d]+$"],
  ["name", "(\\w+\\s?){1,8}$"],
  ["name", "(.*[äöü]){3}"],
  ["name", ".{30}"],
  ["name", "^(.)(.)(.)(.)(.).*[^\\w\\s]"],
  ["name", "\\d|\\D"],
  ["postalCode", "1011"],
  ["postalCode", "^8033"],
  ["postalCode", "."],
  ["postalCode", "^[0-9]{5}$"],
  ["postalCode", "(0|1|2|3|4|5|6|7|8|9)*9$"],
];

function mainCpu(): number {
  process.cpuUsage(); // brings the thread's runtime up to date (see bench/search.ts)
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

async function cost(
  handler: Handler,
  target: string,
): Promise<{ ms: number; status: number; total: string }> {
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
  for (const [param, pattern] of patterns) {
    const target = `/de/Localities?${param}=${encodeURIComponent(pattern)}&pageSize=50`;
    // The warm handler has read the route table and match table, and the code has run once (as in
    // bench/search.ts, a fresh handler's first request measures the data a new isolate reads, not
    // the compilation of this code).
    await warm(new Request("https://bench/de/Localities?postalCode=0&name=a"));
    const cold = await cost(createHandler(assets), target);
    let best = Infinity;
    let last = cold;
    for (let i = 0; i < passes; i++) {
      last = await cost(warm, target);
      best = Math.min(best, last.ms);
    }
    rows.push({
      target: `${param}=${pattern}`,
      cold: cold.ms,
      warm: best,
      status: last.status,
      total: last.total,
    });
  }
  rows.sort((a, b) => b.warm - a.warm);
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(
    `Worker main-thread CPU per /de/Localities request, in-process (${root}); warm = least of ${passes}; load average ${load}`,
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
  console.log("most expensive cold:");
  for (const r of [...rows].sort((a, b) => b.cold - a.cold).slice(0, 5))
    console.log(`  ${r.cold.toFixed(2).padStart(7)} ms  ${r.target}`);
  const over = rows.filter((r) => r.cold > ceiling || r.warm > ceiling);
  console.log(`requests over ${ceiling} ms (cold or warm): ${over.length}`);
  for (const r of over)
    console.log(`  ${r.target}: cold ${r.cold.toFixed(2)}, warm ${r.warm.toFixed(2)}`);
  const failed = rows.filter((r) => r.status !== 200);
  console.log(`requests not answered 200: ${failed.length}`);
  for (const r of failed) console.log(`  ${r.target}: ${r.status}`);
  if (over.length > 0 || failed.length > 0) process.exitCode = 1;
} finally {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
}
