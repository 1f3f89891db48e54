import { gunzipSync } from "node:zlib";
import { CHANGE_FEED, type ChangeFeed } from "../contract/changes.ts";
import {
  datasetPath,
  DOWNLOADS_PREFIX,
  type DownloadFile,
  type DownloadsManifest,
} from "../contract/downloads.ts";
import type { OldDataset } from "./old-cursor.ts";

/**
 * The build a build is compared with: the previous output on this machine, or (the nightly) what
 * is deployed. Only its public files are read: the downloads manifest, datasets and change feed.
 */
export interface Predecessor {
  /** Where it is, for messages: a directory or a URL. */
  readonly where: string;
  /** Of its downloads manifest, what the feed reads: the build time and the complete datasets' files. */
  readonly manifest: PredecessorManifest;
  /** One of its public files (`/downloads/…`); undefined when it has none at that path. */
  read(path: string): Promise<Uint8Array | undefined>;
  /**
   * Like `read`, but into `into` when the file fits there: the bytes returned are then a view of
   * it, overwritten by the next read into it. A predecessor without it reads with `read`.
   */
  readInto?(path: string, into: Buffer): Promise<Uint8Array | undefined>;
  /** Read the datasets' gzip copies where there are some (over the network: about a fifth of the bytes). */
  readonly compressed?: boolean;
}

export type PredecessorManifest = Pick<DownloadsManifest, "builtAt" | "files">;

/** A manifest's files by path, and the paths that have a gzip copy: built once, not once per resource. */
const indexes = new WeakMap<
  PredecessorManifest,
  { byPath: Map<string, DownloadFile>; gzipped: Set<string> }
>();

function indexOf(manifest: PredecessorManifest) {
  let index = indexes.get(manifest);
  if (index === undefined) {
    const plain = manifest.files.filter((file) => file.gzipOf === undefined);
    index = {
      byPath: new Map(plain.map((file) => [file.path, file])),
      gzipped: new Set(manifest.files.flatMap((file) => file.gzipOf ?? [])),
    };
    indexes.set(manifest, index);
  }
  return index;
}

/** A resource's complete JSON dataset in the predecessor; an empty one when it had none (a new resource: every record is added). */
export function oldDatasetOf(predecessor: Predecessor, resourceId: string): OldDataset {
  const { byPath, gzipped } = indexOf(predecessor.manifest);
  const single = byPath.get(datasetPath(resourceId, "json"));
  const parts: DownloadFile[] = single === undefined ? [] : [single];
  for (let part = 1; single === undefined; part++) {
    const file = byPath.get(datasetPath(resourceId, "json", part));
    if (file === undefined) break;
    parts.push(file);
  }
  // One buffer for all of the resource's parts, the largest's size: a fresh one per part (up to
  // the CDN's file size) is memory the allocator maps and the collector counts, again and again.
  const largest = Math.max(0, ...parts.map((file) => file.bytes));
  let scratch: Buffer | undefined;
  return {
    parts: parts.map((file) => ({ records: file.records, sha256: file.sha256 })),
    read: async (part) => {
      const plain = parts[part]?.path ?? "";
      const path = predecessor.compressed === true && gzipped.has(plain) ? `${plain}.gz` : plain;
      const bytes =
        path === plain && predecessor.readInto !== undefined
          ? await predecessor.readInto(path, (scratch ??= Buffer.allocUnsafeSlow(largest)))
          : await predecessor.read(path);
      if (bytes === undefined)
        throw new Error(
          `${predecessor.where}: its downloads manifest lists ${path}, but it has no such file`,
        );
      return path === plain ? bytes : gunzipSync(bytes);
    },
  };
}

/** The predecessor's change feed; undefined when it published none (it predates the feed). */
export async function feedOf(predecessor: Predecessor): Promise<ChangeFeed | undefined> {
  const bytes = await predecessor.read(CHANGE_FEED);
  if (bytes === undefined) return undefined;
  const feed = JSON.parse(Buffer.from(bytes).toString("utf8")) as Partial<ChangeFeed>;
  if (!Array.isArray(feed.builds))
    throw new Error(`${predecessor.where}${CHANGE_FEED}: not a change feed (no builds)`);
  return feed as ChangeFeed;
}

/**
 * Checks the parts of a downloads manifest a predecessor needs, and keeps only them: its build time
 * and its complete datasets' files. The views' files (about 20,000 nationally) would otherwise stay
 * in the heap for the whole build, for the collector to mark again and again.
 */
export function asManifest(json: unknown, where: string): PredecessorManifest {
  const manifest = json as Partial<DownloadsManifest> | null;
  if (typeof manifest?.builtAt !== "string" || !Array.isArray(manifest.files))
    throw new Error(`${where}: not a downloads manifest (no builtAt or files)`);
  const complete = (path: string) => !path.slice(DOWNLOADS_PREFIX.length).includes("/");
  return {
    builtAt: manifest.builtAt,
    files: manifest.files.filter((file) => complete(file.path)),
  };
}
