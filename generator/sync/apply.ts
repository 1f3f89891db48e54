import type { FeedBuild } from "../contract/changes.ts";
import type { SyncSource } from "./source.ts";
import type { SyncStore } from "./store.ts";
import { rowOf, type TableSpec } from "./tables.ts";
import { readVerified } from "./verified.ts";

/** Records added, removed and changed. */
export interface Counts {
  added: number;
  removed: number;
  changed: number;
}

/** One record's change as a JSON change file holds it (contract/changes.ts). */
interface RecordChange {
  readonly change: "added" | "removed" | "changed";
  readonly old?: unknown;
  readonly new?: unknown;
}

/** The JSON change files the chain's builds list for the datasets in `resources`: one entry per path (datasets with the same changes share a file). */
export function changeFilesOf(
  builds: readonly FeedBuild[],
  resources: ReadonlySet<string>,
): Map<string, { path: string; sha256: string; bytes: number }> {
  const files = new Map<string, { path: string; sha256: string; bytes: number }>();
  for (const build of builds)
    for (const file of build.files)
      if (file.format === "json" && resources.has(file.resource)) files.set(file.path, file);
  return files;
}

/** Reads every change file and checks its SHA-256 against the feed: all of them, before anything is applied. */
export async function readChangeFiles(
  source: SyncSource,
  files: ReadonlyMap<string, { path: string; sha256: string }>,
): Promise<Map<string, Buffer>> {
  const read = new Map<string, Buffer>();
  for (const file of files.values())
    read.set(file.path, await readVerified(source, file, "the change feed"));
  return read;
}

/**
 * Applies one build's changes to the copy's tables (in the caller's transaction): per dataset the
 * removed records, then the changed ones (same identity, new values), then the added ones. Every
 * removed or changed record must be one the copy holds, value for value (CopyMismatch otherwise).
 */
export function applyBuild(
  store: SyncStore,
  specs: readonly TableSpec[],
  build: FeedBuild,
  files: ReadonlyMap<string, Buffer>,
): Map<string, Counts> {
  const counts = new Map<string, Counts>();
  for (const spec of specs) {
    const file = build.files.find((f) => f.resource === spec.resource && f.format === "json");
    if (file === undefined) continue;
    const bytes = files.get(file.path);
    if (bytes === undefined) throw new Error(`${file.path}: not read`);
    const changes = JSON.parse(bytes.toString("utf8")) as RecordChange[];
    const changer = store.changer(spec);
    const count: Counts = { added: 0, removed: 0, changed: 0 };
    for (const c of changes)
      if (c.change === "removed") (changer.remove(rowOf(spec, c.old)), count.removed++);
    for (const c of changes)
      if (c.change === "changed")
        (changer.change(rowOf(spec, c.old), rowOf(spec, c.new)), count.changed++);
    for (const c of changes)
      if (c.change === "added") (changer.add(rowOf(spec, c.new)), count.added++);
    if (count.added + count.removed + count.changed !== changes.length)
      throw new Error(`${file.path}: entries that are neither added, removed nor changed`);
    counts.set(spec.resource, count);
  }
  return counts;
}
