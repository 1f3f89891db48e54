import { createServer } from "node:net";
import type { AssetSetupProcess } from "./assets.ts";
import { originOf } from "./child.ts";
import { createFront, DEFAULT_LIMITS, type Limits } from "./http.ts";
import { checkBuild, loadSite, ServeError, wranglerConfig } from "./site.ts";
import { watchSites } from "./sites.ts";

export { checkBuild, ServeError };

/**
 * Serves a build in this Node process as Cloudflare serves it: Cloudflare's router and asset
 * service reproduced for this build (http.ts, static.ts, asset-rules.ts: `run_worker_first`,
 * `_headers`, `_redirects`, ETags and 304s, content types, 405 for assets) and the Worker's own
 * handler (edge/) in-process, its `ASSETS` binding over the build directory (binding.ts).
 * runtimes.test.ts holds it to `wrangler dev` on the wire. A rebuild into the directory is served
 * whole once it is there (sites.ts); until then the build loaded before answers from its own files.
 */

export interface Serving {
  /** Where it answers, e.g. http://127.0.0.1:8787 */
  readonly origin: string;
  /** Asset files in the file list. */
  readonly assets: number;
  /** Stops taking connections, lets requests in flight finish (a few seconds at most), resolves when closed. */
  stop(): Promise<void>;
}

/** How long a stop waits for requests in flight before it closes their connections. */
const STOP_GRACE_MS = 3_000;

export async function serveBuild(
  dir: string,
  host: string,
  port: number,
  options: {
    readonly limits?: Limits;
    readonly probe?: boolean;
    /** The asset setup, when the caller started it earlier (`start`: beside the build); by default one started here. */
    readonly setup?: AssetSetupProcess;
  } = {},
): Promise<Serving> {
  checkBuild(dir);
  const config = wranglerConfig();
  const startedAt = new Date().toISOString();
  let lost = () => false;
  const first = await loadSite(dir, {
    config,
    startedAt,
    lost: () => lost(),
    ...(options.probe === false ? {} : { meanwhile: () => probePort(host, port) }),
    ...(options.setup === undefined ? {} : { setup: options.setup }),
  });
  const sites = watchSites(dir, first, { config, startedAt });
  lost = () => sites.lost();
  const server = createFront(sites, options.limits ?? DEFAULT_LIMITS);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) =>
        reject(error.code === "EADDRINUSE" ? busy(host, port) : error),
      );
      server.listen({ host, port }, () => resolve());
    });
  } catch (error) {
    sites.close();
    throw error;
  }
  return {
    origin: originOf(host, port),
    assets: first.files.count,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          sites.close();
          resolve();
        });
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
      }),
  };
}

/** A busy port fails here at once, before the setup (the listen's own check is kept for the race). */
export function probePort(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? busy(host, port)
          : new ServeError(`cannot listen on ${host} port ${port}: ${error.code ?? error.message}`),
      ),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

function busy(host: string, port: number): ServeError {
  return new ServeError(
    `port ${port} on ${host} is in use; choose another with --port (or PORT=…)`,
  );
}
