/**
 * The hostile cases of `npm run bench:serve`: clients that stop reading, and a client that
 * pipelines a thousand requests for large files and never reads, each from its own loopback
 * address (127.0.0.2) while other clients (autocannon, 127.0.0.1) load the server as in the
 * table. Prints the server's memory before, at its most during and after the attack, the other
 * clients' requests and failures (errors, timeouts, any status but the page's 200; never retried),
 * and what happened to the attacking connections.
 */
import autocannon from "autocannon";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import type { RunningServer } from "../generator/serve/child.ts";

/** Where the attacks come from: another address than the other clients' (127.0.0.1). */
const ATTACKER = "127.0.0.2";

export interface AttackOptions {
  /** Connections that each ask for a large download and never read (the 1,030). */
  readonly slowReaders: number;
  /** Seconds the slow readers stay, and the other clients' load runs beside them. */
  readonly slowSeconds: number;
  /** Connections that each pipeline `pipelined` requests and never read. */
  readonly pipeliners: number;
  readonly pipelined: number;
  /** Seconds the pipeliners stay. */
  readonly pipelineSeconds: number;
  /** The other clients' connections. */
  readonly connections: number;
}

export interface AttackResult {
  readonly name: string;
  readonly rssBefore: number;
  readonly rssMost: number;
  readonly rssAfter: number;
  readonly requests: number;
  readonly failures: number;
  readonly note: string;
}

/** The build's largest download, and its largest under 1 MiB (the files the old server read whole per request). */
export function downloadsOf(dir: string): { largest: string; underMiB: string } {
  const downloads = readFileSync(join(dir, "_files.tsv"), "utf8")
    .split("\n")
    .map((line) => line.split("\t"))
    .filter(([path = ""]) => path.startsWith("/downloads/") && !path.endsWith(".gz"))
    .map(([path = "", , bytes = "0"]) => ({ path, bytes: Number(bytes) }))
    .sort((a, b) => b.bytes - a.bytes);
  const underMiB = downloads.find((d) => d.bytes < 1 << 20) ?? downloads[0];
  return { largest: downloads[0]?.path ?? "/", underMiB: underMiB?.path ?? "/" };
}

/** Opens `count` connections from the attacker's address, each writing `bytes` and never reading. */
function attackers(origin: string, count: number, bytes: string): Socket[] {
  const { hostname, port } = new URL(origin);
  return Array.from({ length: count }, () => {
    const socket = connect({ host: hostname, port: Number(port), localAddress: ATTACKER }, () =>
      socket.write(bytes),
    );
    socket.pause(); // never reads: what the server sends piles up in its buffers
    socket.on("error", () => undefined);
    return socket;
  });
}

/**
 * How many of the connections the server has closed: each starts reading now (a paused socket
 * learns of the close only by reading), and is counted once it closes (an end or a reset) within 2 s.
 */
async function closedByServer(sockets: readonly Socket[]): Promise<number> {
  let closed = 0;
  for (const socket of sockets) {
    if (socket.destroyed) closed++;
    else socket.once("close", () => closed++);
    socket.resume();
  }
  await settle(2_000);
  return closed;
}

/** Other clients on one page for `seconds`: requests, and failures of every kind. */
function otherClients(
  origin: string,
  path: string,
  seconds: number,
  connections: number,
): Promise<{ requests: number; failures: number; statuses: string }> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `${origin}${path}`, connections, duration: seconds, timeout: 10 },
      (error, result) => {
        if (error !== null && error !== undefined) return reject(error as Error);
        const codes = Object.entries(result.statusCodeStats ?? {}).map(
          ([code, stat]) => [code, (stat as { count: number }).count] as const,
        );
        const wrong = codes.filter(([code]) => code !== "200").reduce((sum, [, n]) => sum + n, 0);
        const failed = [
          ...codes.map(([code, n]) => `${code}: ${n}`),
          `errors: ${result.errors}`,
          `timeouts: ${result.timeouts}`,
        ];
        resolve({
          requests: result.requests.total,
          failures: wrong + result.errors,
          statuses: failed.join(", "),
        });
      },
    );
  });
}

/** Samples the server's memory every half second while `work` runs; the most it saw. */
async function sampling<T>(server: RunningServer, work: Promise<T>): Promise<[T, number]> {
  let most = server.rssKiB();
  const timer = setInterval(() => (most = Math.max(most, server.rssKiB())), 500);
  try {
    return [await work, Math.max(most, server.rssKiB())];
  } finally {
    clearInterval(timer);
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runAttacks(
  server: RunningServer,
  dir: string,
  page: string,
  options: AttackOptions,
  log: (line: string) => void,
): Promise<AttackResult[]> {
  const { largest, underMiB } = downloadsOf(dir);
  /** One attack: its connections open while other clients load the server for `seconds`. */
  const attack = async (
    name: string,
    described: string,
    count: number,
    bytes: string,
    seconds: number,
  ): Promise<AttackResult> => {
    log(`attack: ${described} …`);
    const rssBefore = server.rssKiB();
    const sockets = attackers(server.origin, count, bytes);
    const [others, rssMost] = await sampling(
      server,
      otherClients(server.origin, page, seconds, options.connections),
    );
    const closed = await closedByServer(sockets);
    sockets.forEach((socket) => socket.destroy());
    await settle(3_000);
    return {
      name,
      rssBefore,
      rssMost,
      rssAfter: server.rssKiB(),
      requests: others.requests,
      failures: others.failures,
      note: `other clients' answers ${others.statuses}; ${closed} of ${count} attacking connections closed by the server by the end`,
    };
  };
  return [
    await attack(
      `${options.slowReaders} slow readers, ${options.slowSeconds} s`,
      `${options.slowReaders} slow readers of ${largest} for ${options.slowSeconds} s`,
      options.slowReaders,
      `GET ${largest} HTTP/1.1\r\nHost: x\r\n\r\n`,
      options.slowSeconds,
    ),
    await attack(
      `${options.pipeliners} × ${options.pipelined} pipelined, ${options.pipelineSeconds} s`,
      `${options.pipeliners} connections pipelining ${options.pipelined} × ${underMiB} for ${options.pipelineSeconds} s`,
      options.pipeliners,
      `GET ${underMiB} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(options.pipelined),
      options.pipelineSeconds,
    ),
  ];
}
