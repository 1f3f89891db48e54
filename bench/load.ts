/**
 * `npm run load`: a bounded 30-second load test on loopback. It serves the embedded build (built
 * into a temporary directory) with the local server (npm run serve) and sends a mix of first pages, deep pages, pages
 * cut from size 50, CSV, unknown localities and invalid requests with autocannon. It fails on any
 * connection error, timeout or 5xx, and prints throughput, latency and the runtime's memory.
 *
 *   npm run load -- [--duration 30] [--connections 10]
 */
import autocannon from "autocannon";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildToDirectory } from "../generator/build/build.ts";
import { startLocalServer as startServer } from "../generator/serve/local.ts";
import { LOAD_REQUESTS } from "./load-requests.ts";

const ROOT = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "30" },
    connections: { type: "string", default: "10" },
  },
});
const duration = Math.min(Number(args.duration), 120);

const work = mkdtempSync(join(tmpdir(), "plz-load-"));
const dir = join(work, "dist");
await buildToDirectory(
  {
    root: ROOT,
    sources: {},
    maxFiles: 100_000,
    headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
  },
  dir,
);
const server = await startServer(dir);
try {
  const requests = [...LOAD_REQUESTS];
  for (const request of requests)
    await fetch(`${server.origin}${request.path}`, { headers: request.headers ?? {} }).then((r) =>
      r.arrayBuffer(),
    ); // warm
  const rssBefore = server.rssKiB();
  const result = await autocannon({
    url: server.origin,
    connections: Number(args.connections),
    duration,
    requests,
  });
  const rssAfter = server.rssKiB();
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(
    ([code, stat]) => `${code}: ${(stat as { count: number }).count}`,
  );
  const serverErrors = result["5xx"];
  const lines = [
    `duration ${duration} s, ${args.connections} connections, ${requests.length} request kinds`,
    `requests ${result.requests.total} (${result.requests.average.toFixed(0)}/s), status ${statuses.join(", ")}`,
    `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    `errors ${result.errors}, timeouts ${result.timeouts}, 5xx ${serverErrors}`,
    `server RSS (node + workerd) before ${Math.round(rssBefore / 1024)} MiB, after ${Math.round(rssAfter / 1024)} MiB`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  if (result.errors > 0 || result.timeouts > 0 || serverErrors > 0) process.exitCode = 1;
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
