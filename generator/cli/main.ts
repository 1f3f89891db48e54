import { Command, InvalidArgumentError } from "commander";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildInto, buildToDirectory, DEFAULT_FETCH, type BuildOptions, type BuildSummary, type DirectoryBuildSummary } from "../build.ts";
import { CACHE_DURATION, type FetchOptions } from "../sources/fetch.ts";
import type { LoadEvent } from "../sources/load.ts";
import { isSourceName, isUrl, SOURCE_NAMES, SOURCES, sourceSpec, type SourceName } from "../sources/registry.ts";
import { CountingSink } from "../write/sink.ts";
import { progressReporter } from "./progress.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const DEFAULT_MAX_FILES = 100_000;
const DEFAULT_PORT = 8788;

const program = new Command("plz").description("Builds and serves the static OpenPLZ-compatible API.");

interface SourceFlags {
  source: Partial<Record<SourceName, string>>;
  remote?: boolean;
  cacheDir: string;
  cacheDuration: string;
  allowStale?: boolean;
}

/** The options of every command that reads the sources. */
function withSourceOptions(command: Command): Command {
  return command
    .option("--source <name=path|url>", `read a source from another file or URL (${SOURCE_NAMES.join(", ")}); repeatable`, collectSource, {})
    .option("--remote", "fetch every source (not given with --source) from its publisher instead of the embedded data/")
    .option("--cache-dir <dir>", "where downloads are cached", DEFAULT_FETCH.cacheDir)
    .option("--cache-duration <duration>", "how long a cached download is fresh: 30m, 12h, 1d, 0s (always download)", cacheDuration, DEFAULT_FETCH.cacheDuration)
    .option("--allow-stale", "when a download fails, build from an expired cached copy (reported) instead of failing");
}

withSourceOptions(
  program
    .command("build")
    .description("build the page files, downloads, index and _headers into a directory (atomically; unchanged files are kept, not rewritten)")
    .option("--out <dir>", "output directory", "dist")
    .option("--max-files <n>", "file budget of the deployment", positiveInteger, DEFAULT_MAX_FILES)
    .option("--full", "write every file, even when the previous build has the same bytes")
    .option("--json", "print the summary as one JSON object (for benchmarks)"),
).action(async (opts: SourceFlags & { out: string; maxFiles: number; full?: boolean; json?: boolean }) => {
  const options = buildOptions(opts, opts.maxFiles, progressReporter("pages"));
  const summary = await buildToDirectory(options, resolve(opts.out), opts.full === true);
  if (opts.json) printJson(summary);
  else printSummary(summary, `built ${resolve(opts.out)}`);
});

withSourceOptions(
  program
    .command("plan")
    .description("print files and bytes per resource and the materialised page sizes, writing nothing")
    .option("--max-files <n>", "file budget of the deployment", positiveInteger, DEFAULT_MAX_FILES),
).action(async (opts: SourceFlags & { maxFiles: number }) => {
  const summary = await buildInto(buildOptions(opts, opts.maxFiles), new CountingSink());
  printSummary(summary, `plan (budget ${opts.maxFiles} files)`);
});

program
  .command("serve")
  .description("serve a built directory with wrangler's local runtime (workerd)")
  .option("--dir <dir>", "built directory", "dist")
  .option("--port <port>", "port", positiveInteger, Number(process.env["PORT"] ?? DEFAULT_PORT))
  .action((opts: { dir: string; port: number }) => serve(resolve(opts.dir), opts.port));

program
  .command("start")
  .description("build the embedded data into dist/ when it changed, then serve it")
  .option("--port <port>", "port", positiveInteger, Number(process.env["PORT"] ?? DEFAULT_PORT))
  .action(async (opts: { port: number }) => {
    const dist = join(ROOT, "dist");
    const fingerprint = projectFingerprint();
    if (builtFingerprint(dist) === fingerprint) process.stderr.write("dist/ is up to date\n");
    else printSummary(await buildToDirectory(buildOptions(EMBEDDED, DEFAULT_MAX_FILES, progressReporter("pages"), fingerprint), dist), "built dist/");
    serve(dist, opts.port);
  });

const EMBEDDED: SourceFlags = { source: {}, cacheDir: DEFAULT_FETCH.cacheDir, cacheDuration: DEFAULT_FETCH.cacheDuration };

function buildOptions(flags: SourceFlags, maxFiles: number, onProgress?: BuildOptions["onProgress"], fingerprint?: string): BuildOptions {
  const fetch: Partial<FetchOptions> = { cacheDir: resolve(flags.cacheDir), cacheDuration: flags.cacheDuration, allowStale: flags.allowStale === true };
  const remote = flags.remote === true;
  if (remote) {
    for (const name of SOURCE_NAMES) {
      const spec = sourceSpec(name);
      if (spec.upstream === undefined && flags.source[name] === undefined) process.stderr.write(`${name}: the embedded ${spec.embedded}: ${spec.noUpstream ?? "no upstream"}\n`);
    }
  }
  return {
    root: ROOT,
    sources: flags.source,
    remote,
    fetch,
    onSource: reportSource,
    maxFiles,
    headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
    stamp: { fingerprint: fingerprint ?? (remote || Object.values(flags.source).some(isUrl) ? "remote" : projectFingerprint(flags.source)) },
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

/** Sources, generator code, `_headers` and the version: everything a build's output depends on. */
function projectFingerprint(sources: Partial<Record<SourceName, string>> = {}): string {
  const hash = createHash("sha256");
  const paths = SOURCE_NAMES.map((name) => resolve(ROOT, sources[name] ?? SOURCES[name].embedded));
  const files = [...paths, join(ROOT, "_headers"), join(ROOT, "package.json"), ...listFiles(join(ROOT, "generator"))];
  for (const file of files.sort()) hash.update(file).update(existsSync(file) ? readFileSync(file) : "missing"); // a missing source fails the build itself, with a clear message
  return hash.digest("hex").slice(0, 16);
}

function builtFingerprint(dist: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dist, "_build.json"), "utf8")) as { fingerprint?: string }).fingerprint;
  } catch {
    return undefined;
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

function serve(dir: string, port: number): void {
  if (!existsSync(join(dir, "_headers"))) fail(`${dir} is not a build (no _headers); run npm run build first`);
  process.stderr.write(`serving ${dir} on http://localhost:${port}/ (try /de/Streets?locality=Berlin&page=2&pageSize=10)\n`);
  const child = spawn(join(ROOT, "node_modules/.bin/wrangler"), ["dev", "--config", join(ROOT, "wrangler.jsonc"), "--assets", dir, "--port", String(port), "--ip", "localhost", "--show-interactive-dev-session=false"], {
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  child.on("exit", (code) => process.exit(code ?? 1));
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
}

function printSummary(summary: BuildSummary | DirectoryBuildSummary, title: string): void {
  const rows = [...summary.files].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const totalFiles = rows.reduce((sum, [, v]) => sum + v.files, 0);
  const totalBytes = rows.reduce((sum, [, v]) => sum + v.bytes, 0);
  const lines = [title, ...summary.notes.map((note) => `note: ${note}`)];
  lines.push(`${"group".padEnd(44)} ${"files".padStart(9)} ${"bytes".padStart(14)}  page sizes as files`);
  for (const [group, { files, bytes }] of rows) {
    const sizes = summary.plan.sizes.get(group);
    lines.push(`${group.padEnd(44)} ${String(files).padStart(9)} ${String(bytes).padStart(14)}  ${sizes === undefined ? "" : describeSizes(sizes)}`);
  }
  lines.push(`${"total".padEnd(44)} ${String(totalFiles).padStart(9)} ${String(totalBytes).padStart(14)}`);
  if ("changes" in summary) {
    const { added, changed, removed, unchanged } = summary.changes;
    lines.push(`changes against the previous build: ${added} added, ${changed} changed, ${removed} removed, ${unchanged} unchanged`);
  }
  const phases = ["fetch", "read", "sort", "render", "write"].map((phase) => `${phase} ${((summary.timings.get(phase) ?? 0) / 1000).toFixed(1)} s`);
  const cpu = process.cpuUsage();
  lines.push(`${phases.join(", ")}; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

function printJson(summary: BuildSummary | DirectoryBuildSummary): void {
  const cpu = process.cpuUsage();
  const usage = {
    files: Object.fromEntries(summary.files),
    pageSizes: Object.fromEntries(summary.plan.sizes),
    views: Object.fromEntries(summary.views),
    timingsMs: Object.fromEntries(summary.timings),
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    notes: summary.notes,
    ...("changes" in summary ? { changes: summary.changes } : {}),
    downloads: { files: summary.downloads.files.length, reserved: summary.downloadFilesReserved },
  };
  process.stdout.write(`${JSON.stringify(usage)}\n`);
}

/** `[1,2,3,5,50]` → `1-3, 5, 50`. */
function describeSizes(sizes: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < sizes.length; ) {
    let j = i;
    while (j + 1 < sizes.length && sizes[j + 1] === (sizes[j] ?? 0) + 1) j++;
    parts.push(i === j ? `${sizes[i]}` : `${sizes[i]}-${sizes[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

function collectSource(value: string, previous: Partial<Record<SourceName, string>>): Partial<Record<SourceName, string>> {
  const eq = value.indexOf("=");
  const name = value.slice(0, eq);
  if (eq <= 0 || eq === value.length - 1) throw new InvalidArgumentError("expected NAME=PATH or NAME=URL");
  if (!isSourceName(name)) throw new InvalidArgumentError(`unknown source '${name}' (known: ${SOURCE_NAMES.join(", ")})`);
  return { ...previous, [name]: value.slice(eq + 1) };
}

function cacheDuration(value: string): string {
  if (!CACHE_DURATION.test(value)) throw new InvalidArgumentError("expected a number and a unit (s, m, h, d, w, y), e.g. 1d, or * for forever");
  return value;
}

function positiveInteger(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError("expected a positive whole number");
  return Number(value);
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

program.parseAsync().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
