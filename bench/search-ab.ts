/**
 * `npm run bench:search-ab`: the warm CPU of the same street-search requests on two versions of the
 * code, each over its own build of the same rows: is any request class dearer after a change?
 * Each side runs in processes of its own (bench/search-warm.ts of that checkout: one handler, an
 * untimed pass, then --passes timed passes, the least main-thread CPU per request). The sides
 * alternate for --rounds rounds, and a request's figure is its least over them, so a burst of
 * load on this shared machine slows one round of one side, not the comparison.
 *
 * Printed per mix and class: old and new p50 / p99 / max of that least CPU, the requests whose
 * status changed (a former 400 now answered is a moved boundary; `npm run diff:search` checks its
 * answer), then the requests that got dearer by the most and the costliest on the new side. No
 * request is retried; a side that fails ends the run with exit code 1.
 *
 *   npm run bench:search-ab -- --old-checkout DIR --old-out DIR --out DIR [--mix NAME …]
 *     [--source CSV] [--passes N] [--rounds N] [--top N]
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { mixTargets, type MixTarget } from "./search-mixes.ts";
import { percentile } from "./pass-stats.ts";
import type { WarmTimes } from "./search-warm.ts";

const { values } = parseArgs({
  options: {
    "old-checkout": { type: "string" },
    "old-out": { type: "string" },
    out: { type: "string" },
    mix: { type: "string", multiple: true, default: ["query", "adversarial", "address"] },
    source: { type: "string", default: "/tmp/national-streets.csv" },
    passes: { type: "string", default: "3" },
    rounds: { type: "string", default: "2" },
    top: { type: "string", default: "10" },
  },
});
const oldCheckout = values["old-checkout"];
const oldOut = values["old-out"];
if (oldCheckout === undefined || oldOut === undefined || values.out === undefined) {
  console.error(
    "usage: npm run bench:search-ab -- --old-checkout DIR --old-out DIR --out DIR [--mix NAME …]",
  );
  process.exit(2);
}
const sides = [
  { name: "old", checkout: resolve(oldCheckout), out: resolve(oldOut) },
  { name: "new", checkout: process.cwd(), out: resolve(values.out) },
] as const;

/** One side's least main-thread CPU and status per target, from one process. */
function warmRun(side: (typeof sides)[number], targets: readonly MixTarget[]): WarmTimes[] {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "bench/search-warm.ts", side.out, values.passes],
    {
      cwd: side.checkout,
      input: JSON.stringify(targets.map((t) => t.path)),
      maxBuffer: 1 << 30,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  if (run.status !== 0) {
    console.error(`the ${side.name} side failed (exit ${run.status ?? run.signal})`);
    process.exit(1);
  }
  return JSON.parse(run.stdout) as WarmTimes[];
}

const fmt = (ms: number) => ms.toFixed(2).padStart(7);
const stats = (ms: readonly number[]) =>
  `${fmt(percentile(ms, 50))} ${fmt(percentile(ms, 99))} ${fmt(Math.max(...ms))}`;

const targets = await mixTargets(values.mix, values.source);
const least = { old: [] as number[], new: [] as number[] };
const status = { old: [] as number[], new: [] as number[] };
for (let round = 0; round < Math.max(1, Number(values.rounds)); round++)
  for (const side of sides) {
    const started = performance.now();
    const times = warmRun(side, targets);
    times.forEach((t, i) => {
      least[side.name][i] = Math.min(least[side.name][i] ?? Infinity, t.main);
      status[side.name][i] = t.status;
    });
    console.error(
      `round ${round + 1}, ${side.name}: ${targets.length} requests in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }

const classes = new Map<string, number[]>();
targets.forEach((t, i) => {
  const key = `${t.mix} · ${t.class}`;
  classes.set(key, [...(classes.get(key) ?? []), i]);
});
console.log(
  `least main-thread CPU per request, ms (p50 p99 max); ${values.passes} passes × ${values.rounds} rounds`,
);
console.log(
  `${"mix · class".padEnd(52)} ${"n".padStart(5)}   old p50     p99     max   new p50     p99     max  status changed`,
);
for (const [key, indexes] of classes) {
  const pick = (side: "old" | "new") => indexes.map((i) => least[side][i] ?? NaN);
  const changed = indexes.filter((i) => status.old[i] !== status.new[i]);
  const moves = [...new Set(changed.map((i) => `${status.old[i]}→${status.new[i]}`))];
  console.log(
    `${key.slice(0, 52).padEnd(52)} ${String(indexes.length).padStart(5)} ${stats(pick("old"))} ${stats(pick("new"))}  ${changed.length === 0 ? "" : `${changed.length} (${moves.join(", ")})`}`,
  );
}
console.log(
  `\nper mix: old p50 p99 max, new p50 p99 max; requests over 7 ms old/new; status changed`,
);
for (const mix of new Set(targets.map((t) => t.mix))) {
  const indexes = targets.flatMap((t, i) => (t.mix === mix ? [i] : []));
  const pick = (side: "old" | "new") => indexes.map((i) => least[side][i] ?? NaN);
  const over = (side: "old" | "new") => pick(side).filter((ms) => ms > 7).length;
  const changed = indexes.filter((i) => status.old[i] !== status.new[i]).length;
  console.log(
    `${mix.padEnd(52)} ${String(indexes.length).padStart(5)} ${stats(pick("old"))} ${stats(pick("new"))}  ${over("old")}/${over("new")}  ${changed}`,
  );
}
const top = Number(values.top);
const rows = targets.map((t, i) => ({
  path: t.path,
  old: least.old[i] ?? NaN,
  new: least.new[i] ?? NaN,
  statuses: `${status.old[i]}/${status.new[i]}`,
}));
const line = (r: (typeof rows)[number]) =>
  `  old ${fmt(r.old)}  new ${fmt(r.new)}  ${r.statuses}  ${r.path}`;
console.log(`\nDearer by the most (new − old), both answered:`);
for (const r of rows
  .filter((r) => r.statuses === "200/200")
  .sort((a, b) => b.new - b.old - (a.new - a.old))
  .slice(0, top))
  console.log(line(r));
console.log(`\nCostliest on the new side:`);
for (const r of [...rows].sort((a, b) => b.new - a.new).slice(0, top)) console.log(line(r));
