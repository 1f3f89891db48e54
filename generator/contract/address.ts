import { CANONICAL_PAGE_SIZE } from "./paging.ts";
import type { MatchRule, SelectorSpec } from "./routes.ts";

/**
 * The address of a view: selector values → view key → index shard. The paths themselves are made
 * in layout.ts (re-exported here for the modules that import them from here); nothing a client
 * sends ends up in a path except through the index (a build-made slug).
 */
export {
  ALL_SLUG,
  DOCS_FILES,
  DOCS_ROUTES,
  indexPath,
  listPath,
  matchTablePath,
  pagePath,
  type DocsFile,
  type PageAddress,
} from "./layout.ts";

/**
 * Most index shards a resource has: a cold request loads one shard, whatever the data size. A
 * resource with fewer views has fewer shards (the route table says how many), so that small
 * resources do not spend the file budget on shards of one view each.
 */
export const MAX_INDEX_SHARDS = 256;

/** Views per shard the build aims at: shards stay a few tens of KB. */
const VIEWS_PER_SHARD = 32;

/** How many shards a resource with `views` views has: a power of two, at most `MAX_INDEX_SHARDS`. */
export function shardCount(views: number): number {
  let shards = 1;
  while (shards < MAX_INDEX_SHARDS && shards * VIEWS_PER_SHARD < views) shards *= 2;
  return shards;
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

export type ViewSelection =
  | { readonly ok: true; readonly key: string }
  | { readonly ok: false; readonly missing: SelectorSpec };

/**
 * The view a request selects, from the value it gives each selector as sent (`undefined`: not
 * given): normalised, a value that is empty after normalisation counting as absent, then keyed
 * (its shard is `shardOf(key, …)`). A required selector without a value selects nothing.
 */
export function selectView(
  selectors: readonly SelectorSpec[],
  valueOf: (selector: SelectorSpec) => string | undefined,
): ViewSelection {
  const values: (string | undefined)[] = [];
  for (const selector of selectors) {
    const raw = valueOf(selector);
    const value = raw === undefined ? "" : normalizeSelectorValue(selector.match, raw);
    if (value === "" && selector.required) return { ok: false, missing: selector };
    values.push(value === "" ? undefined : value);
  }
  return { ok: true, key: viewKey(values) };
}

/** The shard of a key among `shards`: FNV-1a over UTF-16 code units, cheap and identical in Node and in the Worker. */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/**
 * Whether a view has page files of `pageSize`: a materialised size has them when it splits the view
 * (pageSize < total), and the canonical size always (its page 1 holds a small view whole).
 */
export function hasPageFiles(
  materialisedSizes: ReadonlySet<number>,
  pageSize: number,
  total: number,
): boolean {
  return materialisedSizes.has(pageSize) && (pageSize < total || pageSize === CANONICAL_PAGE_SIZE);
}

/**
 * The page file size that holds a page of `pageSize`, if any: the size itself when it has files,
 * else for a page that holds every record (pageSize ≥ total) the canonical page 1, the same bytes.
 */
export function pageFileSize(
  materialisedSizes: ReadonlySet<number>,
  pageSize: number,
  total: number,
): number | undefined {
  if (hasPageFiles(materialisedSizes, pageSize, total)) return pageSize;
  return pageSize >= total && hasPageFiles(materialisedSizes, CANONICAL_PAGE_SIZE, total)
    ? CANONICAL_PAGE_SIZE
    : undefined;
}
