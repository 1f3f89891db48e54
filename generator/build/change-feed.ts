import { createHash } from "node:crypto";
import {
  CHANGE_FEED,
  changeFilePath,
  FEED_DAYS,
  type ChangeFeed,
  type ChangeFile,
  type FeedBuild,
  type FeedEntry,
} from "../contract/changes.ts";
import type { FileSink } from "../io/sink.ts";
import type { AnyResource } from "../resources/resource.ts";
import { changeFileTexts, countChanges } from "./change-files.ts";
import { feedOf, oldDatasetOf, type Predecessor } from "./predecessor.ts";
import { RecordDiff, type RecordSlice } from "./record-diff.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const NO_PREDECESSOR =
  "No earlier build to compare with: the feed starts empty, and the next build lists what changed since this one.";

/** What a build's feed starts from, known before anything is written: the predecessor, and the earlier builds it carries forward. */
export interface FeedStart {
  readonly predecessor?: Predecessor;
  readonly carried: readonly FeedBuild[];
}

/**
 * Reads the predecessor's feed and keeps its builds of the last FEED_DAYS days. A predecessor
 * built at or after `builtAt` is no predecessor (a rebuild of the same build time compares with nothing).
 */
export async function startFeed(
  predecessor: Predecessor | undefined,
  builtAt: string,
): Promise<FeedStart> {
  if (
    predecessor === undefined ||
    !(Date.parse(predecessor.manifest.builtAt) < Date.parse(builtAt))
  )
    return { carried: [] };
  const cutoff = Date.parse(builtAt) - FEED_DAYS * DAY_MS;
  const feed = await feedOf(predecessor);
  const carried = (feed?.builds ?? []).filter(
    (build) =>
      Date.parse(build.builtAt) >= cutoff && Date.parse(build.builtAt) < Date.parse(builtAt),
  );
  return { predecessor, carried };
}

/** Files the feed may write: the carried ones, two per resource that changed, and the feed itself. */
export function feedFilesBound(start: FeedStart, resources: number): number {
  const carried = new Set(start.carried.flatMap((build) => build.files.map((file) => file.path)));
  return 1 + carried.size + (start.predecessor === undefined ? 0 : 2 * resources);
}

/** Writes this build's change files as each resource's dataset completes, then the carried files and the feed. */
export class ChangeFeedWriter {
  private readonly files: ChangeFile[] = [];
  /** This build's change files by their contents (JSON and CSV texts). */
  private readonly written = new Map<string, readonly ChangeFile[]>();

  constructor(
    private readonly sink: FileSink,
    private readonly builtAt: string,
    private readonly start: FeedStart,
  ) {}

  /**
   * The records this build's feed lists as changed, over every resource (each resource's JSON file
   * counted; its CSV file lists the same records); none without a predecessor (an empty feed).
   */
  recordChanges(): { added: number; removed: number; changed: number } | undefined {
    if (this.start.predecessor === undefined) return undefined;
    const json = this.files.filter((file) => file.format === "json");
    const sum = (key: "added" | "removed" | "changed") =>
      json.reduce((total, file) => total + file[key], 0);
    return { added: sum("added"), removed: sum("removed"), changed: sum("changed") };
  }

  /** Follows one resource's dataset; none without a predecessor. */
  resource(resource: AnyResource): ResourceChanges | undefined {
    const predecessor = this.start.predecessor;
    return predecessor === undefined ? undefined : new ResourceChanges(this, resource, predecessor);
  }

  /**
   * Writes one resource's change files, when it has changes. Resources with the same changes
   * (the same records under other parents) share the first one's files: the file budget counts
   * files, and a night's new municipality would otherwise be a pair of files per parent.
   */
  record(resource: AnyResource, diff: Awaited<ReturnType<RecordDiff["finish"]>>): void {
    if (diff.length === 0) return;
    const texts = changeFileTexts(diff, resource.record.columns);
    const counts = countChanges(diff);
    const same = this.written.get(`${texts.json}\u0000${texts.csv}`);
    for (const format of ["json", "csv"] as const) {
      const shared = same?.find((file) => file.format === format);
      const written =
        shared === undefined
          ? this.write(changeFilePath(this.builtAt, resource.id, format), texts[format])
          : { path: shared.path, bytes: shared.bytes, sha256: shared.sha256 };
      this.files.push({
        resource: resource.id,
        endpoint: resource.path,
        format,
        ...written,
        ...counts,
      });
    }
    if (same === undefined)
      this.written.set(`${texts.json}\u0000${texts.csv}`, this.files.slice(-2));
  }

  private write(path: string, text: string): { path: string; bytes: number; sha256: string } {
    const written = this.sink.write(path, text);
    return { path, bytes: written.bytes, sha256: written.sha256Hex() };
  }

  /** Republishes the carried builds' files (checked against their SHA-256), then writes the feed. */
  async finish(): Promise<FeedEntry> {
    const { predecessor, carried } = this.start;
    // Resources with the same changes share a file: each is republished once.
    const unique = new Map(
      carried.flatMap((build) => build.files).map((file) => [file.path, file]),
    );
    for (const file of unique.values()) {
      const bytes = await predecessor?.read(file.path);
      if (bytes === undefined)
        throw new Error(
          `${predecessor?.where ?? "the predecessor"}: its change feed lists ${file.path}, but it has no such file`,
        );
      const digest = createHash("sha256").update(bytes).digest("hex");
      if (digest !== file.sha256)
        throw new Error(
          `${predecessor?.where ?? "the predecessor"}${file.path}: SHA-256 ${digest}, but its change feed says ${file.sha256}`,
        );
      this.sink.write(file.path, bytes);
    }
    const since = predecessor?.manifest.builtAt ?? null;
    const order = (file: ChangeFile) => `${file.resource}\u0000${file.format}`;
    const files = [...this.files].sort((a, b) =>
      order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0,
    );
    const builds = since === null ? [] : [{ builtAt: this.builtAt, since, files }, ...carried];
    const note =
      since === null
        ? NO_PREDECESSOR
        : `Builds of the last ${FEED_DAYS} days, newest first; this build was compared with the one built at ${since}.`;
    const feed: ChangeFeed = {
      builtAt: this.builtAt,
      predecessor: since,
      note,
      days: FEED_DAYS,
      builds,
    };
    const written = this.sink.write(CHANGE_FEED, `${JSON.stringify(feed)}\n`);
    return {
      path: CHANGE_FEED,
      bytes: written.bytes,
      sha256: written.sha256Hex(),
      predecessor: since,
      builds: builds.length,
    };
  }
}

/** One resource's diff as its dataset is written, part by part. */
export class ResourceChanges {
  private readonly diff: RecordDiff;

  constructor(
    private readonly feed: ChangeFeedWriter,
    private readonly resource: AnyResource,
    predecessor: Predecessor,
  ) {
    // Nothing is read yet: the old dataset's parts are read as the diff reaches them.
    this.diff = new RecordDiff(oldDatasetOf(predecessor, resource.id), resource.record.columns);
  }

  /** One JSON part of the dataset as written: its records, and its SHA-256. */
  part(slices: readonly RecordSlice[], sha256: string): Promise<void> {
    return this.diff.part(slices, sha256);
  }

  async finish(): Promise<void> {
    this.feed.record(this.resource, await this.diff.finish(this.resource.id));
  }
}
