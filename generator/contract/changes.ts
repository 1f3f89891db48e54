import type { Format } from "./query.ts";

/**
 * The change feed, beside the downloads:
 *
 *   /downloads/changes/index.json                      the feed: the builds of the last FEED_DAYS days
 *   /downloads/changes/{build}/{resource}.{json|csv}   one build's changes to one resource's dataset
 *
 * `{build}` is the build time in UTC, `YYYYMMDD-HHMMSS` (download paths are lower case). A build
 * writes change files only for the resources whose records changed, and resources with the same
 * changes (the same records under other parents) share one pair, so a night costs a few files.
 * Their paths: layout.ts.
 */
export { buildStamp, CHANGE_FEED, CHANGES_PREFIX, changeFilePath } from "./layout.ts";

/** How long a build stays in the feed: a client that syncs less often downloads the datasets again. */
export const FEED_DAYS = 90;

/** How a change file marks each record: CSV rows say `changed-from` (old values) and then `changed-to` (new values) for a changed record. */
export type ChangeKind = "added" | "removed" | "changed";
export const CSV_CHANGE_MARKS = ["added", "removed", "changed-from", "changed-to"] as const;

/** One change file: one build's changes to one resource, in one format. */
export interface ChangeFile {
  readonly resource: string;
  /** The endpoint whose records these are (as the downloads manifest names it). */
  readonly endpoint: string;
  readonly format: Format;
  /** Shared by the resources of one build with the same changes (the same records under other parents). */
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
}

/** One build in the feed: what changed between `since` (its predecessor's build time) and `builtAt`. */
export interface FeedBuild {
  readonly builtAt: string;
  readonly since: string;
  /** Only the resources whose records changed; a resource not listed did not change in this build. */
  readonly files: readonly ChangeFile[];
}

/** `/downloads/changes/index.json`. */
export interface ChangeFeed {
  /** The build that wrote the feed (the downloads manifest's `builtAt`). */
  readonly builtAt: string;
  /** The build this one was compared with; null when it had none (then `builds` is empty). */
  readonly predecessor: string | null;
  /** Why the feed is as it is, e.g. that there was no predecessor to compare with. */
  readonly note: string;
  readonly days: number;
  /**
   * Newest first. A copy of build T applies, oldest first, the build whose `since` is T and each
   * newer one (each one's `since` the `builtAt` of the one before); none has `since` T: the feed no
   * longer reaches the copy, which loads the datasets again (generator/sync/feed.ts).
   */
  readonly builds: readonly FeedBuild[];
}

/** The feed as the downloads manifest lists it. */
export interface FeedEntry {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly predecessor: string | null;
  readonly builds: number;
}
