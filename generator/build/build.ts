import { createHash } from "node:crypto";
import { buildAtomically, DiskSink, previousBuild, type ChangeReport } from "../io/disk.ts";
import { codeFingerprint, readBuildManifest } from "../io/read.ts";
import { CountingSink, type FileSink } from "../io/sink.ts";
import type { JoinReport } from "../model/join-report.ts";
import { recordsOf, type Dataset } from "../model/records.ts";
import type { FetchOptions } from "../sources/fetch.ts";
import { loadSources, type LoadEvent, type LoadedSources } from "../sources/load.ts";
import { readRows } from "../sources/read.ts";
import { SOURCE_NAMES, sourceLocations, type SourceName } from "../sources/registry.ts";
import { DEFAULT_FETCH } from "./fetch-defaults.ts";
import { emitBuild, startSearches, type Emitted, type EmitResult } from "./emit.ts";
import { feedFilesBound, startFeed } from "./change-feed.ts";
import {
  checkGuards,
  countsOfManifest,
  type Baseline,
  type GuardOptions,
  type GuardReport,
} from "./guards.ts";
import { localPredecessor } from "./local-predecessor.ts";
import type { Predecessor } from "./predecessor.ts";
import { SearchThreads } from "./search-thread.ts";
import { PhaseTimer } from "./timing.ts";
import { prepare, type PreparedResource } from "./views.ts";
import { isFullTextSearch, isSearchedStreets, isSuggesting } from "../contract/routes.ts";
import { RESOURCES } from "../resources/index.ts";

export interface BuildOptions {
  /** Project root: sources are resolved against it. */
  readonly root: string;
  /** Per-source overrides: a path (relative to `root`), a URL, or several URLs (one per part). */
  readonly sources: Readonly<Partial<Record<SourceName, string | readonly string[]>>>;
  /** Fetch every source not overridden from its publisher instead of the embedded copy. */
  readonly remote?: boolean;
  /** Sources a remote build reads from their embedded copy instead (reported, and marked in the manifest). */
  readonly allowEmbedded?: readonly SourceName[];
  /** A stand-in for every publisher (`https://host/path` is fetched as `{mirror}/host/path`). */
  readonly mirror?: string;
  readonly fetch?: Partial<FetchOptions>;
  readonly onSource?: (event: LoadEvent) => void;
  /** The sources, when the caller has loaded them already (`start`, to see whether to build at all). */
  readonly loaded?: LoadedSources;
  readonly maxFiles: number;
  /** False: write no page files, only the minimum (see `PlanOptions.pageFiles`). */
  readonly pageFiles?: boolean;
  /** The project's `_headers` text. */
  readonly headersTemplate: string;
  /** The build time the downloads manifest states (ISO 8601); now by default. */
  readonly builtAt?: string;
  readonly onProgress?: (done: number, total: number) => void;
  /** Build only these resources (ids), e.g. a test fixture of one resource; default all. */
  readonly only?: readonly string[];
  /** Write the street search indexes (default true; false only to measure what they cost). */
  readonly searchIndex?: boolean;
  /** Bytes of index one search may read (default SEARCH_READ_BUDGET); broader searches get a 400. */
  readonly searchReadBudget?: number;
  /** Bytes of inlined records per index shard (see `PlanOptions`). */
  readonly inlineShardBytes?: number;
  /** The data guards: thresholds, and what to compare the record counts with (a directory build: its previous output by default). */
  readonly guards?: GuardOptions;
  /** The build the change feed compares with (a directory build: its previous output by default); none: an empty feed. */
  readonly predecessor?: Predecessor;
}

export interface BuildSummary extends EmitResult {
  readonly files: ReadonlyMap<string, { files: number; bytes: number }>;
  /** Per joined source: rows joined and skipped by cause (also in the downloads manifest). */
  readonly joins: readonly JoinReport[];
  readonly notes: readonly string[];
  /** What the data guards checked (a build that fails one throws instead). */
  readonly guard: GuardReport;
  /** Milliseconds per phase: fetch (read or download the sources), read (parse and join), sort, render, write. */
  readonly timings: ReadonlyMap<string, number>;
}

export interface DirectoryBuildSummary extends BuildSummary {
  readonly changes: ChangeReport;
}

export { DEFAULT_FETCH };

/** Reads or downloads every source a build with these options reads. */
export function loadBuildSources(
  options: Pick<
    BuildOptions,
    "root" | "sources" | "remote" | "allowEmbedded" | "mirror" | "builtAt" | "fetch" | "onSource"
  >,
): Promise<LoadedSources> {
  const locations = sourceLocations(options.root, options.sources, {
    remote: options.remote ?? false,
    allowEmbedded: options.allowEmbedded ?? [],
    ...(options.mirror === undefined ? {} : { mirror: options.mirror }),
    today: options.builtAt === undefined ? new Date() : new Date(options.builtAt),
  });
  return loadSources(
    locations,
    options.root,
    { ...DEFAULT_FETCH, ...options.fetch },
    options.onSource,
  );
}

/** What a build's output depends on: the generator, `_headers`, the package and every source's bytes. */
export function buildFingerprint(loaded: LoadedSources): string {
  const hash = createHash("sha256").update(codeFingerprint());
  for (const { name, ...part } of provenanceOf(loaded))
    hash.update(`${name}\u0000${part.sha256}\n`);
  return hash.digest("hex").slice(0, 16);
}

/** Builds into `sink` (memory, a counter for the plan, or a directory). */
export async function buildInto(options: BuildOptions, sink: FileSink): Promise<BuildSummary> {
  const threads = new SearchThreads();
  // The search thread loads its modules while the sources are read.
  if (options.searchIndex !== false && searchesStreets(options.only)) threads.prestart();
  try {
    return await buildWith(options, sink, threads);
  } finally {
    threads.close();
  }
}

async function buildWith(
  options: BuildOptions,
  sink: FileSink,
  threads: SearchThreads,
): Promise<BuildSummary> {
  const timer = new PhaseTimer();
  const { datasets, joins, notes, sources, fingerprint, labels } = await readInputs(options, timer);
  const selected = datasets.filter((d) => options.only?.includes(d.resource.id) ?? true);
  const timed: FileSink = {
    write: (path, data) => timer.measure("write", () => sink.write(path, data)),
    keep: (path) => timer.measure("write", () => sink.keep?.(path)),
    read: (path) => timer.measure("write", () => sink.read?.(path)),
    settle: () => timer.measureAsync("write", async () => sink.settle?.()),
    copies: sink.copies === true,
  };
  const counter = new CountingSink(timed);
  const search = options.searchIndex !== false;
  // The search indexes first, their threads working while the records are sorted here.
  const orders = new Map<string, readonly number[]>();
  const searches = startSearches(
    emittedOf(selected, undefined, search),
    { threads, searchReadBudget: options.searchReadBudget, orders },
    counter,
    timer,
  );
  threads.close();
  const order = (d: Dataset) => orders.get(d.resource.id); // a Streets resource's, numbered there
  const resources = timer.measure("sort", () =>
    selected.map((d) => prepare(d.resource, d.records as readonly never[], order(d))),
  );
  orders.clear();
  const guard = checkGuards(
    {
      resources: resources.map((prepared, i) => ({
        prepared,
        sources: selected[i]?.sources ?? [],
      })),
      joins,
      labels,
    },
    options.guards,
  );
  const builtAt = options.builtAt ?? new Date().toISOString();
  const feed = await startFeed(options.predecessor, builtAt);
  const result = await emitBuild(
    emittedOf(selected, resources, search),
    {
      maxFiles: options.maxFiles,
      ...(options.pageFiles === undefined ? {} : { pageFiles: options.pageFiles }),
      headersTemplate: options.headersTemplate,
      stamp: { fingerprint, sources },
      builtAt,
      feed,
      feedFiles: feedFilesBound(feed, resources.length),
      sources,
      joins,
      timer,
      searches,
      // The records, read: each view's are freed once it is written (views.ts), the peak's memory.
      recordsRead: () => datasets.forEach((d) => ((d.records as unknown[]).length = 0)),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      ...(options.inlineShardBytes === undefined
        ? {}
        : { inlineShardBytes: options.inlineShardBytes }),
    },
    counter,
  );
  return { ...result, files: counter.files, joins, notes, guard, timings: timer.totals };
}

/** Whether a build of `only` (all resources when undefined) writes a search index. */
function searchesStreets(only: readonly string[] | undefined): boolean {
  return RESOURCES.some(
    (resource) => isSearchedStreets(resource) && (only === undefined || only.includes(resource.id)),
  );
}

/**
 * The records of every resource from the sources, with what the build records of the sources.
 * The sources' bytes are not kept beyond this (a national street list is 55 MB).
 */
async function readInputs(options: BuildOptions, timer: PhaseTimer) {
  const loaded =
    options.loaded ?? (await timer.measureAsync("fetch", () => loadBuildSources(options)));
  const sources = provenanceOf(loaded);
  const fingerprint = buildFingerprint(loaded);
  const labels = Object.fromEntries(
    Object.values(loaded).map((source) => [source.name, source.label]),
  ) as Record<SourceName, string>;
  const records = await timer.measureAsync("read", async () => recordsOf(await readRows(loaded)));
  return { ...records, sources, fingerprint, labels };
}

/**
 * Builds into `outDir`, swapping it in only when the whole build succeeded. Unless `full`, files
 * whose bytes did not change are hard-linked from the previous build rather than written. The
 * record counts are compared with the previous build's, unless the guards name another baseline.
 */
export function buildToDirectory(
  options: BuildOptions,
  outDir: string,
  full = false,
  removeOld: "wait" | "background" = "wait",
): Promise<DirectoryBuildSummary> {
  const baseline = options.guards?.baseline ?? directoryBaseline(outDir);
  const guards: GuardOptions = {
    ...options.guards,
    ...(baseline === undefined ? {} : { baseline }),
  };
  return buildAtomically(
    outDir,
    async (tmp) => {
      // The previous output's file list (about 100,000 lines nationally), read once for both.
      const previous = previousBuild(outDir);
      const predecessor = options.predecessor ?? localPredecessor(outDir, previous);
      const sink = new DiskSink(tmp, full ? undefined : previous);
      try {
        const summary = await buildInto(
          { ...options, guards, ...(predecessor === undefined ? {} : { predecessor }) },
          sink,
        );
        return { ...summary, changes: await sink.finish() };
      } finally {
        await sink.close();
      }
    },
    removeOld,
  );
}

/** The record counts of the build in `dir` (its downloads manifest); none when `dir` holds no build. */
export function directoryBaseline(dir: string): Baseline | undefined {
  const manifest = readBuildManifest(dir);
  return manifest === undefined
    ? undefined
    : { where: manifest.path, counts: countsOfManifest(manifest.json) };
}

function provenanceOf(loaded: LoadedSources): { name: SourceName; sha256: string }[] {
  return SOURCE_NAMES.flatMap((name) =>
    (loaded[name]?.parts ?? []).map((part) => ({ name, ...part.provenance })),
  );
}

/**
 * What the build emits, in the order of RESOURCES: each dataset's records (none before they are
 * `prepared`) and, unless `search` is off, each FullTextSearch whose country's Streets are among
 * the datasets (its search index), and its Suggestions (the suggestions index) and AddressCheck.
 */
function emittedOf(
  datasets: readonly Dataset[],
  prepared: readonly PreparedResource[] | undefined,
  search: boolean,
): Emitted[] {
  const records = new Map(
    datasets.flatMap((dataset, i) => {
      const resource = prepared?.[i];
      return resource === undefined ? [] : [[dataset.resource, { dataset, resource }] as const];
    }),
  );
  return RESOURCES.flatMap((resource): Emitted[] => {
    if (isFullTextSearch(resource) || isSuggesting(resource)) {
      const streets = datasets.find(
        (d) =>
          isSearchedStreets(d.resource) && d.resource.search.country === resource.search.country,
      );
      const kind = isFullTextSearch(resource) ? "search" : "suggest";
      return search && streets !== undefined ? [{ kind, resource, streets }] : [];
    }
    const entry = records.get(resource);
    return entry === undefined
      ? []
      : [{ kind: "records", prepared: entry.resource, records: entry.dataset.records }];
  });
}
