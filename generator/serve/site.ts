import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  BUILD_STAMP_PATH,
  FILE_LIST_PATH,
  formatMismatch,
  HEADERS_PATH,
} from "../contract/layout.ts";
import { ROUTE_TABLE_PATH, type RouteTable } from "../contract/routes.ts";
import { createHandler, type Handler } from "../edge/handler.ts";
import { PROJECT_ROOT as ROOT, readBuildManifest, statedFormatVersion } from "../io/read.ts";
import { assetRules, type AssetConfig, type AssetRules } from "./asset-rules.ts";
import {
  fileIndex,
  MAX_ASSETS,
  startAssetSetup,
  type AssetSetupProcess,
  type FileIndex,
} from "./assets.ts";
import { BuildDirectory } from "./build-dir.ts";
import { BuildFiles, directoryAssets } from "./binding.ts";
import { HEALTH_PATH } from "./child.ts";
import { workerFirstMatcher, type RunWorkerFirst } from "./worker-first.ts";

/**
 * One build as the server serves it: its directory (held as it was when loaded), file list with
 * ETags, `_headers` and `_redirects` rules, the Worker's handler over its files, and its health
 * answer. A new build in the directory is a new Site, loaded whole (sites.ts).
 */
export interface Site {
  readonly files: FileIndex;
  readonly read: BuildFiles;
  readonly rules: AssetRules;
  readonly worker: Handler;
  readonly workerFirst: (pathname: string) => boolean;
  /** The headers of every answer (the build's `_headers` catch-all, as the Worker sends them). */
  readonly common: readonly (readonly [string, string])[];
  /** The health endpoint's path and body. */
  readonly health: { readonly path: string; readonly body: string };
}

/** What the asset setup made of a build: its rules and content types. */
export interface SiteSetup {
  /** The digests of the `_headers` and `_redirects` it read (fileIndex's setup key). */
  readonly key: string;
  readonly extensions: ReadonlySet<string>;
  readonly config: AssetConfig;
  readonly types: ReadonlyMap<string, string>;
}

/** A loaded build, with what telling whether its directory now holds another one needs. */
export interface LoadedSite extends Site {
  /** Which build it is (`buildIdentity` of its directory as loaded). */
  readonly identity: string;
  /** Reused by a later build with the same rules and no new file extension. */
  readonly setup: SiteSetup;
}

/** A failure the user can fix (busy port, no build): the CLI prints its message alone. */
export class ServeError extends Error {}

export interface WranglerConfig {
  readonly compatibility_date: string;
  readonly assets: {
    readonly run_worker_first?: RunWorkerFirst;
    readonly html_handling?: string;
    readonly not_found_handling?: string;
  };
}

/** The project's wrangler.jsonc; fails when it asks for asset handling the server does not reproduce. */
export function wranglerConfig(): WranglerConfig {
  const config = JSON.parse(
    readFileSync(join(ROOT, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""),
  ) as WranglerConfig;
  const { html_handling: html = "auto-trailing-slash", not_found_handling: notFound = "none" } =
    config.assets;
  if (html !== "none" || notFound !== "none")
    throw new ServeError(
      `wrangler.jsonc: the server reproduces html_handling "none" and not_found_handling "none" only (found "${html}", "${notFound}"); npm run dev serves any`,
    );
  return config;
}

/** Fails with a message the user can act on when `dir` is not a build this server reads. */
export function checkBuild(dir: string): void {
  for (const file of [HEADERS_PATH, FILE_LIST_PATH])
    if (!existsSync(join(dir, file)))
      throw new ServeError(`${dir} is not a build (no ${file.slice(1)}); run npm run build first`);
  const stated = statedFormatVersion(dir);
  const mismatch = stated === undefined ? undefined : formatMismatch(dir, stated.found);
  if (mismatch !== undefined) throw new ServeError(mismatch);
}

/**
 * Which build is at `dir` now: the directory's device and inode and its file list's (with size and
 * modification time: a rebuild swaps in a new directory, a copy into it writes a new list); undefined
 * while there is none (between the two renames of a swap).
 */
export function buildIdentity(dir: string): string | undefined {
  try {
    const [at, list] = [statSync(dir), statSync(join(dir, FILE_LIST_PATH))];
    return `${at.dev}:${at.ino}|${list.dev}:${list.ino}:${list.size}:${list.mtimeMs}`;
  } catch {
    return undefined;
  }
}

export interface LoadOptions {
  readonly config: WranglerConfig;
  /** The server's start, reported by the health endpoint. */
  readonly startedAt: string;
  /** Runs before the file list is read (the port probe), beside the asset setup's start. */
  readonly meanwhile?: () => Promise<void>;
  /** The asset setup, when the caller started it earlier (`start`: beside the build). */
  readonly setup?: AssetSetupProcess;
  /** The build served until now: its asset setup is reused when the rules are the same. */
  readonly previous?: LoadedSite;
  /** Hears of a listed file that is gone or changed; says whether another build is in the directory. */
  readonly lost?: (path: string) => boolean;
}

/**
 * Loads the build in `dir` (checked first), every file of it read through the directory as it was
 * opened here, so that a rebuild swapped in meanwhile cannot mix two builds.
 */
export async function loadSite(dir: string, options: LoadOptions): Promise<LoadedSite> {
  checkBuild(dir);
  const directory = BuildDirectory.open(dir);
  const root = directory.root;
  const { config, previous } = options;
  // Loading Miniflare takes most of a first start: it runs beside the port probe and the list.
  let setupProcess = previous === undefined ? (options.setup ?? startAssetSetup()) : undefined;
  try {
    checkBuild(root);
    const identity = buildIdentity(root) ?? "";
    await options.meanwhile?.();
    let setup: SiteSetup | undefined;
    const files = await fileIndex(root, async (extensions, key) => {
      const known = previous?.setup;
      if (known?.key === key && extensions.every((ext) => known.extensions.has(ext))) {
        setup = known;
        return known.types;
      }
      const answer = await (setupProcess ??= startAssetSetup()).ask({
        dir: root,
        assetConfig: { html_handling: config.assets.html_handling },
        compatibilityDate: config.compatibility_date,
        extensions,
      });
      setup = {
        key,
        extensions: new Set(extensions),
        config: answer.config as AssetConfig,
        types: new Map(answer.types),
      };
      return setup.types;
    });
    if (setup === undefined) throw new Error("the asset setup did not run");
    if (files.count > MAX_ASSETS)
      process.stderr.write(
        `warning: ${files.count} assets: Cloudflare deploys at most ${MAX_ASSETS}\n`,
      );
    const rules = assetRules(setup.config);
    const read = new BuildFiles(directory, options.lost);
    // The common headers of the server's own problems; without a route table the Worker answers 500s.
    const table = existsSync(join(root, ROUTE_TABLE_PATH))
      ? (JSON.parse(readFileSync(join(root, ROUTE_TABLE_PATH), "utf8")) as RouteTable)
      : undefined;
    return {
      files,
      read,
      rules,
      worker: createHandler(directoryAssets(read, files, rules)),
      workerFirst: workerFirstMatcher(config.assets.run_worker_first),
      common: table?.commonHeaders ?? [],
      health: {
        path: HEALTH_PATH,
        body: JSON.stringify(health(root, files.count, options.startedAt)),
      },
      identity,
      setup,
    };
  } catch (error) {
    directory.close();
    throw error;
  } finally {
    setupProcess?.end();
  }
}

/** What the health endpoint reports: the build's time stamp, fingerprint and sources. */
function health(dir: string, assets: number, startedAt: string): Record<string, unknown> {
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
    startedAt,
  };
}
