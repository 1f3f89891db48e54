import { loadResources } from "./pipeline.ts";
import { PhaseTimer } from "./timing.ts";
import { sourcePaths, type SourceName } from "./sources/registry.ts";
import { buildAtomically, DiskSink } from "./write/disk.ts";
import { emitBuild, type EmitResult } from "./write/emit.ts";
import { CountingSink, teeSink, type FileSink } from "./write/sink.ts";

export interface BuildOptions {
  /** Project root: sources are resolved against it. */
  readonly root: string;
  readonly sources: Readonly<Partial<Record<SourceName, string>>>;
  readonly maxFiles: number;
  /** The project's `_headers` text. */
  readonly headersTemplate: string;
  /** Deterministic facts recorded in `/_build.json`. */
  readonly stamp?: Readonly<Record<string, unknown>>;
  readonly onProgress?: (done: number, total: number) => void;
  /** Build only these resources (ids), e.g. a test fixture of one resource; default all. */
  readonly only?: readonly string[];
  /** Bytes of inlined records per index shard (see `EmitOptions`). */
  readonly inlineShardBytes?: number;
}

export interface BuildSummary extends EmitResult {
  readonly files: ReadonlyMap<string, { files: number; bytes: number }>;
  readonly notes: readonly string[];
  /** Milliseconds per phase: read (parse and join), sort (group and order), render, write. */
  readonly timings: ReadonlyMap<string, number>;
}

/** Builds into `sink` (memory, a counter for the plan, or a directory). */
export async function buildInto(options: BuildOptions, sink: FileSink): Promise<BuildSummary> {
  const timer = new PhaseTimer();
  const loaded = await loadResources(sourcePaths(options.root, options.sources), options.root, timer);
  const { notes } = loaded;
  const resources = options.only === undefined ? loaded.resources : loaded.resources.filter((r) => options.only?.includes(r.resource.id));
  const counter = new CountingSink();
  const timedSink: FileSink = { write: (path, data) => timer.measure("write", () => sink.write(path, data)) };
  const started = performance.now();
  const result = emitBuild(
    resources,
    {
      maxFiles: options.maxFiles,
      headersTemplate: options.headersTemplate,
      ...(options.stamp === undefined ? {} : { stamp: options.stamp }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      ...(options.inlineShardBytes === undefined ? {} : { inlineShardBytes: options.inlineShardBytes }),
    },
    teeSink(timedSink, counter),
  );
  timer.add("render", performance.now() - started - (timer.totals.get("write") ?? 0));
  return { ...result, files: counter.files, notes, timings: timer.totals };
}

/** Builds into `outDir`, swapping it in only when the whole build succeeded. */
export function buildToDirectory(options: BuildOptions, outDir: string): Promise<BuildSummary> {
  return buildAtomically(outDir, (tmp) => buildInto(options, new DiskSink(tmp)));
}
