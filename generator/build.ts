import { loadResources } from "./pipeline.ts";
import type { FetchOptions } from "./sources/fetch.ts";
import { loadSources, type LoadEvent, type LoadedSources } from "./sources/load.ts";
import { SOURCE_NAMES, sourceLocations, type SourceName } from "./sources/registry.ts";
import { PhaseTimer } from "./timing.ts";
import { buildAtomically, DiskSink, previousBuild, type ChangeReport } from "./write/disk.ts";
import { emitBuild, type EmitResult } from "./write/emit.ts";
import { CountingSink, teeSink, type FileSink } from "./write/sink.ts";

export interface BuildOptions {
  /** Project root: sources are resolved against it. */
  readonly root: string;
  /** Per-source overrides: a path (relative to `root`), a URL, or several URLs (one per part). */
  readonly sources: Readonly<Partial<Record<SourceName, string | readonly string[]>>>;
  /** Fetch every source not overridden from its publisher instead of the embedded copy. */
  readonly remote?: boolean;
  readonly fetch?: Partial<FetchOptions>;
  readonly onSource?: (event: LoadEvent) => void;
  readonly maxFiles: number;
  /** The project's `_headers` text. */
  readonly headersTemplate: string;
  /** Deterministic facts recorded in `/_build.json`. */
  readonly stamp?: Readonly<Record<string, unknown>>;
  /** The build time the downloads manifest states (ISO 8601); now by default. */
  readonly builtAt?: string;
  readonly onProgress?: (done: number, total: number) => void;
  /** Build only these resources (ids), e.g. a test fixture of one resource; default all. */
  readonly only?: readonly string[];
  /** Bytes of inlined records per index shard (see `EmitOptions`). */
  readonly inlineShardBytes?: number;
}

export interface BuildSummary extends EmitResult {
  readonly files: ReadonlyMap<string, { files: number; bytes: number }>;
  readonly notes: readonly string[];
  /** Milliseconds per phase: fetch (read or download the sources), read (parse and join), sort, render, write. */
  readonly timings: ReadonlyMap<string, number>;
}

export interface DirectoryBuildSummary extends BuildSummary {
  readonly changes: ChangeReport;
}

export const DEFAULT_FETCH: FetchOptions = { cacheDir: ".cache/sources", cacheDuration: "1d", allowStale: false, timeoutMs: 120_000 };

/** Builds into `sink` (memory, a counter for the plan, or a directory). */
export async function buildInto(options: BuildOptions, sink: FileSink): Promise<BuildSummary> {
  const timer = new PhaseTimer();
  const fetchOptions = { ...DEFAULT_FETCH, ...options.fetch };
  const locations = sourceLocations(options.root, options.sources, options.remote ?? false);
  const loaded = await timer.measureAsync("fetch", () => loadSources(locations, options.root, fetchOptions, options.onSource));
  const all = await loadResources(loaded, timer);
  const { notes } = all;
  const resources = options.only === undefined ? all.resources : all.resources.filter((r) => options.only?.includes(r.resource.id));
  const counter = new CountingSink();
  const timedSink: FileSink = { write: (path, data) => timer.measure("write", () => sink.write(path, data)) };
  const started = performance.now();
  const result = await emitBuild(
    resources,
    {
      maxFiles: options.maxFiles,
      headersTemplate: options.headersTemplate,
      stamp: { ...options.stamp, sources: provenanceOf(loaded) },
      builtAt: options.builtAt ?? new Date().toISOString(),
      sources: provenanceOf(loaded),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      ...(options.inlineShardBytes === undefined ? {} : { inlineShardBytes: options.inlineShardBytes }),
    },
    teeSink(timedSink, counter),
  );
  timer.add("render", performance.now() - started - (timer.totals.get("write") ?? 0));
  return { ...result, files: counter.files, notes, timings: timer.totals };
}

/**
 * Builds into `outDir`, swapping it in only when the whole build succeeded. Unless `full`, files
 * whose bytes did not change are hard-linked from the previous build rather than written.
 */
export function buildToDirectory(options: BuildOptions, outDir: string, full = false): Promise<DirectoryBuildSummary> {
  return buildAtomically(outDir, async (tmp) => {
    const sink = new DiskSink(tmp, full ? undefined : previousBuild(outDir));
    const summary = await buildInto(options, sink);
    return { ...summary, changes: sink.finish() };
  });
}

function provenanceOf(loaded: LoadedSources): { name: SourceName }[] {
  return SOURCE_NAMES.flatMap((name) => loaded[name].parts.map((part) => ({ name, ...part.provenance })));
}
