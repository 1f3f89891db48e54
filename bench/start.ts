/**
 * `npm run bench:start`: what a new user waits for. A fresh clone of this checkout's committed
 * tree (or of `--repo`, e.g. an older checkout for a before figure), `npm ci` in it, then `npm start`
 * timed from the spawn to its first answer: the first start builds the embedded data into `dist/`,
 * the later ones find `dist/` current. Each answer is one request after the server says it serves
 * (`GET /de/Streets?locality=Berlin&page=2&pageSize=10`), never retried: a status other than 200 is
 * counted as a failure. Prints the figures with the load average before and after.
 *
 *   npm run bench:start -- [--repo DIR] [--vs DIR] [--runs 5] [--first-runs 1] [--link-modules] [--keep]
 *
 * `--vs DIR` clones and installs a second checkout (the before) and times the two in turns, each
 * start of one followed by the same start of the other, so that a change in the machine's load
 * falls on both. `--first-runs N` times the first start N times: after the first, `dist/` and
 * `.cache/` are removed again (what a fresh clone has not), node_modules kept. `--link-modules`
 * links each checkout's node_modules into its clone instead of `npm ci` (quicker, for trying
 * changes; the install is then not measured).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../generator/serve/child.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    repo: { type: "string", default: ROOT },
    vs: { type: "string" },
    runs: { type: "string", default: "5" },
    "first-runs": { type: "string", default: "1" },
    "link-modules": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const repos = [args.repo, ...(args.vs === undefined ? [] : [args.vs])].map((dir) => resolve(dir));
const runs = Number(args.runs);
const firstRuns = Number(args["first-runs"]);
const TARGET = "/de/Streets?locality=Berlin&page=2&pageSize=10";
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

interface Checkout {
  readonly repo: string;
  readonly clone: string;
  readonly commit: string;
  readonly install?: number;
  readonly first: number[];
  readonly current: number[];
}

const work = mkdtempSync(join(tmpdir(), "plz-bench-start-"));
const loadBefore = load();
let failures = 0;
try {
  const checkouts = repos.map((repo, i) => prepare(repo, join(work, `plz-${i}`)));
  for (let run = 0; run < firstRuns; run++)
    for (const checkout of turns(checkouts, run)) {
      if (run > 0)
        for (const dir of ["dist", ".cache"])
          rmSync(join(checkout.clone, dir), { recursive: true, force: true });
      checkout.first.push(await timeStart(checkout.clone));
      process.stderr.write(
        `${checkout.commit.slice(0, 7)} first npm start (builds dist/): ${checkout.first.at(-1)?.toFixed(2)} s (load ${load()})\n`,
      );
    }
  for (let run = 0; run < runs; run++)
    for (const checkout of turns(checkouts, run)) {
      checkout.current.push(await timeStart(checkout.clone));
      process.stderr.write(
        `${checkout.commit.slice(0, 7)} npm start, dist/ current: ${checkout.current.at(-1)?.toFixed(2)} s (load ${load()})\n`,
      );
    }
  const lines = checkouts.flatMap((checkout) => [
    `fresh clone of ${checkout.commit.slice(0, 60)}`,
    checkout.install === undefined
      ? "  npm ci: not run (--link-modules)"
      : `  npm ci: ${checkout.install.toFixed(1)} s`,
    `  npm start to the first answer, fresh clone (builds dist/): ${summary(checkout.first)}`,
    `  npm start to the first answer, dist/ current: ${summary(checkout.current)}`,
  ]);
  lines.push(
    `failed answers: ${failures}`,
    `load average (1, 5, 15 min): before ${loadBefore}, after ${load()}`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  if (!args.keep) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`kept ${work}\n`);
}
process.exit(failures === 0 ? 0 : 1);

/** Clones `repo` into `clone` and installs its packages. */
function prepare(repo: string, clone: string): Checkout {
  execFileSync("git", ["clone", "--quiet", repo, clone], { stdio: "inherit" });
  const commit = execFileSync("git", ["-C", clone, "log", "-1", "--format=%h %s"], {
    encoding: "utf8",
  }).trim();
  process.stderr.write(`clone of ${repo}: ${commit.slice(0, 100)}\n`);
  if (args["link-modules"]) {
    symlinkSync(join(repo, "node_modules"), join(clone, "node_modules"));
    return { repo, clone, commit, first: [], current: [] };
  }
  const started = performance.now();
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: clone, stdio: "ignore" });
  const install = (performance.now() - started) / 1000;
  process.stderr.write(`npm ci: ${install.toFixed(1)} s\n`);
  return { repo, clone, commit, install, first: [], current: [] };
}

/** The checkouts in the order of this run: the first goes first in even runs, last in odd ones. */
function turns(checkouts: readonly Checkout[], run: number): readonly Checkout[] {
  return run % 2 === 0 ? checkouts : [...checkouts].reverse();
}

/** One figure, or the median, least and most of several. */
function summary(seconds: readonly number[]): string {
  const sorted = [...seconds].sort((a, b) => a - b);
  if (sorted.length === 1) return `${sorted[0]?.toFixed(2)} s`;
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  return `median ${median.toFixed(2)} s, min ${sorted[0]?.toFixed(2)} s, max ${sorted.at(-1)?.toFixed(2)} s (${sorted.length} runs)`;
}

/** Seconds from spawning `npm start` in `dir` to its first answer; then stops it (SIGTERM) and waits for it. */
async function timeStart(dir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["start", "--", "--port", String(port)], {
    cwd: dir,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  let output = "";
  try {
    await new Promise<void>((ready, fail) => {
      const watch = (chunk: Buffer) => {
        output += chunk.toString();
        if (/^serving /m.test(output)) ready();
      };
      child.stdout.on("data", watch);
      child.stderr.on("data", watch);
      child.once("exit", (code) => fail(new Error(`npm start exited (${code}):\n${output}`)));
    });
    const response = await fetch(`http://127.0.0.1:${port}${TARGET}`);
    await response.arrayBuffer();
    const seconds = (performance.now() - started) / 1000;
    if (response.status !== 200) {
      failures++;
      process.stderr.write(`FAILED: ${TARGET} answered ${response.status}\n`);
    }
    return seconds;
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    await exited;
  }
}
