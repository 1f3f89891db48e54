import { InvalidArgumentError, type Command } from "commander";
import { resolve } from "node:path";
import type { BuildOptions } from "../build/build.ts";
import { DEFAULT_FETCH } from "../build/fetch-defaults.ts";
import type { Predecessor } from "../build/predecessor.ts";
import {
  countsOfManifest,
  DEFAULT_MAX_DROP,
  DEFAULT_MAX_JOIN_LOSS,
  type Baseline,
  type GuardOptions,
} from "../build/guards.ts";
import { PROJECT_ROOT, readProjectText } from "../io/read.ts";
import { CACHE_DURATION, type FetchOptions } from "../sources/fetch.ts";
import type { LoadEvent } from "../sources/load.ts";
import { isSourceName, isUrl, SOURCE_NAMES, type SourceName } from "../sources/registry.ts";

export const DEFAULT_MAX_FILES = 100_000;
export const DEFAULT_PORT = 8788;
/** The address `serve` and `start` listen on without `--host`: loopback only. */
export const DEFAULT_HOST = "127.0.0.1";

export interface SourceFlags {
  /** Absent when no `--source` was given. */
  source?: Partial<Record<SourceName, string>>;
  remote?: boolean;
  allowEmbedded?: SourceName[];
  mirror?: string;
  cacheDir: string;
  cacheDuration: string;
  allowStale?: boolean;
}

/** The flags of a build from the embedded data (`start`). */
export const EMBEDDED: SourceFlags = {
  cacheDir: DEFAULT_FETCH.cacheDir,
  cacheDuration: DEFAULT_FETCH.cacheDuration,
};

/** The options of every command that reads the sources. */
export function withSourceOptions(command: Command): Command {
  return command
    .option(
      "--source <name=path|url>",
      `read a source from another file or URL (${SOURCE_NAMES.join(", ")}); once per source, repeatable for others`,
      collectSource,
    )
    .option(
      "--remote",
      "fetch every source (not given with --source) from its publisher instead of the embedded data/",
    )
    .option(
      "--allow-embedded <name>",
      "with --remote: build this source from its embedded copy in data/ (reported, and marked in the manifest); repeatable",
      collectSourceName,
      [],
    )
    .option(
      "--mirror <url>",
      "with --remote: fetch https://host/path from <url>/host/path (a stand-in for every publisher)",
      httpUrl,
    )
    .option("--cache-dir <dir>", "where downloads are cached", DEFAULT_FETCH.cacheDir)
    .option(
      "--cache-duration <duration>",
      "how long a cached download is fresh: 30m, 12h, 1d, 0s (always download), * (forever)",
      cacheDuration,
      DEFAULT_FETCH.cacheDuration,
    )
    .option(
      "--allow-stale",
      "when a download fails, build from an expired cached copy (reported) instead of failing",
    );
}

export interface GuardFlags {
  maxDrop: number;
  maxJoinLoss: number;
  baseline?: string;
}

/** The options of the data guards (build and plan). */
export function withGuardOptions(command: Command, defaultBaseline: string): Command {
  return command
    .option(
      "--max-drop <percent>",
      "refuse a resource with more than this share fewer records than the baseline (a deliberate change: raise it)",
      percent,
      DEFAULT_MAX_DROP,
    )
    .option(
      "--max-join-loss <percent>",
      "refuse a join that skips more than this share of a source's rows",
      percent,
      DEFAULT_MAX_JOIN_LOSS,
    )
    .option(
      "--baseline <dir|url>",
      `the build to compare with (record counts, and the change feed's predecessor): a build directory, or a deployed downloads manifest (https://…/downloads/index.json) (default: ${defaultBaseline})`,
    );
}

/**
 * The guard options the flags describe, and the build the change feed compares with: one and the
 * same build (read from its directory or from the deployment), so the counts the guards judge are
 * the ones the feed's changes add up to.
 */
export async function guardOptions(
  flags: GuardFlags,
  defaultDir: string,
): Promise<{ guards: GuardOptions; predecessor?: Predecessor }> {
  // Loaded here, not with the flags: `start` and `serve` read this module and need none of it.
  const [{ directoryBaseline }, { localPredecessor }, { asManifest }, { deployedFiles }] =
    await Promise.all([
      import("../build/build.ts"),
      import("../build/local-predecessor.ts"),
      import("../build/predecessor.ts"),
      import("../sources/deployed.ts"),
    ]);
  const thresholds = { maxDrop: flags.maxDrop, maxJoinLoss: flags.maxJoinLoss };
  if (flags.baseline === undefined) {
    const previous = directoryBaseline(defaultDir);
    return { guards: previous === undefined ? thresholds : { ...thresholds, baseline: previous } };
  }
  let baseline: Baseline | undefined;
  let predecessor: Predecessor | undefined;
  try {
    if (isUrl(flags.baseline)) {
      const deployed = await deployedFiles(flags.baseline, DEFAULT_FETCH.timeoutMs);
      baseline = { where: flags.baseline, counts: countsOfManifest(deployed.manifest) };
      predecessor = {
        ...deployed,
        manifest: asManifest(deployed.manifest, flags.baseline),
        compressed: true,
      };
    } else {
      baseline = directoryBaseline(resolve(flags.baseline));
      predecessor = localPredecessor(resolve(flags.baseline));
    }
  } catch (error) {
    throw new Error(
      `--baseline ${flags.baseline}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (baseline === undefined)
    throw new Error(`--baseline ${flags.baseline}: no build there (no downloads/index.json)`);
  return {
    guards: { ...thresholds, baseline },
    ...(predecessor === undefined ? {} : { predecessor }),
  };
}

/** The build options the flags describe. */
export function buildOptions(
  flags: SourceFlags,
  maxFiles: number,
  onProgress?: BuildOptions["onProgress"],
): BuildOptions {
  const fetch: Partial<FetchOptions> = {
    cacheDir: resolve(flags.cacheDir),
    cacheDuration: flags.cacheDuration,
    allowStale: flags.allowStale === true,
  };
  return {
    root: PROJECT_ROOT,
    sources: flags.source ?? {},
    remote: flags.remote === true,
    allowEmbedded: flags.allowEmbedded ?? [],
    ...(flags.mirror === undefined ? {} : { mirror: flags.mirror }),
    fetch,
    onSource: reportSource,
    maxFiles,
    headersTemplate: readProjectText("_headers"),
    ...(onProgress === undefined ? {} : { onProgress }),
  };
}

function reportSource(event: LoadEvent): void {
  const mib = (event.bytes / 1024 / 1024).toFixed(1);
  const how = {
    file: "read",
    network: "downloaded",
    cache: `from the cache (downloaded ${new Date(event.fetchedAt ?? 0).toISOString()})`,
    stale: `STALE: the download failed, using the cached copy downloaded ${new Date(event.fetchedAt ?? 0).toISOString()} (--allow-stale)`,
  }[event.origin];
  const edition =
    event.edition === undefined
      ? ""
      : `, edition ${event.edition.date} (the newest on ${event.edition.listing})`;
  const embedded =
    event.allowEmbedded === true
      ? " (EMBEDDED by --allow-embedded: not the publisher's current file)"
      : "";
  process.stderr.write(
    `${event.name}: ${event.location}, ${mib} MiB, ${how}${edition}${embedded}\n`,
  );
}

function collectSource(
  value: string,
  previous: Partial<Record<SourceName, string>> | undefined,
): Partial<Record<SourceName, string>> {
  const eq = value.indexOf("=");
  const name = value.slice(0, eq);
  if (eq <= 0 || eq === value.length - 1)
    throw new InvalidArgumentError("expected NAME=PATH or NAME=URL");
  if (!isSourceName(name))
    throw new InvalidArgumentError(`unknown source '${name}' (known: ${SOURCE_NAMES.join(", ")})`);
  const earlier = previous?.[name];
  if (earlier !== undefined)
    throw new InvalidArgumentError(
      `source '${name}' given twice (${earlier}, then ${value.slice(eq + 1)}): give each source once`,
    );
  return { ...previous, [name]: value.slice(eq + 1) };
}

function collectSourceName(value: string, previous: SourceName[]): SourceName[] {
  if (!isSourceName(value))
    throw new InvalidArgumentError(`unknown source '${value}' (known: ${SOURCE_NAMES.join(", ")})`);
  return [...previous, value];
}

function httpUrl(value: string): string {
  if (!isUrl(value)) throw new InvalidArgumentError("expected an http:// or https:// URL");
  return value;
}

function cacheDuration(value: string): string {
  if (!CACHE_DURATION.test(value))
    throw new InvalidArgumentError(
      "expected a number and a unit (s, m, h, d, w, y), e.g. 1d, or * for forever",
    );
  return value;
}

/** The port `serve` and `start` listen on without `--port`: the `PORT` variable, else `DEFAULT_PORT`. */
export function defaultPort(): number {
  const port = process.env["PORT"];
  if (port === undefined || port === "") return DEFAULT_PORT;
  try {
    return positiveInteger(port);
  } catch (error) {
    throw new Error(`PORT=${port}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function percent(value: string): number {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || Number(value) > 100)
    throw new InvalidArgumentError("expected a percentage from 0 to 100");
  return Number(value);
}

export function positiveInteger(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value))
    throw new InvalidArgumentError("expected a positive whole number");
  return Number(value);
}
