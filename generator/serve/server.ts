import * as esbuild from "esbuild";
import { Log, LogLevel, Miniflare } from "miniflare";
import { existsSync, readFileSync } from "node:fs";
import {
  BUILD_STAMP_PATH,
  FILE_LIST_PATH,
  formatMismatch,
  HEADERS_PATH,
} from "../contract/layout.ts";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { PROJECT_ROOT as ROOT, readBuildManifest, statedFormatVersion } from "../io/read.ts";
import { HEALTH_PATH, originOf } from "./child.ts";
import { routerRouting, type RunWorkerFirst } from "./worker-first.ts";
import {
  ASSET_WORKER_SCRIPT,
  assetConfigFor,
  KV_SHIM,
  manifestFromFileList,
  MAX_ASSETS,
  ROUTER_WORKER_SCRIPT,
} from "./assets.ts";

/**
 * Serves a build on workerd through Miniflare's API, as Cloudflare serves it: the Worker bundled
 * once, Cloudflare's router and asset workers (`run_worker_first`, `_headers`, `_redirects`, ETags
 * and 304s, content types), the asset manifest from the build's file list. No dev proxy, no file
 * watching: a rebuild needs a restart. Miniflare's exit hooks stop workerd on SIGINT and SIGTERM.
 */

/** A failure the user can fix (busy port, no build): the CLI prints its message alone. */
export class ServeError extends Error {}

export interface Serving {
  /** Where it answers, e.g. http://127.0.0.1:8787 */
  readonly origin: string;
  /** Asset files in the manifest. */
  readonly assets: number;
  stop(): Promise<void>;
}

interface WranglerConfig {
  readonly compatibility_date: string;
  readonly main: string;
  readonly assets: {
    readonly run_worker_first?: RunWorkerFirst;
    readonly html_handling?: string;
    readonly not_found_handling?: string;
  };
}

/**
 * The Worker's entry, where the socket delivers requests: the health endpoint; a path that
 * `run_worker_first` sends to the Worker goes to it directly (what Cloudflare's router would do
 * for it, one isolate hop less); everything else to the router, whose user worker is
 * `UserWorker` (the bundled Worker alone, so that nothing loops back here).
 */
const entry = (health: string, runWorkerFirst: RunWorkerFirst) => `import worker from "./worker.js";
import { workerFirstMatcher } from "./worker-first.js";
const workerFirst = workerFirstMatcher(${JSON.stringify(runWorkerFirst ?? false)});
export default {
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === ${JSON.stringify(health)}) return Response.json(env.HEALTH, { headers: { "Cache-Control": "no-store" } });
    return workerFirst(pathname) ? worker.fetch(request, env, ctx) : env.ROUTER.fetch(request);
  },
};
export const UserWorker = { fetch: (request, env, ctx) => worker.fetch(request, env, ctx) };
`;

export async function serveBuild(dir: string, host: string, port: number): Promise<Serving> {
  for (const file of [HEADERS_PATH, FILE_LIST_PATH])
    if (!existsSync(join(dir, file)))
      throw new ServeError(`${dir} is not a build (no ${file.slice(1)}); run npm run build first`);
  const stated = statedFormatVersion(dir);
  const mismatch = stated === undefined ? undefined : formatMismatch(dir, stated.found);
  if (mismatch !== undefined) throw new ServeError(mismatch);
  await probePort(host, port);
  const config = JSON.parse(
    readFileSync(join(ROOT, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""),
  ) as WranglerConfig;
  const routerConfig = { has_user_worker: true, ...routerRouting(config.assets.run_worker_first) };
  const assetOptions = {
    ...(config.assets.html_handling === undefined
      ? {}
      : { html_handling: config.assets.html_handling }),
    ...(config.assets.not_found_handling === undefined
      ? {}
      : { not_found_handling: config.assets.not_found_handling }),
  };
  const log = new Log(LogLevel.WARN); // Miniflare reports invalid _headers rules as warnings
  const [[code = "", matcher = ""], assetConfig, manifest] = await Promise.all([
    bundle([join(ROOT, config.main), join(import.meta.dirname, "worker-first.ts")]),
    assetConfigFor(dir, assetOptions, config.compatibility_date, log),
    manifestFromFileList(dir),
  ]);
  if (manifest.missing > 0)
    process.stderr.write(
      `warning: ${manifest.missing} files of ${join(dir, FILE_LIST_PATH)} are not in the directory (not served)\n`,
    );
  if (manifest.count > MAX_ASSETS)
    process.stderr.write(
      `warning: ${manifest.count} assets: Cloudflare deploys at most ${MAX_ASSETS}\n`,
    );
  const mf = new Miniflare({
    // Miniflare's own entry (it imitates the edge: compression, request.cf) listens on a spare
    // loopback port; requests come straight to the Worker's entry through a direct socket (see
    // `entry`), which halves the work per request.
    host: "127.0.0.1",
    port: 0,
    cf: false, // no fetch of Cloudflare's request metadata
    log,
    handleRuntimeStdio: passRuntimeOutput,
    workers: [
      {
        // Cloudflare's router (workers-shared): run_worker_first, else an asset when one exists, else the Worker.
        name: "router",
        compatibilityDate: "2024-07-31",
        compatibilityFlags: ["nodejs_compat", "no_nodejs_compat_v2"],
        modules: [
          {
            type: "ESModule",
            path: "router.mjs",
            contents: readFileSync(ROUTER_WORKER_SCRIPT, "utf8"),
          },
        ],
        bindings: { CONFIG: routerConfig },
        serviceBindings: {
          ASSET_WORKER: { name: "assets", entrypoint: "AssetWorkerInner" },
          USER_WORKER: { name: "worker", entrypoint: "UserWorker" },
        },
      },
      {
        name: "worker",
        compatibilityDate: config.compatibility_date,
        modules: [
          {
            type: "ESModule",
            path: "entry.js",
            contents: entry(HEALTH_PATH, config.assets.run_worker_first),
          },
          { type: "ESModule", path: "worker.js", contents: code },
          { type: "ESModule", path: "worker-first.js", contents: matcher },
        ],
        bindings: { HEALTH: health(dir, manifest.count) },
        serviceBindings: {
          ASSETS: { name: "assets", entrypoint: "AssetWorkerInner" },
          ROUTER: "router",
        },
        unsafeDirectSockets: [{ host, port }],
      },
      {
        // Cloudflare's asset worker (workers-shared), as Miniflare ships it.
        name: "assets",
        compatibilityDate: "2024-07-31",
        compatibilityFlags: ["nodejs_compat", "enable_ctx_exports"],
        modules: [
          {
            type: "ESModule",
            path: "asset-worker.mjs",
            contents: readFileSync(ASSET_WORKER_SCRIPT, "utf8"),
          },
        ],
        bindings: {
          CONFIG: { ...assetConfig, has_static_routing: "static_routing" in routerConfig },
        },
        dataBlobBindings: { ASSETS_MANIFEST: manifest.manifest },
        serviceBindings: { ASSETS_KV_NAMESPACE: { name: "assets-kv", entrypoint: "Kv" } },
      },
      {
        name: "assets-kv",
        compatibilityDate: config.compatibility_date,
        modules: [{ type: "ESModule", path: "kv.mjs", contents: KV_SHIM }],
        dataBlobBindings: { REVERSE: manifest.reverse },
        serviceBindings: { FILES: { disk: { path: dir, writable: false } } },
      },
    ],
  });
  try {
    await mf.ready;
  } catch (error) {
    await mf.dispose().catch(() => undefined); // after a failed start it throws the same error
    if ((error as { code?: string }).code === "ERR_ADDRESS_IN_USE") throw busy(host, port);
    throw error;
  }
  return { origin: originOf(host, port), assets: manifest.count, stop: () => mf.dispose() };
}

/** Each entry bundled like wrangler bundles the Worker (ES module, es2024, the workerd export conditions). */
async function bundle(entries: readonly string[]): Promise<string[]> {
  try {
    const result = await esbuild.build({
      entryPoints: [...entries],
      outdir: "/bundle",
      bundle: true,
      write: false,
      format: "esm",
      target: "es2024",
      conditions: ["workerd", "worker", "browser"],
      logLevel: "silent",
    });
    return result.outputFiles.map((file) => file.text);
  } finally {
    await esbuild.stop(); // else its service process stays
  }
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

/** A busy port fails here at once, before the setup (Miniflare's own check comes after it, and is kept for the race). */
function probePort(host: string, port: number): Promise<void> {
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

/** workerd's output, except the stack trace it prints for a busy port (reported in one line instead). */
function passRuntimeOutput(stdout: Readable, stderr: Readable): void {
  stdout.on("data", (chunk: Buffer) => process.stdout.write(chunk));
  stderr.on("data", (chunk: Buffer) => {
    if (!chunk.toString().includes("Address already in use")) process.stderr.write(chunk);
  });
}
