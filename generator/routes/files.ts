import { PAGING_HEADERS } from "./headers.ts";
import { CANONICAL_PAGE_SIZE } from "./paging.ts";
import type { Format } from "./query.ts";

/**
 * Where everything the Worker reads lives in the asset tree. The generator writes exactly these
 * paths and the Worker fetches exactly these paths; nothing a client sends ends up in a path
 * except through the index (a build-made slug).
 *
 *   /_p/{resource}/{slug}/{total}/{pageSize}/{pages}/{page}.{json|csv}   one page
 *   /_i/{resource}/{shard}.json                                         filter-value index shard
 *   /_l/{resource}.{json|csv}                                           an unpaged list
 *   /index.html, /docs.js, /openapi.json                                the docs, served as they are
 */

/** Number of index shards per resource: a cold request loads one shard, whatever the data size. */
export const INDEX_SHARDS = 256;

/** Slug used for a paged resource that has no filter (its whole list is one view). */
export const ALL_SLUG = "_all";

export interface PageAddress {
  readonly resource: string;
  readonly slug: string;
  readonly total: number;
  readonly pageSize: number;
  readonly page: number;
  readonly format: Format;
}

/** The docs files of a build: the Worker passes them through with their `_headers` rules. */
export const DOCS_FILES = ["/index.html", "/docs.js", "/openapi.json"] as const;
export type DocsFile = (typeof DOCS_FILES)[number];

/** Public path → docs file: each file at its own path, and the page at `/` too. */
export const DOCS_ROUTES: ReadonlyMap<string, DocsFile> = new Map<string, DocsFile>([["/", "/index.html"], ...DOCS_FILES.map((file) => [file, file] as const)]);

export function pagePath(a: PageAddress): string {
  const pages = Math.ceil(a.total / a.pageSize);
  return `/_p/${a.resource}/${a.slug}/${a.total}/${a.pageSize}/${pages}/${a.page}.${a.format}`;
}

export function indexPath(resource: string, shard: number): string {
  return `/_i/${resource}/${shard.toString(16).padStart(2, "0")}.json`;
}

export function listPath(resource: string, format: Format): string {
  return `/_l/${resource}.${format}`;
}

/**
 * The `_headers` rules that attach the paging headers to every page file from its path.
 * Placeholder names are chosen so that none is a prefix of another (a rule with such names is
 * dropped silently by the CDN).
 */
const PAGE_PLACEHOLDERS: Readonly<Record<(typeof PAGING_HEADERS)[number], string>> = {
  "x-page": "num",
  "x-page-size": "size",
  "x-total-count": "total",
  "x-total-pages": "pages",
};

export function pageHeaderRules(contentTypes: Readonly<Record<Format, string>>): string {
  return (["json", "csv"] as const)
    .map((format) =>
      [
        `/_p/:res/:sel/:total/:size/:pages/:num.${format}`,
        `  Content-Type: ${contentTypes[format]}`,
        ...PAGING_HEADERS.map((name) => `  ${name}: :${PAGE_PLACEHOLDERS[name]}`),
      ].join("\n"),
    )
    .join("\n\n");
}

export function listHeaderRules(contentTypes: Readonly<Record<Format, string>>): string {
  return (["json", "csv"] as const).map((format) => `/_l/*.${format}\n  Content-Type: ${contentTypes[format]}`).join("\n\n");
}

/**
 * Normalises a filter value the way matching is defined: Unicode NFC, trimmed, lower-cased.
 * Two values with the same normal form select the same records.
 */
export function normalizeFilterValue(value: string): string {
  return value.normalize("NFC").trim().toLowerCase();
}

/** How a selector's value matches: exactly as sent, or case-insensitively after normalisation. */
export type MatchRule = "exact" | "caseInsensitive";

export function normalizeSelectorValue(match: MatchRule, value: string): string {
  return match === "exact" ? value : normalizeFilterValue(value);
}

/**
 * The index key of a view from its selector values in selector order (`undefined`: not given).
 * One selector: its value itself ("" for none); several: a JSON array with null for absent
 * values, so no value can forge another tuple.
 */
export function viewKey(values: readonly (string | undefined)[]): string {
  if (values.length <= 1) return values[0] ?? "";
  return JSON.stringify(values.map((value) => value ?? null));
}

/** FNV-1a over UTF-16 code units: cheap, and identical in Node and in the Worker. */
export function shardOf(normalizedValue: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < normalizedValue.length; i++) {
    hash ^= normalizedValue.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % INDEX_SHARDS;
}

/**
 * Whether a view's pages of `pageSize` exist as files: the canonical size always; another
 * materialised size only when it splits the view (pageSize < total). For pageSize ≥ total the one
 * page holds every record, the same bytes as canonical page 1, so the Worker serves that instead.
 */
export function hasPageFiles(materialisedSizes: ReadonlySet<number>, pageSize: number, total: number): boolean {
  return pageSize === CANONICAL_PAGE_SIZE || (pageSize < total && materialisedSizes.has(pageSize));
}

/**
 * One index shard: which page sizes exist as files, and each view's entry. A view that fits in
 * one canonical page may be inlined: its records are in the entry and it has no page files (the
 * Worker renders its pages from them, byte-identical to page files).
 */
export interface IndexShard {
  /** Page sizes materialised as files for this resource (always includes the canonical size). */
  readonly sizes: readonly number[];
  /** [view key, slug, total, content hash] or, inlined, [view key, slug, total, content hash, records] */
  readonly entries: readonly IndexEntryTuple[];
}
export type IndexEntryTuple = readonly [string, string, number, string] | readonly [string, string, number, string, readonly unknown[]];
