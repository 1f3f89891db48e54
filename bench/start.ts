/**
 * `npm run bench:start`: what a new user waits for. A fresh clone of this checkout's committed
 * tree (or of `--repo`, e.g. an older checkout for a before figure), `npm ci` in it, then `npm start`
 * timed from the spawn to its first answer: the first start builds the embedded data into `dist/`,
 * the later ones find `dist/` current. Each answer is one request after the server says it serves
 * (`GET /de/Streets?locality=Berlin&page=2&pageSize=10`), never retried: a status other than 200 is
 * counted as a failure. Prints the figures with the load average before and after.
 *
 *   npm run bench:start -- [--repo DIR] [--runs 5] [--link-modules] [--keep]
 *
 * `--link-modules` links the checkout's node_modules into the clone instead of `npm ci` (quicker,
 * for trying changes; the install is then not measured).
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
    runs: { type: "string", default: "5" },
    "link-modules": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const repo = resolve(args.repo);
const runs = Number(args.runs);
const TARGET = "/de/Streets?locality=Berlin&page=2&pageSize=10";
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

const work = mkdtempSync(join(tmpdir(), "plz-bench-start-"));
const clone = join(work, "plz");
const loadBefore = load();
let failures = 0;
try {
  execFileSync("git", ["clone", "--quiet", repo, clone], { stdio: "inherit" });
  const commit = execFileSync("git", ["-C", clone, "log", "-1", "--format=%h %s"], {
    encoding: "utf8",
  }).trim();
  process.stderr.write(`clone of ${repo}: ${commit.slice(0, 100)}\n`);
  let installSeconds: number | undefined;
  if (args["link-modules"]) symlinkSync(join(repo, "node_modules"), join(clone, "node_modules"));
  else {
    const started = performance.now();
    execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: clone, stdio: "ignore" });
    installSeconds = (performance.now() - started) / 1000;
    process.stderr.write(`npm ci: ${installSeconds.toFixed(1)} s\n`);
  }
  const first = await timeStart(clone);
  process.stderr.write(`first npm start (builds dist/): ${first.toFixed(2)} s\n`);
  const current: number[] = [];
  for (let i = 0; i < runs; i++) {
    current.push(await timeStart(clone));
    process.stderr.write(`npm start, dist/ current: ${current.at(-1)?.toFixed(2)} s\n`);
  }
  current.sort((a, b) => a - b);
  const median = current[Math.floor(current.length / 2)] ?? NaN;
  const lines = [
    `fresh clone of ${commit.slice(0, 60)}`,
    installSeconds === undefined
      ? "npm ci: not run (--link-modules)"
      : `npm ci: ${installSeconds.toFixed(1)} s`,
    `npm start to the first answer, fresh clone (builds dist/): ${first.toFixed(2)} s`,
    `npm start to the first answer, dist/ current: median ${median.toFixed(2)} s, min ${current[0]?.toFixed(2)} s, max ${current.at(-1)?.toFixed(2)} s (${runs} runs)`,
    `failed answers: ${failures}`,
    `load average (1, 5, 15 min): before ${loadBefore}, after ${load()}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  if (!args.keep) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`kept ${work}\n`);
}
process.exit(failures === 0 ? 0 : 1);

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
