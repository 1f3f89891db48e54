import { InvalidArgumentError, type Command } from "commander";
import { resolve } from "node:path";
import { DEFAULT_FETCH, type BuildOptions } from "../build/build.ts";
import { PROJECT_ROOT, readProjectText } from "../io/read.ts";
import { CACHE_DURATION, type FetchOptions } from "../sources/fetch.ts";
import type { LoadEvent } from "../sources/load.ts";
import { isSourceName, SOURCE_NAMES, sourceSpec, type SourceName } from "../sources/registry.ts";

export const DEFAULT_MAX_FILES = 100_000;
export const DEFAULT_PORT = 8788;

export interface SourceFlags {
  /** Absent when no `--source` was given. */
  source?: Partial<Record<SourceName, string>>;
  remote?: boolean;
  cacheDir: string;
  cacheDuration: string;
  allowStale?: boolean;
}

/** The flags of a build from the embedded data (`start`). */
export const EMBEDDED: SourceFlags = { cacheDir: DEFAULT_FETCH.cacheDir, cacheDuration: DEFAULT_FETCH.cacheDuration };

/** The options of every command that reads the sources. */
export function withSourceOptions(command: Command): Command {
  return command
    .option("--source <name=path|url>", `read a source from another file or URL (${SOURCE_NAMES.join(", ")}); once per source, repeatable for others`, collectSource)
    .option("--remote", "fetch every source (not given with --source) from its publisher instead of the embedded data/")
    .option("--cache-dir <dir>", "where downloads are cached", DEFAULT_FETCH.cacheDir)
    .option("--cache-duration <duration>", "how long a cached download is fresh: 30m, 12h, 1d, 0s (always download), * (forever)", cacheDuration, DEFAULT_FETCH.cacheDuration)
    .option("--allow-stale", "when a download fails, build from an expired cached copy (reported) instead of failing");
}

/** The build options the flags describe; says which sources `--remote` cannot fetch. */
export function buildOptions(flags: SourceFlags, maxFiles: number, onProgress?: BuildOptions["onProgress"]): BuildOptions {
  const fetch: Partial<FetchOptions> = { cacheDir: resolve(flags.cacheDir), cacheDuration: flags.cacheDuration, allowStale: flags.allowStale === true };
  const remote = flags.remote === true;
  if (remote) {
    for (const name of SOURCE_NAMES) {
      const spec = sourceSpec(name);
      if (spec.upstream === undefined && flags.source?.[name] === undefined) process.stderr.write(`${name}: the embedded ${spec.embedded ?? "(none)"}: ${spec.noUpstream ?? "no upstream"}\n`);
    }
  }
  return {
    root: PROJECT_ROOT,
    sources: flags.source ?? {},
    remote,
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
  process.stderr.write(`${event.name}: ${event.location}, ${mib} MiB, ${how}\n`);
}

function collectSource(value: string, previous: Partial<Record<SourceName, string>> | undefined): Partial<Record<SourceName, string>> {
  const eq = value.indexOf("=");
  const name = value.slice(0, eq);
  if (eq <= 0 || eq === value.length - 1) throw new InvalidArgumentError("expected NAME=PATH or NAME=URL");
  if (!isSourceName(name)) throw new InvalidArgumentError(`unknown source '${name}' (known: ${SOURCE_NAMES.join(", ")})`);
  const earlier = previous?.[name];
  if (earlier !== undefined) throw new InvalidArgumentError(`source '${name}' given twice (${earlier}, then ${value.slice(eq + 1)}): give each source once`);
  return { ...previous, [name]: value.slice(eq + 1) };
}

function cacheDuration(value: string): string {
  if (!CACHE_DURATION.test(value)) throw new InvalidArgumentError("expected a number and a unit (s, m, h, d, w, y), e.g. 1d, or * for forever");
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

export function positiveInteger(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError("expected a positive whole number");
  return Number(value);
}
