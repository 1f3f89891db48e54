/**
 * The street searches refused as too broad (400), each with its main-thread CPU warm (least of
 * --passes, after a warm-up pass) and as a fresh isolate's first request (bench/search-cold.ts,
 * least of --cold-passes processes), over a built national index (`npm run bench:search` builds
 * one). Without --targets the requests are the query mix and the adversarial mix; the refused ones
 * are written to --save so later runs can time just them.
 *
 *   npx tsx bench/search-refusals.ts --out DIR [--targets FILE | --save FILE] [--passes N] [--cold-passes N]
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createHandler } from "../generator/edge/handler.ts";
import { readStreets } from "../generator/sources/de-streets.ts";
import { adversarialMix, requestPath, type AdversarialRequest } from "./search-adversarial.ts";
import type { ColdCost } from "./search-cold.ts";
import { mainCpu } from "./main-cpu.ts";
import { buildAssets } from "./search-assets.ts";
import { searchMix, type SearchRequest } from "./search-mix.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    source: { type: "string", default: "/tmp/national-streets.csv" },
    out: { type: "string" },
    targets: { type: "string" },
    save: { type: "string" },
    seed: { type: "string", default: "13" },
    passes: { type: "string", default: "5" },
    "cold-passes": { type: "string", default: "3" },
  },
});
if (args.out === undefined) throw new Error("--out DIR (a built index) is required");
const out = resolve(args.out);

const handler = createHandler(buildAssets(out, "response").assets);
async function run(url: string): Promise<{ main: number; status: number }> {
  const started = mainCpu();
  const response = await handler(new Request(`http://bench${url}`));
  await response.arrayBuffer();
  return { main: mainCpu() - started, status: response.status };
}

let candidates: string[];
if (args.targets !== undefined) candidates = JSON.parse(readFileSync(args.targets, "utf8"));
else {
  const source = resolve(args.source);
  const streets = await readStreets(readFileSync(source), source);
  candidates = [...searchMix(streets, Number(args.seed)), ...adversarialMix(streets)].map(
    requestPath,
  );
}
// A warm-up pass over every candidate (as the bench's), then the refused ones timed.
const status = new Map<string, number>();
for (const url of candidates) status.set(url, (await run(url)).status);
const refused = candidates.filter((url) => status.get(url) === 400);
const failures = candidates.filter((url) => ![200, 400].includes(status.get(url) ?? 0));
if (args.save !== undefined) writeFileSync(args.save, JSON.stringify(refused));
const warm = refused.map(() => Infinity);
for (let pass = 0; pass < Number(args.passes); pass++)
  for (const [i, url] of refused.entries()) {
    const cost = await run(url);
    warm[i] = Math.min(warm[i] ?? Infinity, cost.main);
  }
const cold = refused.map(() => Infinity);
for (let pass = 0; pass < Number(args["cold-passes"]) && refused.length > 0; pass++) {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, join(ROOT, "bench", "search-cold.ts"), out],
    { cwd: ROOT, input: JSON.stringify(refused), encoding: "utf8", maxBuffer: 1 << 28 },
  );
  if (child.status !== 0) throw new Error(`bench/search-cold.ts exited with ${child.status}`);
  (JSON.parse(child.stdout) as ColdCost[]).forEach((c, i) => {
    if (c.status !== 400) failures.push(`${refused[i]} (cold status ${c.status})`);
    cold[i] = Math.min(cold[i] ?? Infinity, c.main);
  });
}
const order = refused.map((_, i) => i).sort((a, b) => (warm[b] ?? 0) - (warm[a] ?? 0));
for (const i of order)
  process.stdout.write(
    `${(warm[i] ?? NaN).toFixed(3).padStart(7)}  ${(cold[i] ?? NaN).toFixed(3).padStart(7)}  ${decodeURIComponent(refused[i] ?? "")}\n`,
  );
const max = (values: number[]) => (values.length === 0 ? NaN : Math.max(...values));
process.stdout.write(
  `refused ${refused.length} of ${candidates.length}; warm max ${max(warm).toFixed(3)} ms, cold max ${max(cold).toFixed(3)} ms (least of ${args.passes} / ${args["cold-passes"]}); failures ${failures.length}${failures.length > 0 ? `: ${failures.join(", ")}` : ""}\n`,
);
