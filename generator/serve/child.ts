import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { PROJECT_ROOT as ROOT } from "../io/read.ts";

/** The local server's health endpoint: answered in front of the Worker (under /_*, so the router sends it there). */
export const HEALTH_PATH = "/_health";

/** A server running as a child process group (tests, benchmarks, verify). */
export interface RunningServer {
  readonly origin: string;
  /** Resident memory of every process of the server (its process group), in KiB, from /proc. */
  rssKiB(): number;
  /** Resolves when the server ends (its exit code), stopped or not. */
  readonly exited: Promise<number | null>;
  /** What it wrote so far (empty when its output is passed through). */
  output(): string;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Default: a free port. */
  readonly port?: number;
  /** Default: loopback. */
  readonly host?: string;
  /** Server processes (`serve --workers`); default one. */
  readonly workers?: number;
  /** Pass the server's output through (the CLI) instead of keeping it for errors (tests, benchmarks). */
  readonly inheritOutput?: boolean;
  /**
   * How long a start may take before it fails (a server that exits early fails at once). The
   * tests give their hang bound: a busy machine (load 6 on two cores) makes starts slow, not wrong.
   */
  readonly startTimeoutMs?: number;
}

/**
 * Starts `command` in its own process group and resolves once `GET origin + readyPath` answers 200
 * (within `timeoutMs`); on any failure the output so far is in the error.
 */
export async function spawnServer(
  name: string,
  command: string,
  args: readonly string[],
  origin: string,
  readyPath: string,
  options: { inheritOutput?: boolean; timeoutMs: number },
): Promise<RunningServer> {
  const inherit = options.inheritOutput === true;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      NO_COLOR: "1",
      MALLOC_ARENA_MAX: "2", // as npm run serve: fewer malloc arenas, less memory held
    },
    stdio: ["ignore", inherit ? "inherit" : "pipe", inherit ? "inherit" : "pipe"],
    detached: true,
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => (running.delete(child), resolve(code))),
  );
  // "exit" can come before the last output: an early exit waits for the streams to close.
  const closed = new Promise((resolve) => child.once("close", resolve));
  let output = "";
  const log = process.env["PLZ_SERVER_LOG"]; // keep the server's output, e.g. for long benchmarks
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (log !== undefined) appendFileSync(log, chunk);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      // What it started may live on and hold its output open (wrangler's esbuild service did,
      // and "close" never came): stop the group, and wait for the output a few seconds at most.
      killGroup(child, "SIGKILL");
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      throw new Error(`${name} exited early:\n${output}`);
    }
    try {
      const response = await fetch(`${origin}${readyPath}`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      kill(child, "SIGKILL");
      throw new Error(`${name} did not answer within ${options.timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    exited,
    output: () => output,
    rssKiB: () => groupRssKiB(child.pid ?? -1),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => kill(child, "SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        kill(child);
      }),
  };
}

/** The URL of a server listening on `host` (a wildcard address is reached on loopback). */
export function originOf(host: string, port: number): string {
  if (host === "0.0.0.0") return `http://127.0.0.1:${port}`;
  if (host === "::") return `http://[::1]:${port}`;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Servers still running when the test process ends (a timed-out hook, a crash) are stopped too. */
const running = new Set<ChildProcess>();
process.once("exit", () => running.forEach((child) => kill(child, "SIGKILL")));

/** Signals every process left in the child's group, also when the child itself has ended; false when none was. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
    return child.pid !== undefined;
  } catch {
    return false;
  }
}

function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): void {
  if (child.pid !== undefined && child.exitCode === null && !killGroup(child, signal))
    child.kill(signal);
}

/** Resident memory of every process in a process group, in KiB (Linux /proc). */
export function groupRssKiB(groupId: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== groupId) continue; // field 5 of stat: the process group
      total += Number(
        /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1] ?? 0,
      );
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/**
 * Ports freePort handed out in this process. Two probes in a row may get the same port from the
 * system, and two servers started together were given one (wrangler dev then found it taken:
 * "Address already in use", in CI): a port is handed out once per process.
 */
const handedOut = new Set<number>();

/** A port free on `host` now, never one this process was given before. */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  for (;;) {
    const port = await probePort(host);
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function probePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
