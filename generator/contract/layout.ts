import { pageCount } from "./paging.ts";
import type { Format } from "./query.ts";

/**
 * The build's layout on disk: every path the generator writes and the Worker (or the local server)
 * reads is made here, and docs/FORMAT.md specifies them, one numbered section per path family.
 * The codecs of what the files hold live beside their users (shard.ts, pack.ts, search/).
 */

/**
 * The layout's version (docs/FORMAT.md § 1). Raise it whenever a path or a file's content changes
 * in a way that the other side cannot read: the route table and each search meta carry it, and
 * the Worker and `serve` refuse a build of another version instead of misreading it.
 */
export const FORMAT_VERSION = 10;

/**
 * Why a build stamped `found` cannot be read by this code, as one line naming `what` (a directory,
 * a file); undefined when it can. A build without the field predates versioning: format 0.
 */
export function formatMismatch(what: string, found: unknown): string | undefined {
  if (found === FORMAT_VERSION) return undefined;
  const version =
    found === undefined
      ? 0
      : typeof found === "number" && Number.isSafeInteger(found)
        ? found
        : JSON.stringify(found);
  return `${what} is a build of format ${version}, this code reads format ${FORMAT_VERSION}; rebuild it with npm run build`;
}

// § 2: page files.

/** Slug of the one view of a paged resource without a filter. */
export const ALL_SLUG = "_all";

export interface PageAddress {
  readonly resource: string;
  readonly slug: string;
  readonly total: number;
  readonly pageSize: number;
  readonly page: number;
  readonly format: Format;
}

const pageFile = (
  resource: string,
  slug: string,
  total: string,
  pageSize: string,
  pages: string,
  page: string,
  format: string,
) => `/_p/${resource}/${slug}/${total}/${pageSize}/${pages}/${page}.${format}`;

export function pagePath(a: PageAddress): string {
  return pageFile(
    a.resource,
    a.slug,
    String(a.total),
    String(a.pageSize),
    String(pageCount(a.total, a.pageSize)),
    String(a.page),
    a.format,
  );
}

/** The page files of one format as a `_headers` pattern, each segment a `:name` placeholder. */
export function pagePathPattern(
  format: Format,
  names: { readonly [K in "resource" | "slug" | "total" | "pageSize" | "pages" | "page"]: string },
): string {
  return pageFile(
    `:${names.resource}`,
    `:${names.slug}`,
    `:${names.total}`,
    `:${names.pageSize}`,
    `:${names.pages}`,
    `:${names.page}`,
    format,
  );
}

// § 3: index shards; § 4: packed records; § 5: unpaged lists.

export function indexPath(resource: string, shard: number): string {
  return `/_i/${resource}/${shard.toString(16).padStart(2, "0")}.json`;
}

export function packPath(resource: string, format: Format, chunk: number): string {
  return `/_c/${resource}/${format}/${chunk}.bin`;
}

/** An unpaged list; `listPath("*", format)` is the `_headers` pattern of all of them. */
/** The match table of a resource with pattern filters (match-table.ts): what the Worker matches a pattern against. */
export function matchTablePath(resource: string): string {
  return `/_m/${resource}.bin`;
}

export function listPath(resource: string, format: Format): string {
  return `/_l/${resource}.${format}`;
}

// § 6: the docs.

/** The docs files of a build: the Worker passes them through with their `_headers` rules. */
export const DOCS_FILES = ["/index.html", "/docs.js", "/openapi.json"] as const;
export type DocsFile = (typeof DOCS_FILES)[number];

/** Public path → docs file: each file at its own path, and the page at `/` too. */
export const DOCS_ROUTES: ReadonlyMap<string, DocsFile> = new Map<string, DocsFile>([
  ["/", "/index.html"],
  ...DOCS_FILES.map((file) => [file, file] as const),
]);

// § 7: the street-search index, per country.

export const searchMetaPath = (cc: string) => `/_s/${cc}/meta.json`;
export const placesPath = (cc: string) => `/_s/${cc}/places.bin`;
export const lexiconPath = (cc: string, shard: number) => `/_s/${cc}/l/${shard}.bin`;
export const trigramPath = (cc: string, shard: number) => `/_s/${cc}/g/${shard}.bin`;
export const tailsPath = (cc: string, shard: number) => `/_s/${cc}/t/${shard}.bin`;
export const listChunkPath = (cc: string, chunk: number) => `/_s/${cc}/p/${chunk}.bin`;
export const recordsPath = (cc: string, chunk: number) => `/_s/${cc}/r/${chunk}.bin`;
export const headsPath = (cc: string, chunk: number) => `/_s/${cc}/h/${chunk}.bin`;
export const bitmapPath = (cc: string, n: number) => `/_s/${cc}/b/${n}.bin`;
export const gramCountsPath = (cc: string, n: number) => `/_s/${cc}/c/${n}.bin`;
export const placeStreetsPath = (cc: string, n: number) => `/_s/${cc}/s/${n}.bin`;
export const suggestMetaPath = (cc: string) => `/_s/${cc}/suggest/meta.json`;
export const suggestPlacesPath = (cc: string) => `/_s/${cc}/suggest/places.bin`;
export const suggestNamesPath = (cc: string, n: number) => `/_s/${cc}/suggest/n/${n}.bin`;
export const suggestLocalitiesPath = (cc: string, n: number) => `/_s/${cc}/suggest/l/${n}.bin`;

// § 8: the route table; § 9: the build's own records; § 11: the CDN's files.

export const ROUTE_TABLE_PATH = "/_routes.json";
export const BUILD_STAMP_PATH = "/_build.json";
/** Every file of the build with its hash and size; not deployed (ASSETS_IGNORE_PATH lists it). */
export const FILE_LIST_PATH = "/_files.tsv";
export const ASSETS_IGNORE_PATH = "/.assetsignore";
export const HEADERS_PATH = "/_headers";
export const REDIRECTS_PATH = "/_redirects";

// § 10: downloads.

export const DOWNLOADS_PREFIX = "/downloads/";
export const DOWNLOADS_INDEX = "/downloads/index.json";

/** A complete dataset, or part n of one; `datasetPath("*", format)` is the `_headers` pattern of them all. */
export function datasetPath(resource: string, format: Format, part?: number): string {
  return `${DOWNLOADS_PREFIX}${resource}${part === undefined ? "" : `.part-${part}`}.${format}`;
}

export function viewDownloadPath(resource: string, slug: string, format: Format): string {
  return `${DOWNLOADS_PREFIX}${resource}/${slug}.${format}`;
}

/** The gzip copy of a download. */
export function gzipPath(path: string): string {
  return `${path}.gz`;
}

// § 10: the change feed, beside the downloads (docs/CHANGES.md).

export const CHANGES_PREFIX = `${DOWNLOADS_PREFIX}changes/`;
export const CHANGE_FEED = `${CHANGES_PREFIX}index.json`;

export function buildStamp(builtAt: string): string {
  const time = new Date(builtAt);
  if (Number.isNaN(time.getTime())) throw new Error(`not a build time: '${builtAt}'`);
  return time
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replaceAll("-", "")
    .replaceAll(":", "")
    .replace("T", "-");
}

export function changeFilePath(builtAt: string, resource: string, format: Format): string {
  return `${CHANGES_PREFIX}${buildStamp(builtAt)}/${resource}.${format}`;
}
