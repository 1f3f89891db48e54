import { ALL_PAGE_SIZES, CANONICAL_PAGE_SIZE, pageCount } from "../contract/paging.ts";

export const FORMATS_PER_PAGE = 2;

export interface PagedResourceCounts {
  readonly resource: string;
  /** Records per view (filter value). */
  readonly viewSizes: readonly number[];
}

export interface SizePlan {
  /** Materialised page sizes per resource, ascending; always includes the canonical size. */
  readonly sizes: ReadonlyMap<string, readonly number[]>;
  readonly pageFiles: number;
  /** The smallest budget that works: the canonical pages plus every other file. */
  readonly minimumFiles: number;
}

/** Files that materialising `pageSize` costs (see `hasPageFiles`: only views it splits). */
export function pageFilesFor(viewSizes: readonly number[], pageSize: number): number {
  let files = 0;
  for (const n of viewSizes) if (pageSize === CANONICAL_PAGE_SIZE || pageSize < n) files += pageCount(n, pageSize) * FORMATS_PER_PAGE;
  return files;
}

/**
 * Chooses the page sizes to write as files within `maxFiles`. The canonical size is always written
 * (every other size is served from it); then sizes are added cheapest first (largest first), so as
 * many sizes as possible are plain files. Throws when not even the canonical pages fit.
 */
export function choosePageSizes(resources: readonly PagedResourceCounts[], otherFiles: number, maxFiles: number): SizePlan {
  const sizes = new Map<string, number[]>(resources.map((r) => [r.resource, [CANONICAL_PAGE_SIZE]]));
  const minimumFiles = otherFiles + resources.reduce((sum, r) => sum + pageFilesFor(r.viewSizes, CANONICAL_PAGE_SIZE), 0);
  if (minimumFiles > maxFiles) {
    throw new Error(`the file budget of ${maxFiles} files is too small: this data needs at least ${minimumFiles}`);
  }
  let used = minimumFiles;
  const candidates = resources
    .flatMap((r) => ALL_PAGE_SIZES.filter((s) => s !== CANONICAL_PAGE_SIZE).map((size) => ({ resource: r.resource, size, files: pageFilesFor(r.viewSizes, size) })))
    .sort((a, b) => a.files - b.files || b.size - a.size || (a.resource < b.resource ? -1 : 1));
  for (const candidate of candidates) {
    if (used + candidate.files > maxFiles) continue;
    used += candidate.files;
    sizes.get(candidate.resource)?.push(candidate.size);
  }
  for (const list of sizes.values()) list.sort((a, b) => a - b);
  return { sizes, pageFiles: used - otherFiles, minimumFiles };
}
