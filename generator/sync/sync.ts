import { parseFeed, chainOf } from "./feed.ts";
import { applyBuild, changeFilesOf, readChangeFiles, type Counts } from "./apply.ts";
import { publishedDatasets, type PublishedDataset } from "./datasets.ts";
import { loadDataset, type Progress } from "./load.ts";
import { checkRequested, planDatasets, type DatasetPlan } from "./plan.ts";
import { openSource, type SyncSource } from "./source.ts";
import { CopyMismatch, SyncStore, type CopyState } from "./store.ts";
import type { TableSpec } from "./tables.ts";
import { readVerified } from "./verified.ts";

/** The change files a run reads and checks before applying any, whatever the datasets' size. */
const CHANGES_HELD_BYTES = 64 * 2 ** 20;

export interface SyncOptions {
  /** A deployment or local server (`http(s)://…`), or a build directory (a path or `file://` URL). */
  readonly from: string;
  /** The SQLite database file (created on the first run). */
  readonly db: string;
  /** The datasets to keep (resource ids); default: every dataset the source publishes. */
  readonly datasets?: readonly string[];
  readonly progress?: Progress;
  /** One line on what the run does (a reload and why, a dataset added or dropped). */
  readonly say?: (line: string) => void;
}

/** What a run did. */
export interface SyncSummary {
  readonly source: string;
  readonly db: string;
  /** The copy's build before the run (absent: a new copy) and after it. */
  readonly before?: string;
  readonly builtAt: string;
  /** `loaded`: a new copy; `reloaded`: its datasets loaded again; `updated`: the feed applied (or datasets added or dropped); `unchanged`: nothing to do. */
  readonly action: "loaded" | "reloaded" | "updated" | "unchanged";
  readonly builds: number;
  readonly datasets: readonly DatasetSummary[];
  readonly notes: readonly string[];
  readonly wallMs: number;
  /** The process's CPU time (user and system) during the run. */
  readonly cpuMs: number;
  readonly peakRssMiB: number;
}

export interface DatasetSummary extends Counts {
  readonly resource: string;
  readonly table: string;
  readonly records: number;
  /** Loaded from the downloads in this run (then added counts every record). */
  readonly loaded: boolean;
}

export async function sync(options: SyncOptions): Promise<SyncSummary> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const notes: string[] = [];
  const say = (line: string) => {
    notes.push(line);
    options.say?.(line);
  };
  const source = await openSource(options.from);
  const published = publishedDatasets(source.manifest);
  const target = source.manifest.builtAt;
  checkRequested(published, options.datasets);
  const store = SyncStore.open(options.db);
  try {
    const state = store.state();
    const plan = planDatasets(state, published, options.datasets);
    for (const note of plan.notes) say(note);
    const run = new Run(store, source, published, plan, say, options.progress);
    let action: SyncSummary["action"] = "unchanged";
    if (state === undefined) {
      await run.reload(state);
      action = "loaded";
    } else {
      const reason =
        plan.reason ?? (state.builtAt === target ? undefined : await run.forward(state));
      if (reason !== undefined) {
        say(`${reason}: loading the datasets again`);
        await run.reload(store.state());
        action = "reloaded";
      } else if (run.builds > 0 || (await run.finish(state))) action = "updated";
    }
    return {
      source: source.where,
      db: options.db,
      ...(state === undefined ? {} : { before: state.builtAt }),
      builtAt: target,
      action,
      builds: run.builds,
      datasets: run.summaries(),
      notes,
      wallMs: performance.now() - started,
      cpuMs: ((used) => (used.user + used.system) / 1000)(process.cpuUsage(cpu)),
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    store.close();
  }
}

/** One run's work on the copy, and its counts. */
class Run {
  builds = 0;
  private readonly counts = new Map<string, Counts & { loaded: boolean }>();

  constructor(
    private readonly store: SyncStore,
    private readonly source: SyncSource,
    private readonly published: ReadonlyMap<string, PublishedDataset>,
    private readonly plan: DatasetPlan,
    private readonly say: (line: string) => void,
    private readonly progress: Progress | undefined,
  ) {}

  private get next(): Omit<CopyState, "datasets"> {
    return {
      builtAt: this.source.manifest.builtAt,
      source: this.source.where,
      selection: this.plan.selection,
      published: [...this.published.keys()],
    };
  }

  /** Loads every wanted dataset again in one transaction: the copy is the old build or the new one, never between. */
  async reload(state: CopyState | undefined): Promise<void> {
    this.counts.clear();
    this.builds = 0;
    this.refuseForeign(this.plan.wanted);
    await this.store.transaction(async () => {
      for (const [resource, { table }] of state?.datasets ?? [])
        this.store.dropDataset(resource, table);
      await this.load(this.plan.wanted);
      this.store.setState(state?.builtAt, this.next);
    });
  }

  /**
   * Brings the kept datasets from the copy's build to the source's through the change feed, each
   * build in a transaction of its own; every change file is read and checked first. Returns why
   * not, when the feed cannot (the copy is then still at a complete build, and is loaded again).
   */
  async forward(state: CopyState): Promise<string | undefined> {
    const entry = this.source.manifest.changeFeed;
    if (entry === undefined) return "the source publishes no change feed";
    const feed = parseFeed(await readVerified(this.source, entry), this.source.where);
    const chain = chainOf(feed, state.builtAt, this.source.manifest.builtAt);
    if ("reason" in chain) return chain.reason;
    const kept = this.plan.apply;
    const files = changeFilesOf(chain.builds, new Set(kept.map((spec) => spec.resource)));
    const changeBytes = [...files.values()].reduce((sum, file) => sum + file.bytes, 0);
    const datasetBytes = kept.reduce(
      (sum, spec) => sum + (this.published.get(spec.resource)?.bytes ?? 0),
      0,
    );
    // Every change file is held until all are checked: past the datasets' own size (and a floor
    // that any night fits in), loading the datasets again reads less and holds less.
    if (changeBytes > Math.max(datasetBytes, CHANGES_HELD_BYTES))
      return `the changes since ${state.builtAt} (${changeBytes} bytes) are larger than the datasets (${datasetBytes} bytes)`;
    const read = await readChangeFiles(this.source, files);
    this.refuseForeign(this.plan.load);
    let at = state.builtAt;
    for (const [i, build] of chain.builds.entries()) {
      try {
        const counts = await this.store.transaction(async () => {
          const counts = applyBuild(this.store, kept, build, read);
          // The last build's transaction also makes the copy's datasets the source's.
          if (i === chain.builds.length - 1) await this.complete(at);
          else
            this.store.setState(at, {
              ...this.next,
              builtAt: build.builtAt,
              published: state.published,
            });
          return counts;
        });
        for (const [resource, count] of counts) this.add(resource, count, false);
      } catch (error) {
        if (error instanceof CopyMismatch)
          return `the copy does not hold what the change feed says at the build of ${build.builtAt} (${error.message})`;
        throw error;
      }
      at = build.builtAt;
      this.builds++;
    }
    return undefined;
  }

  /**
   * A copy already at the source's build: completes it (`complete`) in a transaction of its own,
   * when datasets are to be added or dropped. Returns whether it changed the copy.
   */
  async finish(state: CopyState): Promise<boolean> {
    const samePublished =
      JSON.stringify(state.published) === JSON.stringify([...this.published.keys()]);
    if (this.plan.drop.length === 0 && this.plan.load.length === 0 && samePublished) return false;
    this.refuseForeign(this.plan.load);
    await this.store.transaction(() => this.complete(state.builtAt));
    return true;
  }

  /**
   * With the copy's tables at the source's build (in the caller's transaction): drops the datasets
   * no longer kept, loads those new to it and any whose record count is not the build's, and
   * records the build with what it publishes.
   */
  private async complete(from: string): Promise<void> {
    const load = this.toLoad((line) => this.say(line));
    for (const { resource, table } of this.plan.drop) this.store.dropDataset(resource, table);
    await this.load(load);
    this.store.setState(from, this.next);
  }

  /** The datasets to load: new to the copy, and kept ones whose record count is not the build's. */
  private toLoad(say: (line: string) => void): TableSpec[] {
    const load = [...this.plan.load];
    const wanted = new Set(this.plan.wanted.map((spec) => spec.resource));
    for (const spec of this.plan.apply.filter((spec) => wanted.has(spec.resource))) {
      const records = this.store.count(spec.table);
      const expected = this.published.get(spec.resource)?.records ?? 0;
      if (records === expected) continue;
      say(
        `${spec.resource}: the copy holds ${records} records, the build ${expected}: loading it again`,
      );
      load.push(spec);
    }
    return load;
  }

  /** Loads datasets from the downloads (in the caller's transaction), with progress over all their records. */
  private async load(specs: readonly TableSpec[]): Promise<void> {
    if (specs.length === 0) return;
    const datasets = specs.map((spec) => {
      const dataset = this.published.get(spec.resource);
      if (dataset === undefined) throw new Error(`${spec.resource}: not published`);
      return { spec, dataset };
    });
    const total = datasets.reduce((sum, { dataset }) => sum + dataset.records, 0);
    const report = this.progress?.(
      `loading ${datasets.length} ${datasets.length === 1 ? "dataset" : "datasets"}`,
    );
    let done = 0;
    report?.(0, total);
    for (const { spec, dataset } of datasets) {
      const { records } = await loadDataset(
        this.store,
        this.source,
        spec,
        dataset,
        (n) => report?.((done += n), total),
        this.progress,
      );
      this.counts.delete(spec.resource);
      this.add(spec.resource, { added: records, removed: 0, changed: 0 }, true);
    }
  }

  private add(resource: string, count: Counts, loaded: boolean): void {
    const sum = this.counts.get(resource) ?? { added: 0, removed: 0, changed: 0, loaded };
    sum.added += count.added;
    sum.removed += count.removed;
    sum.changed += count.changed;
    sum.loaded ||= loaded;
    this.counts.set(resource, sum);
  }

  private refuseForeign(specs: readonly TableSpec[]): void {
    const foreign = specs.find((spec) => this.store.foreignTable(spec.table));
    if (foreign !== undefined)
      throw new Error(
        `the database has a table ${foreign.table} that the sync did not make: it is not replaced (use another --db)`,
      );
  }

  /** Per dataset the run's counts, and the records the copy holds: the build's (each table was checked against it). */
  summaries(): DatasetSummary[] {
    return this.plan.wanted.map((spec) => ({
      resource: spec.resource,
      table: spec.table,
      records: this.published.get(spec.resource)?.records ?? 0,
      added: 0,
      removed: 0,
      changed: 0,
      loaded: false,
      ...this.counts.get(spec.resource),
    }));
  }
}
