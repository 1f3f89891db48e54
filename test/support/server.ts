import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "./paths.ts";

export interface RunningServer {
  readonly origin: string;
  /** Resident memory of the server's processes (wrangler and workerd), in KiB, from /proc. */
  rssKiB(): number;
  stop(): Promise<void>;
}

/** Serves a built directory with `wrangler dev` (workerd, real `_headers` and asset semantics) on loopback. */
export async function startServer(dir: string): Promise<RunningServer> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const child = spawn(
    join(ROOT, "node_modules/.bin/wrangler"),
    ["dev", "--config", join(ROOT, "wrangler.jsonc"), "--assets", dir, "--port", String(port), "--ip", "127.0.0.1", "--inspector-port", String(inspectorPort), "--show-interactive-dev-session=false", "--log-level", "error"],
    { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  const log = process.env["PLZ_SERVER_LOG"]; // keep the server's output, e.g. for long benchmarks
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (log !== undefined) appendFileSync(log, chunk);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
    try {
      const response = await fetch(`${origin}/de/FederalStates`, { signal: AbortSignal.timeout(5_000) });
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

export interface RawResponse {
  readonly status: number;
  /** Header lines exactly as sent (name case and order), without Date. */
  readonly rawHeaders: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly text: string;
}

/** One HTTP request with node:http, which keeps header names and order as they came on the wire. */
export function rawRequest(origin: string, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method: init.method ?? "GET", headers: init.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const rawHeaders: string[] = [];
        const headers: Record<string, string> = {};
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] ?? "";
          const value = res.rawHeaders[i + 1] ?? "";
          if (name.toLowerCase() === "date") continue;
          rawHeaders.push(`${name}: ${value}`);
          headers[name.toLowerCase()] = value;
        }
        resolve({ status: res.statusCode ?? 0, rawHeaders, headers, body, text: body.toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
