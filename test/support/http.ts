import { request as httpRequest } from "node:http";
import { startLocalServer, type RunningServer } from "../../generator/serve/local.ts";
import { startWranglerDev as startWrangler } from "../../generator/serve/wrangler-dev.ts";
import { SPAWN_BOUND_MS } from "./paths.ts";

export type { RunningServer };
/** Starts several servers together; when one fails, stops those that started (start-all.ts). */
export { startAll } from "./start-all.ts";

/**
 * Serves a built directory the way the HTTP tests reach it: the project's server on workerd
 * (`npm run serve`, Cloudflare's asset semantics), on loopback. runtimes.test.ts keeps it
 * equivalent to `wrangler dev`. The CLI compiled (as the tests spawn it, paths.ts), not through
 * tsx: the same server, without tsx's loader and transforms at each of the suite's starts;
 * serve.test.ts starts it through `npm run serve` and compiled-cli.test.ts holds the two alike.
 */
export function startServer(dir: string): Promise<RunningServer> {
  return startLocalServer(dir, { compiled: true, startTimeoutMs: SPAWN_BOUND_MS });
}

/**
 * `wrangler dev` serving a built directory (runtimes.test.ts holds the server to it), its start
 * bounded by the tests' hang bound like startServer's.
 */
export function startWranglerDev(
  dir: string,
  options: { config?: string } = {},
): Promise<RunningServer> {
  return startWrangler(dir, { ...options, startTimeoutMs: SPAWN_BOUND_MS });
}

/** Requests against one server: `get(path, headers, method)`. */
export function client(
  server: () => RunningServer,
): (path: string, headers?: Record<string, string>, method?: string) => Promise<RawResponse> {
  return (path, headers = {}, method = "GET") =>
    rawRequest(server().origin, path, { method, headers });
}

/** Every record of a paged request through `get`, page by page at size 50; fails on anything but a 200. */
export async function allPages(
  get: (path: string) => Promise<RawResponse>,
  path: string,
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  const separator = path.includes("?") ? "&" : "?";
  for (let page = 1; ; page++) {
    const response = await get(`${path}${separator}page=${page}`);
    if (response.status !== 200)
      throw new Error(`${path} page ${page}: HTTP ${response.status} ${response.text}`);
    records.push(...(JSON.parse(response.text) as Record<string, unknown>[]));
    if (page >= Number(response.headers["x-total-pages"])) return records;
  }
}

/** `work` over every item, at most `concurrency` at a time (requests to one local runtime). */
export async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i] as T);
      }
    }),
  );
  return results;
}

/** The four paging headers of a response, in contract order. */
export function pagingOf(response: RawResponse): (string | undefined)[] {
  return ["x-page", "x-page-size", "x-total-count", "x-total-pages"].map(
    (name) => response.headers[name],
  );
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
export function rawRequest(
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${origin}${path}`,
      { method: init.method ?? "GET", headers: init.headers ?? {}, agent: false },
      (res) => {
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
          resolve({
            status: res.statusCode ?? 0,
            rawHeaders,
            headers,
            body,
            text: body.toString("utf8"),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
