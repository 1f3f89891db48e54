import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { PROJECT_ROOT as ROOT } from "../io/read.ts";

export interface RunningServer {
  readonly origin: string;
  /** Resident memory of the server's processes (wrangler and workerd), in KiB, from /proc. */
  rssKiB(): number;
  /** Resolves when the server ends (its exit code), stopped or not. */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Default: a free port. */
  readonly port?: number;
  /** Default: loopback. */
  readonly host?: string;
  /** Pass the server's output through (the CLI) instead of keeping it for errors (tests, benchmarks). */
  readonly inheritOutput?: boolean;
  /** Another wrangler configuration than the project's `wrangler.jsonc` (tests of the configuration). */
  readonly config?: string;
}

/** Serves a built directory with `wrangler dev` (workerd, real `_headers` and asset semantics); resolves when it answers. */
export async function startWranglerDev(dir: string, options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const [port, inspectorPort] = [options.port ?? (await freePort()), await freePort()];
  const child = spawn(
    join(ROOT, "node_modules/.bin/wrangler"),
    ["dev", "--config", options.config ?? join(ROOT, "wrangler.jsonc"), "--assets", dir, "--port", String(port), "--ip", host, "--inspector-port", String(inspectorPort), "--show-interactive-dev-session=false", ...(options.inheritOutput === true ? [] : ["--log-level", "error"])],
    { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" }, stdio: ["ignore", options.inheritOutput === true ? "inherit" : "pipe", options.inheritOutput === true ? "inherit" : "pipe"], detached: true },
  );
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => (running.delete(child), resolve(code))));
  let output = "";
  const log = process.env["PLZ_SERVER_LOG"]; // keep the server's output, e.g. for long benchmarks
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (log !== undefined) appendFileSync(log, chunk);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const origin = `http://${host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
    try {
      const response = await fetch(`${origin}/`, { signal: AbortSignal.timeout(5_000) }); // the docs page: in every build
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      kill(child);
      throw new Error(`wrangler dev did not answer within 120 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    exited,
    rssKiB: () => groupRssKiB(child.pid ?? -1),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const force = setTimeout(() => kill(child, "SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        kill(child);
      }),
  };
}

/** Servers still running when the test process ends (a timed-out hook, a crash) are stopped too. */
const running = new Set<ChildProcess>();
process.once("exit", () => running.forEach((child) => kill(child, "SIGKILL")));

function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): void {
  if (child.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, signal); // the whole group: wrangler and its workerd
    } catch {
      child.kill(signal);
    }
  }
}

function groupRssKiB(groupId: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== groupId) continue; // field 5 of stat: the process group
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
