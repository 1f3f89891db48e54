/**
 * `npm run bench:serve`: the ways to serve a build, side by side on the same machine state, in one
 * table: nginx (Debian's package, installed with apt when missing, on loopback) serving the written
 * page's file directly, `wrangler dev`, and the project's server (`npm run serve`: its own asset
 * path and the Worker in Node). For a written page, a cut page, a CSV page, an unknown locality and
 * a 400, at 64 connections for 15 s each (autocannon; a failed request is counted, never retried).
 * Then, for the server: its memory (every process) after the first 50,000 and after 300,000
 * written-page requests, a 60 s soak over the mixed kinds of `npm run load` plus street
 * searches and an asset, and two attacks beside other clients' load (serve-attacks.ts): 1,030
 * connections that ask for the largest download and never read, and three that each pipeline
 * 1,000 requests for the largest download under 1 MiB and never read, with the server's memory
 * before, at its most and after, and the other clients' failures.
 *
 *   npm run bench:serve -- [--dir DIR] [--duration 15] [--connections 64] [--soak 60] [--growth 300000] [--workers 1] [--no-wrangler]
 *                          [--attacks-only] [--slow-readers 1030] [--slow-seconds 45] [--pipelined 1000] [--server-root DIR]
 *
 * Without --dir it builds the embedded data into a temporary directory. `--server-root` serves with
 * another checkout's server (e.g. the commit before a change, for before/after figures).
 */
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildToDirectory } from "../generator/build/build.ts";
import { freePort, spawnServer, type RunningServer } from "../generator/serve/child.ts";
import { SERVE_NODE_FLAGS, startLocalServer } from "../generator/serve/local.ts";
import { HEALTH_PATH } from "../generator/serve/child.ts";
import { runAttacks } from "./serve-attacks.ts";
import { startWranglerDev } from "../generator/serve/wrangler-dev.ts";
import { LOAD_REQUESTS } from "./load-requests.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    dir: { type: "string" },
    duration: { type: "string", default: "15" },
    connections: { type: "string", default: "64" },
    soak: { type: "string", default: "60" },
    growth: { type: "string", default: "300000" },
    workers: { type: "string", default: "1" },
    "no-wrangler": { type: "boolean", default: false },
    "attacks-only": { type: "boolean", default: false },
    "slow-readers": { type: "string", default: "1030" },
    "slow-seconds": { type: "string", default: "45" },
    pipelined: { type: "string", default: "1000" },
    "server-root": { type: "string" },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);

/** The request kinds of the table; `status`: what a correct answer is. */
const KINDS = [
  { name: "written page", path: "/de/Streets?locality=Berlin&page=100", status: 200 },
  { name: "cut page", path: "/de/Streets?locality=Berlin&page=77&pageSize=13", status: 200 },
  { name: "CSV page", path: "/de/Streets?locality=Berlin&page=100&format=csv", status: 200 },
  { name: "unknown locality", path: "/de/Streets?locality=Atlantis", status: 200 },
  { name: "400", path: "/de/Streets?locality=Berlin&pageSize=51", status: 400 },
] as const;

/** Street searches beside the load's kinds in the soak: the expensive requests that once starved the rest. */
const SEARCHES = [
  { path: "/de/FullTextSearch?searchTerm=be&lastWordPrefix=true&page=5" },
  { path: "/de/FullTextSearch?searchTerm=berlin%20str&lastWordPrefix=true" },
  { path: "/de/Streets?name=a&page=3" },
  { path: "/de/Streets?name=Haupt&postalCode=1" },
  { path: "/docs.js" },
];
const SOAK = [...LOAD_REQUESTS, ...SEARCHES];

interface Run {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly total: number;
  readonly errors: number;
  readonly closed: number;
  readonly timeouts: number;
  /** Answers with another status than the correct one. */
  readonly wrong: number;
  /** CPU of this process (autocannon, the load generator) per second of the run: 100 = one core. */
  readonly loadCpu: number;
}

/** One autocannon run; never retries, counts errors by kind (a closed connection is ECONNRESET, EPIPE or "other side closed"). */
function load(
  origin: string,
  requests: readonly { path: string; headers?: Record<string, string> }[],
  expected: (status: string) => boolean,
  limit: { duration: number } | { amount: number },
): Promise<Run> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    let closed = 0;
    const instance = autocannon(
      {
        url: origin,
        connections,
        requests: requests.map((r) => ({ method: "GET", path: r.path, headers: r.headers ?? {} })),
        ...limit,
      },
      (error, result) => {
        if (error !== null && error !== undefined) return reject(error as Error);
        const used = process.cpuUsage(cpu);
        const loadCpu = (used.user + used.system) / 10 / (performance.now() - started);
        const wrong = Object.entries(result.statusCodeStats ?? {}).reduce(
          (sum, [code, stat]) => sum + (expected(code) ? 0 : (stat as { count: number }).count),
          0,
        );
        resolvePromise({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          total: result.requests.total,
          errors: result.errors,
          closed,
          timeouts: result.timeouts,
          wrong,
          loadCpu,
        });
      },
    );
    instance.on("reqError", (error: NodeJS.ErrnoException) => {
      if (
        error.code === "ECONNRESET" ||
        error.code === "EPIPE" ||
        /other side closed|socket hang up/i.test(error.message)
      )
        closed++;
    });
  });
}

const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`;
const table: string[][] = [
  [
    "server",
    "request",
    "req/s",
    "p50 ms",
    "p99 ms",
    "requests",
    "errors",
    "closed",
    "timeouts",
    "wrong status",
    "RSS after",
    "autocannon CPU",
  ],
];
const notes: string[] = [];
const row = (server: string, kind: string, run: Run, rss: number) =>
  table.push([
    server,
    kind,
    shown(run.rps.toFixed(0)),
    shown(String(run.p50)),
    shown(String(run.p99)),
    String(run.total),
    String(run.errors),
    String(run.closed),
    String(run.timeouts),
    String(run.wrong),
    mib(rss),
    shown(`${run.loadCpu.toFixed(0)}%`),
  ]);
/** A figure a row does not measure (an attack's latency) shows as "-". */
const shown = (cell: string) => (cell.startsWith("NaN") ? "-" : cell);

const work = mkdtempSync(join(tmpdir(), "plz-bench-serve-"));
const dir = args.dir === undefined ? join(work, "dist") : resolve(args.dir);
if (args.dir === undefined) {
  process.stderr.write("building the embedded data …\n");
  await buildToDirectory(
    {
      root: ROOT,
      sources: {},
      maxFiles: 100_000,
      headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
    },
    dir,
  );
}
const files = readFileSync(join(dir, "_files.tsv"), "utf8").trimEnd().split("\n").length;
notes.push(
  `build ${dir}: ${files} files; machine: load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} at the start`,
);

/** Starts a server, timing the first answer from the spawn; runs `work` with it; always stops it. */
async function withServer(
  name: string,
  start: () => Promise<RunningServer>,
  work: (server: RunningServer) => Promise<void>,
): Promise<void> {
  const started = performance.now();
  let server: RunningServer | undefined;
  try {
    server = await start();
    notes.push(
      `${name}: first answer ${((performance.now() - started) / 1000).toFixed(1)} s after the start, idle RSS ${mib(server.rssKiB())} (every process)`,
    );
    await work(server);
  } catch (error) {
    process.exitCode = 1;
    notes.push(
      `${name}: FAILED: ${error instanceof Error ? firstAndLastLine(error.message) : String(error)}`,
    );
  } finally {
    await server?.stop();
  }
}

async function table5(name: string, server: RunningServer): Promise<void> {
  for (const kind of KINDS) {
    // Warm up; a failure is a note (wrangler dev has reset connections here), not the end of the bench.
    await fetch(`${server.origin}${kind.path}`).then(
      (r) => r.arrayBuffer(),
      (error: Error) =>
        notes.push(
          `${name}: the warm-up request for the ${kind.name} failed (${String(error.cause ?? error.message)}); not retried`,
        ),
    );
    process.stderr.write(`${name}: ${kind.name} …\n`);
    row(
      name,
      kind.name,
      await load(server.origin, [{ path: kind.path }], (code) => Number(code) === kind.status, {
        duration,
      }),
      server.rssKiB(),
    );
  }
}

/** The server as `npm run serve` runs it, of this checkout or of `--server-root`. */
async function startServer(): Promise<RunningServer> {
  const root = args["server-root"];
  if (root === undefined) return startLocalServer(dir, { workers: Number(args.workers) });
  const port = await freePort();
  const cli = [join(resolve(root), "generator/cli/main.ts"), "serve", "--dir", dir];
  return spawnServer(
    `the server of ${root}`,
    process.execPath,
    [...SERVE_NODE_FLAGS, "--import", "tsx", ...cli, "--port", String(port)],
    `http://127.0.0.1:${port}`,
    HEALTH_PATH,
    { timeoutMs: 60_000 },
  );
}

/** The attacks, in a server of their own: what they leave behind is not the table's. */
async function attacks(): Promise<void> {
  await withServer("server (attacks)", startServer, async (server) => {
    const results = await runAttacks(
      server,
      dir,
      KINDS[0].path,
      {
        slowReaders: Number(args["slow-readers"]),
        slowSeconds: Number(args["slow-seconds"]),
        pipeliners: 3,
        pipelined: Number(args.pipelined),
        pipelineSeconds: 10,
        connections,
      },
      (line) => process.stderr.write(`${line}\n`),
    );
    for (const r of results) {
      row(
        "server",
        `attack: ${r.name}`,
        { ...EMPTY_RUN, total: r.requests, wrong: r.failures },
        r.rssAfter,
      );
      notes.push(
        `server, ${r.name}: RSS ${mib(r.rssBefore)} before, ${mib(r.rssMost)} at most during, ${mib(r.rssAfter)} after the attackers left; other clients (${connections} connections on the written page): ${r.requests} requests, ${r.failures} failed (errors, timeouts, any status but 200); ${r.note}`,
      );
    }
  });
}

/** A table row for an attack: only its requests and failures are figures of their own. */
const EMPTY_RUN: Run = {
  rps: Number.NaN,
  p50: Number.NaN,
  p99: Number.NaN,
  total: 0,
  errors: 0,
  closed: 0,
  timeouts: 0,
  wrong: 0,
  loadCpu: Number.NaN,
};

if (args["attacks-only"]) {
  await attacks();
  printTable();
  process.exit(process.exitCode ?? 0);
}

// The new server first: its written page tells which file nginx serves (the same bytes).
let pageFile = "";
await withServer("server (npm run serve)", startServer, async (server) => {
  const page = Buffer.from(await (await fetch(`${server.origin}${KINDS[0].path}`)).arrayBuffer());
  const digest = createHash("sha256").update(page).digest("base64url");
  pageFile =
    readFileSync(join(dir, "_files.tsv"), "utf8")
      .split("\n")
      .find((line) => line.split("\t")[1] === digest)
      ?.split("\t")[0] ?? "";
  // A build whose street pages are all packed (a free account's national build) has no file
  // for it: the page is then cut like the cut page, and nginx has nothing to compare.
  if (pageFile === "")
    notes.push(
      `the "written page" ${KINDS[0].path} is no file of this build (its page size is packed): cut from the packed records, no nginx row`,
    );
  await table5("server", server);
  const growth = Number(args.growth);
  if (growth > 0) {
    // Memory after the first 50,000 (or a sixth) and after all: growth between is what a long run adds.
    const first = Math.min(50_000, Math.floor(growth / 6));
    process.stderr.write(`server: ${growth} written-page requests …\n`);
    const early = await load(server.origin, [{ path: KINDS[0].path }], (code) => code === "200", {
      amount: first,
    });
    const before = server.rssKiB();
    const late = await load(server.origin, [{ path: KINDS[0].path }], (code) => code === "200", {
      amount: growth - first,
    });
    const after = server.rssKiB();
    row("server", `first ${first} written pages`, early, before);
    row("server", `next ${growth - first} written pages`, late, after);
    notes.push(
      `server: RSS ${mib(before)} after ${first} written-page requests, ${mib(after)} after ${growth} (${(((after - before) / before) * 100).toFixed(1)}% growth)`,
    );
  }
  const soak = Number(args.soak);
  if (soak > 0) {
    process.stderr.write(`server: ${soak} s soak over ${SOAK.length} mixed kinds …\n`);
    const before = server.rssKiB();
    // Memory along the soak, not only at its end: flat means no trend between the samples.
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(server.rssKiB()), 15_000);
    const run = await load(server.origin, SOAK, (code) => Number(code) < 500, {
      duration: soak,
    }).finally(() => clearInterval(sampler));
    row("server", `${soak} s soak (mixed, 5xx = wrong)`, run, server.rssKiB());
    notes.push(
      `server: RSS ${mib(before)} before the soak, ${mib(server.rssKiB())} after; every 15 s during it: ${samples.map((kib) => Math.round(kib / 1024)).join(", ")} MiB; the soak's kinds: npm run load's and ${SEARCHES.length} street searches`,
    );
  }
});

await attacks();

if (pageFile !== "")
  await withServer(
    "nginx",
    () => startNginx(dir),
    async (server) => {
      process.stderr.write("nginx: the written page's file …\n");
      const run = await load(server.origin, [{ path: pageFile }], (code) => code === "200", {
        duration,
      });
      row("nginx", `written page (${pageFile})`, run, server.rssKiB());
    },
  );

if (args["no-wrangler"] !== true)
  await withServer(
    "wrangler dev",
    () => startWranglerDev(dir),
    (server) => table5("wrangler dev", server),
  );

printTable();

function printTable(): void {
  const widths = table[0]?.map((_, i) => Math.max(...table.map((r) => (r[i] ?? "").length))) ?? [];
  process.stdout.write(
    `${table.map((r) => r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ")).join("\n")}\n\n${notes.join("\n")}\n`,
  );
  process.stdout.write(
    `${duration} s per kind at ${connections} connections (autocannon, no retries); closed = connections closed by the server mid-request; autocannon CPU = the load generator's share of the machine's cores it took (100% = one core), not pinned: on a 2-core machine it competes with the server; an attack's row: the other clients' requests and failures during it, and the server's RSS after it\n`,
  );
  rmSync(work, { recursive: true, force: true });
}

/** nginx on loopback serving the build directory as plain files (Debian's package; installed when missing). */
async function startNginx(root: string): Promise<RunningServer> {
  const nginx = "/usr/sbin/nginx";
  if (!existsSync(nginx)) {
    process.stderr.write("installing nginx (apt-get) …\n");
    const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
    execFileSync(
      sudo[0] ?? "apt-get",
      [
        ...sudo.slice(1),
        ...(sudo.length > 0 ? ["apt-get"] : []),
        "install",
        "-y",
        "--no-install-recommends",
        "nginx",
      ],
      { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } },
    );
  }
  chmodSync(work, 0o755); // nginx's workers run as www-data: the temporary build must be readable
  const port = await freePort();
  const prefix = mkdtempSync(join(work, "nginx-"));
  const conf = join(prefix, "nginx.conf");
  writeFileSync(
    conf,
    `daemon off;\nworker_processes auto;\npid ${prefix}/nginx.pid;\nerror_log stderr warn;\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n  include /etc/nginx/mime.types;\n  sendfile on;\n  keepalive_requests 1000000;\n  client_body_temp_path ${prefix}; proxy_temp_path ${prefix}; fastcgi_temp_path ${prefix}; uwsgi_temp_path ${prefix}; scgi_temp_path ${prefix};\n  server { listen 127.0.0.1:${port}; root ${root}; }\n}\n`,
  );
  return spawnServer(
    "nginx",
    nginx,
    ["-c", conf, "-p", prefix, "-e", "stderr"],
    `http://127.0.0.1:${port}`,
    pageFile,
    { timeoutMs: 30_000 },
  );
}

/** An error's first line and, when the server printed more, its last (the reason it gave). */
function firstAndLastLine(message: string): string {
  const lines = message.split("\n").filter((line) => line.trim() !== "");
  return lines.length > 1 ? `${lines[0]} ${lines.at(-1)}` : (lines[0] ?? "");
}
