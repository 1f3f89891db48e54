import { CANONICAL_PAGE_SIZE, pageCount } from "./paging.ts";
import type { Format } from "./query.ts";
import type { MatchRule, SelectorSpec } from "./routes.ts";

/**
 * Where everything the Worker reads lives in the asset tree. The generator writes exactly these
 * paths and the Worker fetches exactly these paths; nothing a client sends ends up in a path
 * except through the index (a build-made slug).
 *
 *   /_p/{resource}/{slug}/{total}/{pageSize}/{pages}/{page}.{json|csv}   one page
 *   /_i/{resource}/{shard}.json                                         view index shard
 *   /_l/{resource}.{json|csv}                                           an unpaged list
 *   /_routes.json                                                       the route table (routes.ts)
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
  return `/_p/${a.resource}/${a.slug}/${a.total}/${a.pageSize}/${pageCount(a.total, a.pageSize)}/${a.page}.${a.format}`;
}

export function indexPath(resource: string, shard: number): string {
  return `/_i/${resource}/${shard.toString(16).padStart(2, "0")}.json`;
}

export function listPath(resource: string, format: Format): string {
  return `/_l/${resource}.${format}`;
}

/**
 * Normalises a filter value the way matching is defined: Unicode NFC, trimmed, lower-cased.
 * Two values with the same normal form select the same records.
 */
export function normalizeFilterValue(value: string): string {
  return value.normalize("NFC").trim().toLowerCase();
}

export function normalizeSelectorValue(match: MatchRule, value: string): string {
  return match === "exact" ? value : normalizeFilterValue(value);
}

/**
 * The index key of a view from its normalised selector values in selector order (`undefined`: not
 * given). One selector: its value itself ("" for none); several: a JSON array with null for absent
 * values, so no value can forge another tuple.
 */
export function viewKey(values: readonly (string | undefined)[]): string {
  if (values.length <= 1) return values[0] ?? "";
  return JSON.stringify(values.map((value) => value ?? null));
}

export type ViewSelection = { readonly ok: true; readonly key: string; readonly shard: number } | { readonly ok: false; readonly missing: SelectorSpec };

/**
 * The view a request selects, from the value it gives each selector as sent (`undefined`: not
 * given): normalised, a value that is empty after normalisation counting as absent, then keyed and
 * sharded. A required selector without a value selects nothing.
 */
export function selectView(selectors: readonly SelectorSpec[], valueOf: (selector: SelectorSpec) => string | undefined): ViewSelection {
  const values: (string | undefined)[] = [];
  for (const selector of selectors) {
    const raw = valueOf(selector);
    const value = raw === undefined ? "" : normalizeSelectorValue(selector.match, raw);
    if (value === "" && selector.required) return { ok: false, missing: selector };
    values.push(value === "" ? undefined : value);
  }
  const key = viewKey(values);
  return { ok: true, key, shard: shardOf(key) };
}

/** FNV-1a over UTF-16 code units: cheap, and identical in Node and in the Worker. */
export function shardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
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
