import { existsSync, readFileSync } from "node:fs";
import {
  BUILD_STAMP_PATH,
  FILE_LIST_PATH,
  formatMismatch,
  HEADERS_PATH,
} from "../contract/layout.ts";
import { ROUTE_TABLE_PATH, type RouteTable } from "../contract/routes.ts";
import { createHandler } from "../edge/handler.ts";
import { createServer } from "node:net";
import { join } from "node:path";
import { PROJECT_ROOT as ROOT, readBuildManifest, statedFormatVersion } from "../io/read.ts";
import { assetRules, type AssetConfig } from "./asset-rules.ts";
import {
  fileIndex,
  MAX_ASSETS,
  startAssetSetup,
  type AssetSetupProcess,
  type FileIndex,
} from "./assets.ts";
import { directoryAssets } from "./binding.ts";
import { HEALTH_PATH, originOf } from "./child.ts";
import { createFront, DEFAULT_LIMITS, type Limits } from "./http.ts";
import { workerFirstMatcher, type RunWorkerFirst } from "./worker-first.ts";

/**
 * Serves a build in this Node process as Cloudflare serves it: Cloudflare's router and asset
 * service reproduced for this build (http.ts, static.ts, asset-rules.ts: `run_worker_first`,
 * `_headers`, `_redirects`, ETags and 304s, content types, 405 for assets) and the Worker's own
 * handler (edge/) in-process, its `ASSETS` binding over the build directory (binding.ts).
 * runtimes.test.ts holds it to `wrangler dev` on the wire. No file watching: a rebuild needs a
 * restart.
 */

/** A failure the user can fix (busy port, no build): the CLI prints its message alone. */
export class ServeError extends Error {}

export interface Serving {
  /** Where it answers, e.g. http://127.0.0.1:8787 */
  readonly origin: string;
  /** Asset files in the file list. */
  readonly assets: number;
  /** Stops taking connections, lets requests in flight finish (a few seconds at most), resolves when closed. */
  stop(): Promise<void>;
}

interface WranglerConfig {
  readonly compatibility_date: string;
  readonly assets: {
    readonly run_worker_first?: RunWorkerFirst;
    readonly html_handling?: string;
    readonly not_found_handling?: string;
  };
}

/** How long a stop waits for requests in flight before it closes their connections. */
const STOP_GRACE_MS = 3_000;

/** Fails with a message the user can act on when `dir` is not a build this server reads. */
export function checkBuild(dir: string): void {
  for (const file of [HEADERS_PATH, FILE_LIST_PATH])
    if (!existsSync(join(dir, file)))
      throw new ServeError(`${dir} is not a build (no ${file.slice(1)}); run npm run build first`);
  const stated = statedFormatVersion(dir);
  const mismatch = stated === undefined ? undefined : formatMismatch(dir, stated.found);
  if (mismatch !== undefined) throw new ServeError(mismatch);
}

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
  const config = JSON.parse(
    readFileSync(join(ROOT, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""),
  ) as WranglerConfig;
  const { html_handling: html = "auto-trailing-slash", not_found_handling: notFound = "none" } =
    config.assets;
  if (html !== "none" || notFound !== "none")
    throw new ServeError(
      `wrangler.jsonc: the server reproduces html_handling "none" and not_found_handling "none" only (found "${html}", "${notFound}"); npm run dev serves any`,
    );
  let assetConfig: Record<string, unknown> = {};
  const setupProcess = options.setup ?? startAssetSetup();
  let files: FileIndex;
  try {
    if (options.probe !== false) await probePort(host, port);
    files = await fileIndex(dir, async (extensions) => {
      const setup = await setupProcess.ask({
        dir,
        assetConfig: { html_handling: html },
        compatibilityDate: config.compatibility_date,
        extensions,
      });
      assetConfig = setup.config;
      return new Map(setup.types);
    });
  } finally {
    setupProcess.end();
  }
  if (files.count > MAX_ASSETS)
    process.stderr.write(
      `warning: ${files.count} assets: Cloudflare deploys at most ${MAX_ASSETS}\n`,
    );
  const rules = assetRules(assetConfig as AssetConfig);
  // The common headers of the server's own problems; without a route table the Worker answers 500s.
  const table = existsSync(join(dir, ROUTE_TABLE_PATH))
    ? (JSON.parse(readFileSync(join(dir, ROUTE_TABLE_PATH), "utf8")) as RouteTable)
    : undefined;
  const server = createFront(
    {
      dir,
      files,
      rules,
      worker: createHandler(directoryAssets(dir, files, rules)),
      workerFirst: workerFirstMatcher(config.assets.run_worker_first),
      common: table?.commonHeaders ?? [],
      health: { path: HEALTH_PATH, body: JSON.stringify(health(dir, files.count)) },
    },
    options.limits ?? DEFAULT_LIMITS,
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? busy(host, port) : error),
    );
    server.listen({ host, port }, () => resolve());
  });
  return {
    origin: originOf(host, port),
    assets: files.count,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
      }),
  };
}

/** What the health endpoint reports: the build's time stamp, fingerprint and sources. */
function health(dir: string, assets: number): Record<string, unknown> {
  const stamp = JSON.parse(readFileSync(join(dir, BUILD_STAMP_PATH), "utf8")) as {
    fingerprint?: unknown;
    sources?: unknown;
  };
  const downloads = readBuildManifest(dir)?.json as { builtAt?: unknown } | undefined;
  return {
    status: "ok",
    builtAt: downloads?.builtAt ?? null,
    fingerprint: stamp.fingerprint ?? null,
    sources: stamp.sources ?? [],
    assets,
    startedAt: new Date().toISOString(),
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
