import type { DownloadsManifest } from "../contract/downloads.ts";
import type { DocsResource } from "../docs/input.ts";
import type { FileSink } from "../io/sink.ts";
import { ChangeFeedWriter, type FeedStart } from "./change-feed.ts";
import { DownloadWriter } from "./downloads.ts";
import { docsEntry, exampleMatch, sampleView } from "./emit-docs.ts";
import { emitList, emitPagedResource } from "./emit-records.ts";
import type { SearchUnit } from "./emit-search.ts";
import { writePages, type PendingPages } from "./emit-pages.ts";
import { emitSearchOnThread, type SearchThreads } from "./search-thread.ts";
import type { StreetIndexesSummary } from "./street-indexes.ts";
import { numberStreets, type Street } from "./search-records.ts";
import { writeMatchTables } from "./match-tables.ts";
import {
  inlinedOf,
  planLayout,
  planSizes,
  recordSizes,
  shardsOf,
  type BuildPlan,
  type PlanOptions,
} from "./plan.ts";
import { emitSite } from "./emit-site.ts";
import { PhaseTimer } from "./timing.ts";
import type { PreparedResource } from "./views.ts";

/** One resource as the build emits it, in the order the API lists them (route table, docs). */
export type Emitted =
  | {
      readonly kind: "records";
      readonly prepared: PreparedResource;
      /** The dataset's records as the model made them (the match tables are made of them). */
      readonly records: readonly unknown[];
    }
  | ({ readonly kind: "search" } & SearchUnit)
  /** Suggestions or the address check: answered from the suggestions index, written with the search index's numbering. */
  | ({ readonly kind: "suggest" } & SearchUnit);

export interface EmitOptions extends Omit<PlanOptions, "writtenFiles"> {
  /** The project's `_headers` (common headers for every response); the build's rules are appended. */
  readonly headersTemplate: string;
  readonly onProgress?: (done: number, total: number) => void;
  /** Facts about the inputs recorded in `/_build.json` (must be deterministic). */
  readonly stamp: Readonly<Record<string, unknown>>;
  /** When the data was built: the downloads manifest says so. */
  readonly builtAt: string;
  /** Where each source came from, for the downloads manifest. */
  readonly sources: readonly unknown[];
  /** What the joins made of the sources' rows, for the downloads manifest. */
  readonly joins: readonly unknown[];
  /** The predecessor and the feed it carries forward; none: the feed is published empty. */
  readonly feed?: FeedStart;
  /** Bytes of index one search may read (default SEARCH_READ_BUDGET). */
  readonly searchReadBudget?: number;
  /** Times the search emitter as the `search` phase, the rest as `render` (writes are the sink's). */
  readonly timer?: PhaseTimer;
  /** The search indexes, when started before (`startSearches`); else they are started here. */
  readonly searches?: StartedSearches;
  /** Called once the match tables, the records' last reader but the views, are written: let go of them then. */
  readonly recordsRead?: () => void;
}

/** The search indexes being written, by the id of their FullTextSearch. */
export type StartedSearches = ReadonlyMap<string, Promise<StreetIndexesSummary>>;

/**
 * Starts the search indexes of `emitted` (each with its suggestions index, when its Suggestions
 * is among them), each on a thread of its own (`threads`' prestarted one first): the streets
 * numbered here (sorted, heads and places; the order kept in `orders`, by the Streets resource's
 * id), the index built there and written into `sink`. Only the search and suggest units of
 * `emitted` are looked at, so the build starts them before the records are prepared, and the
 * threads work while the main thread sorts.
 */
export function startSearches(
  emitted: readonly Emitted[],
  options: {
    readonly searchReadBudget?: number | undefined;
    readonly threads?: SearchThreads;
    readonly orders?: Map<string, readonly number[]>;
  },
  sink: FileSink,
  timer: PhaseTimer = new PhaseTimer(),
): StartedSearches {
  // The countries whose Suggestions is emitted: their suggestions index is written with the search
  // index, from its numbering of streets and places (street-indexes.ts).
  const suggested = new Set(
    emitted.flatMap((unit) =>
      unit.kind === "suggest" && unit.resource.search.role === "suggestions"
        ? [unit.resource.search.country]
        : [],
    ),
  );
  return new Map(
    emitted.flatMap((unit) => {
      if (unit.kind !== "search") return [];
      const { resource, records } = unit.streets;
      const streets = records as readonly Street[];
      const indexed = timer.measure("search", () => {
        const { sorted, indexed } = numberStreets(resource, streets);
        options.orders?.set(resource.id, sorted);
        return indexed;
      });
      const job = {
        country: unit.resource.search.country,
        indexed,
        suggest: suggested.has(unit.resource.search.country),
        ...(options.searchReadBudget === undefined ? {} : { readBudget: options.searchReadBudget }),
      };
      const index =
        options.threads === undefined
          ? emitSearchOnThread(job, sink)
          : options.threads.run(job, sink);
      // Awaited in turn by emitBuild; a failure before then is not an unhandled rejection.
      index.catch(() => undefined);
      return [[unit.resource.id, index] as const];
    }),
  );
}

export interface EmitResult {
  readonly plan: BuildPlan;
  readonly views: ReadonlyMap<string, number>;
  readonly downloads: DownloadsManifest;
  /** Views rendered, counted once per render: equal to the number of views when each is rendered once. */
  readonly renders: number;
  /** The records the change feed lists as added, removed and changed; none without a predecessor. */
  readonly recordChanges?: { added: number; removed: number; changed: number };
}

/**
 * Writes a whole build into `sink`: the search indexes (each with its suggestions index, when its
 * Suggestions is emitted) on threads of their own (search-thread.ts)
 * while the match tables and each resource's records (packs, lists, downloads) are written here;
 * then, once the search indexes' file count is known, the page sizes the file budget leaves and
 * the page files (cut from the packs) and index shards (emit-pages.ts); then the docs, `_headers`,
 * the route table and `/_build.json`. The docs and the route table list every emitted resource in
 * the order given. The same bytes as one after the other: only the order of writing differs.
 */
export async function emitBuild(
  emitted: readonly Emitted[],
  options: EmitOptions,
  sink: FileSink,
): Promise<EmitResult> {
  const timer = options.timer ?? new PhaseTimer();
  return timer.measureAsync("render", () => emitAll(emitted, options, sink, timer));
}

async function emitAll(
  emitted: readonly Emitted[],
  options: EmitOptions,
  sink: FileSink,
  timer: PhaseTimer,
): Promise<EmitResult> {
  let written = 0;
  const counted: FileSink = {
    write: (path, data) => (written++, sink.write(path, data)),
    read: (path) => sink.read?.(path),
    settle: async () => sink.settle?.(),
    copies: sink.copies === true,
  };
  const started = options.searches ?? startSearches(emitted, options, sink, timer);
  const ofRecords = emitted.flatMap((unit) => (unit.kind === "records" ? [unit] : []));
  const matchFiles = writeMatchTables(
    ofRecords.map(({ prepared, records }) => ({ resource: prepared.resource, records })),
    counted,
  );
  options.recordsRead?.();
  const resources = ofRecords.map((unit) => unit.prepared);
  // Which views are inlined is chosen per resource as it is written, so each one's small views
  // are rendered then, not all before the first (they were 40 MiB through the national Streets).
  const known = {
    sizes: recordSizes(resources),
    shards: shardsOf(resources),
    inlined: new Map<string, ReadonlySet<string>>(),
  };
  const feed = new ChangeFeedWriter(counted, options.builtAt, options.feed ?? { carried: [] });
  const downloads = new DownloadWriter(counted, undefined, feed);
  const paged = resources.filter((r) => r.resource.query.paged);
  const totalViews = paged.reduce((sum, r) => sum + r.views.length, 0);
  let doneViews = 0;
  /** The docs' entry of each emitted resource, by id. */
  const docs = new Map<string, DocsResource>();
  const pending: PendingPages[] = [];
  for (const prepared of resources) {
    if (prepared.resource.query.paged) {
      known.inlined.set(prepared.resource.id, inlinedOf(prepared, options));
      const written = await emitPagedResource(
        prepared,
        known,
        counted,
        downloads,
        {
          key: sampleView(prepared.resource, prepared.views)?.key,
          ...exampleMatch(prepared.resource),
        },
        () => options.onProgress?.(++doneViews, totalViews),
      );
      pending.push(written.pending);
      docs.set(prepared.resource.id, docsEntry(prepared, written.sample));
    } else
      docs.set(
        prepared.resource.id,
        docsEntry(prepared, await emitList(prepared, counted, downloads)),
      );
  }
  // The page sizes: what the budget leaves once the search indexes' files are counted.
  let searchFiles = 0;
  const indexedStreets = new Map<string, number>();
  for (const unit of emitted) {
    if (unit.kind !== "search") continue;
    const index = started.get(unit.resource.id);
    if (index === undefined)
      throw new Error(`${unit.resource.id}: its search index was not started`);
    const summary = await timer.measureAsync("search", () => index);
    searchFiles += summary.files + (summary.suggest?.files ?? 0);
    indexedStreets.set(unit.resource.search.country, summary.streets);
  }
  written += searchFiles; // the search threads wrote into `sink` directly: all written now
  for (const unit of emitted) {
    if (unit.kind === "records") continue;
    const streets = indexedStreets.get(unit.resource.search.country);
    if (streets === undefined)
      throw new Error(`${unit.resource.id}: no search index of ${unit.resource.search.country}`);
    // No sample record: the build does not run searches.
    docs.set(unit.resource.id, { resource: unit.resource, records: streets, views: 1 });
  }
  const layout = planLayout(resources, options, known);
  const plan = planSizes(layout, resources, { ...options, writtenFiles: searchFiles + matchFiles });
  await counted.settle?.();
  for (const resource of pending) writePages(resource, plan, counted);
  const manifest = await downloads.finish(options.builtAt, options.sources, options.joins);
  emitSite(counted, {
    resources: emitted.flatMap((unit) => docs.get(idOf(unit)) ?? []),
    downloads: manifest,
    headersTemplate: options.headersTemplate,
    plan,
    stamp: options.stamp,
  });
  if (written > (options.pageFiles === false ? plan.minimumFiles : options.maxFiles)) {
    throw new Error(
      `the build came to ${written} files, over the budget of ${options.maxFiles}: the downloads needed more files than the ${plan.downloadFilesReserved} estimated`,
    );
  }
  const views = new Map(paged.map((r) => [r.resource.id, r.views.length]));
  const renders = resources.reduce(
    (sum, r) => sum + r.views.reduce((n, view) => n + view.renders, 0),
    0,
  );
  const recordChanges = feed.recordChanges();
  return {
    plan,
    views,
    downloads: manifest,
    renders,
    ...(recordChanges === undefined ? {} : { recordChanges }),
  };
}

const idOf = (unit: Emitted): string =>
  unit.kind === "records" ? unit.prepared.resource.id : unit.resource.id;
