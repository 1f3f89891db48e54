import type { Format } from "./query.ts";

/**
 * Whole-dataset downloads, served as they are:
 *
 *   /downloads/index.json                       the manifest: every file, its hash, size and credits
 *   /downloads/{resource}.{json|csv}            a complete dataset (in parts when larger than a file may be)
 *   /downloads/{resource}.part-{n}.{json|csv}   part n of a complete dataset
 *   /downloads/{resource}/{slug}.{json|csv}     one view (e.g. one locality's streets), complete
 *   … .gz                                       a gzip copy of any file over GZIP_THRESHOLD bytes
 */
export const DOWNLOADS_PREFIX = "/downloads/";
export const DOWNLOADS_INDEX = "/downloads/index.json";

/** The CDN serves files up to 25 MiB; parts stay under this (a gzip copy is smaller still). */
export const MAX_DOWNLOAD_BYTES = 24 * 1024 * 1024;
export const GZIP_THRESHOLD = 1024 * 1024;

export const GZIP_CONTENT_TYPE = "application/gzip";

export function datasetPath(resource: string, format: Format, part?: number): string {
  return `${DOWNLOADS_PREFIX}${resource}${part === undefined ? "" : `.part-${part}`}.${format}`;
}

export function viewDownloadPath(resource: string, slug: string, format: Format): string {
  return `${DOWNLOADS_PREFIX}${resource}/${slug}.${format}`;
}

/** Whether a public path names a download file (the Worker passes those through as they are). */
export function isDownloadPath(pathname: string): boolean {
  return pathname.startsWith(DOWNLOADS_PREFIX) && /^\/downloads\/[a-z0-9._/-]+$/.test(pathname) && !pathname.includes("..");
}

/** `_headers` rules for the downloads: media types, and a file name for a browser's save dialog. */
export function downloadHeaderRules(contentTypes: Readonly<Record<Format, string>>): string {
  return [
    ...(["json", "csv"] as const).map((format) => `/downloads/*.${format}\n  Content-Type: ${contentTypes[format]}`),
    `/downloads/*.gz\n  Content-Type: ${GZIP_CONTENT_TYPE}\n  Content-Disposition: attachment`,
  ].join("\n\n");
}
