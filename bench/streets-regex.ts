/**
 * `npx tsx bench/streets-regex.ts --dir DIR [--source FILE] [--passes N] [--ceiling MS]`: the
 * Worker's CPU for `/de/Streets` requests whose filters are regular expressions, in-process on a
 * national build (`npm run bench:search -- --out DIR` writes one; --source is the street list it
 * was built from, whose words and localities make the patterns). The requests: the regex shapes
 * of the adversarial mix (bench/search-adversarial.ts) and the worst shapes we could construct
 * (no usable n-grams, alternations of many names, counted repetitions, classes that cover a
 * column, patterns up to the 200-character limit), each warm (the least of N passes) and as a
 * fresh handler's first (a new isolate's AssetStore and search index; the code has run before,
 * as in bench/search.ts; a single try), each after an untimed turn of the event loop
 * (bench/event-loop-turn.ts). Prints cold and warm max / p99 / p50, the ten most expensive of
 * each, the requests refused (400) with their most expensive, the requests over --ceiling ms
 * (default 10) and those answered neither 200 nor 400: any, and the exit code is 1.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { forgetIsolateState } from "../generator/contract/isolate-state.ts";
import { createHandler, type Handler } from "../generator/edge/handler.ts";
import { readStreets } from "../generator/sources/de-streets.ts";
import { eventLoopTurn } from "./event-loop-turn.ts";
import { mainCpu } from "./main-cpu.ts";
import { memoryAssets } from "./memory-assets.ts";
import { adversarialMix } from "./search-adversarial.ts";
import { upTo200 } from "./pattern-length.ts";

const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    source: { type: "string", default: "/tmp/national-streets.csv" },
    passes: { type: "string", default: "5" },
    ceiling: { type: "string", default: "10" },
  },
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
});
if (args.dir === undefined) throw new Error("--dir: a national build is needed");
const root = resolve(args.dir);
const ceiling = Number(args.ceiling);
const passes = Number(args.passes);
const assets = memoryAssets(root);

type Filters = { name?: string; postalCode?: string; locality?: string };
const targetOf = (filters: Filters, page?: number) => {
  const q = new URLSearchParams();
  for (const p of ["name", "postalCode", "locality"] as const)
    if (filters[p] !== undefined) q.set(p, filters[p] ?? "");
  if (page !== undefined) q.set("page", String(page));
  return `/de/Streets?${q}`;
};

const source = resolve(args.source);
const targets = new Set<string>();
// The street list is read in a function so that it is let go before any timing: a Worker isolate
// holds no such list, and every major collection in the timed requests would mark it.
await (async () => {
  const streets = await readStreets(readFileSync(source), source);
  for (const r of adversarialMix(streets))
    if (r.kind === "streets" && r.class.includes("regex")) targets.add(targetOf(r, r.page));
})();

const words = ["Haupt", "Bahnhof", "Schul", "Kirch", "Garten", "Berg", "Wald", "Linden", "Feld"];
const extra: Filters[] = [
  { postalCode: "[0-9]{5}" },
  { postalCode: "^[0-9]{5}$" },
  { postalCode: "\\d\\d" },
  { postalCode: "." },
  { name: "." },
  { name: "^" },
  { name: ".*" },
  { name: "(a|b|c|d|e)".repeat(18) },
  { name: "[a-zäöüß]".repeat(20) },
  { name: "(a+)+$" },
  { name: "stra(ss|ß)e$" },
  { name: "^(Am|An der|Auf dem) " },
  {
    name: upTo200(
      words.map((w) => `${w}str`),
      "|",
    ),
  },
  {
    name: upTo200(
      words.map((w) => `${w}(str|weg|platz)`),
      "|",
    ),
  },
  {
    name: upTo200(
      Array.from({ length: 40 }, () => ".*[aeiou]"),
      "",
    ),
  },
  {
    name: upTo200(
      Array.from({ length: 40 }, () => "(str|weg)?"),
      "",
    ),
  },
  { name: "(.{1,10}){1,10}z" },
  { name: "x{0,255}y{0,255}" },
  { name: "[^x]*[^y]*[^z]*q" },
  { name: "ß|ä|ö|ü|é" },
  { name: "haupt.*str" },
  { name: "Schützenstr\\.", locality: "Bad Oldesloe" },
  { name: "[ck]arl" },
  { name: "B.rlin" },
  { postalCode: "^1(0|2)[0-9]{3}$" },
  { postalCode: "0" },
  { locality: "e" },
  { locality: ".*" },
  { locality: "^(Berlin|Hamburg|München)$" },
  { locality: "(ä|ö|ü)" },
  { name: ".*", postalCode: "[0-9]{5}" },
  { name: "(a|e)(i|n)", postalCode: "^10" },
];
for (const filters of extra) targets.add(targetOf(filters));

async function cost(handler: Handler, target: string) {
  await eventLoopTurn(); // untimed: tasks V8 posted during the previous request run here
  const before = mainCpu();
  const response = await handler(new Request(`https://bench${target}`));
  await response.arrayBuffer();
  return { ms: mainCpu() - before, status: response.status };
}

const rows: { target: string; cold: number; warm: number; status: number }[] = [];
const warm = createHandler(assets);
for (const target of targets) await cost(warm, target);
for (const target of targets) {
  let best = Infinity;
  let status = 0;
  for (let i = 0; i < passes; i++) {
    const c = await cost(warm, target);
    best = Math.min(best, c.ms);
    status = c.status;
  }
  // The same request on the warm handler just before: the code it runs is compiled. Then every
  // memo and kept pattern is emptied, as in a new isolate.
  await cost(warm, target);
  forgetIsolateState();
  const cold = await cost(createHandler(assets), target);
  rows.push({ target, cold: cold.ms, warm: best, status });
}

const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(
  `Worker main-thread CPU per /de/Streets pattern request, in-process (${root}); ${rows.length} requests, each after an untimed turn of the event loop; cold = a single first request; warm = least of ${passes}; load average ${load}`,
);
const summary = (label: string, figures: number[]): string => {
  const sorted = [...figures].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return `${label}: max ${at(1).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, p50 ${at(0.5).toFixed(2)} ms`;
};
const answered = rows.filter((r) => r.status === 200);
const refused = rows.filter((r) => r.status === 400);
for (const [label, list] of [
  ["answered", answered],
  ["refused", refused],
] as const) {
  console.log(`${label} (${list.length}):`);
  console.log(
    `  ${summary(
      "warm",
      list.map((r) => r.warm),
    )}`,
  );
  console.log(
    `  ${summary(
      "cold",
      list.map((r) => r.cold),
    )}`,
  );
}
for (const which of ["cold", "warm"] as const) {
  console.log(`ten most expensive ${which} (${which} ms, the other, status):`);
  for (const r of [...rows].sort((a, b) => b[which] - a[which]).slice(0, 10))
    console.log(
      `  ${r[which].toFixed(2).padStart(7)} ${r[which === "cold" ? "warm" : "cold"].toFixed(2).padStart(7)}  ${r.status} ${decodeURIComponent(r.target).slice(0, 120)}`,
    );
}
const over = rows.filter((r) => r.cold > ceiling || r.warm > ceiling);
console.log(`requests over ${ceiling} ms (cold or warm): ${over.length}`);
for (const r of over)
  console.log(
    `  ${decodeURIComponent(r.target)}: cold ${r.cold.toFixed(2)}, warm ${r.warm.toFixed(2)}`,
  );
const failed = rows.filter((r) => r.status !== 200 && r.status !== 400);
console.log(`requests answered neither 200 nor 400: ${failed.length}`);
for (const r of failed) console.log(`  ${decodeURIComponent(r.target)}: ${r.status}`);
if (over.length > 0 || failed.length > 0) process.exitCode = 1;
