import type { FeedEntry } from "./changes.ts";
import { DOWNLOADS_PREFIX } from "./layout.ts";
import type { Format } from "./query.ts";

/**
 * Whole-dataset downloads, served as they are (their paths: layout.ts, docs/FORMAT.md § 10): the
 * manifest, complete datasets (in parts when larger than a file may be), one view's records, and
 * a gzip copy of any file over GZIP_THRESHOLD bytes; the change feed (changes.ts).
 */
export { datasetPath, DOWNLOADS_INDEX, DOWNLOADS_PREFIX, viewDownloadPath } from "./layout.ts";

/** The CDN serves files up to 25 MiB; parts stay under this (a gzip copy is smaller still). */
export const MAX_DOWNLOAD_BYTES = 24 * 1024 * 1024;
export const GZIP_THRESHOLD = 1024 * 1024;

export const GZIP_CONTENT_TYPE = "application/gzip";

/** Whether a public path names a download file (the Worker passes those through as they are). */
export function isDownloadPath(pathname: string): boolean {
  return (
    pathname.startsWith(DOWNLOADS_PREFIX) &&
    /^\/downloads\/[a-z0-9._/-]+$/.test(pathname) &&
    !pathname.includes("..")
  );
}

/** The credit of a download's records: where they come from, how to attribute them, their licence. */
export interface DownloadCredit {
  readonly source: string;
  readonly attribution: string;
  readonly licence: string;
  readonly licenceUrl?: string;
  readonly asOf: string;
}

/** One entry of `/downloads/index.json`. */
export interface DownloadFile {
  readonly path: string;
  readonly mediaType: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly records: number;
  /** The endpoint whose records these are, and for one view the filter that selects it. */
  readonly endpoint: string;
  readonly filter?: Readonly<Record<string, string>>;
  readonly format: Format;
  readonly part?: number;
  readonly parts?: number;
  /** For a gzip copy: the file it compresses. */
  readonly gzipOf?: string;
  readonly credits: readonly DownloadCredit[];
}

/** `/downloads/index.json`: every download file, when the data was built, from which sources, and what the joins of the sources made of their rows. */
export interface DownloadsManifest {
  readonly builtAt: string;
  readonly files: readonly DownloadFile[];
  readonly sources: readonly unknown[];
  /** Per source joined to another: rows, joined, skipped (unmatched, ambiguous, other causes), renamings and the skipped rows. */
  readonly joins: readonly unknown[];
  /** The change feed: what changed per resource in the builds of the last days (changes.ts). */
  readonly changeFeed?: FeedEntry;
}
