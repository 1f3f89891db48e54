import { ALL_PAGE_SIZES, CANONICAL_PAGE_SIZE, pageCount } from "../contract/paging.ts";

export const FORMATS_PER_PAGE = 2;

export interface PagedResourceCounts {
  readonly resource: string;
  /** Records per view that is not inlined (inlined views have no page files). */
  readonly viewSizes: readonly number[];
}

export interface SizePlan {
  /** Page sizes written as files per resource, ascending; any other page is served from the packed records. */
  readonly sizes: ReadonlyMap<string, readonly number[]>;
  readonly pageFiles: number;
  /** The smallest budget that works: every file but the pages (the pages are optional). */
  readonly minimumFiles: number;
}

/** Files that materialising `pageSize` costs (see `hasPageFiles`: only views it splits, and the canonical size for every view). */
export function pageFilesFor(viewSizes: readonly number[], pageSize: number): number {
  let files = 0;
  for (const n of viewSizes)
    if (pageSize === CANONICAL_PAGE_SIZE || pageSize < n)
      files += pageCount(n, pageSize) * FORMATS_PER_PAGE;
  return files;
}

/**
 * Chooses the page sizes to write as files within what `maxFiles` leaves after the other files.
 * Every page can be served from the packed records, so no size is required; where the budget
 * allows, pages are files of their own (the fastest to serve): the default size 50 first, then
 * further sizes cheapest first (largest first), so as many sizes as possible are plain files.
 * Throws when not even the other files fit.
 */
export function choosePageSizes(
  resources: readonly PagedResourceCounts[],
  otherFiles: number,
  maxFiles: number,
): SizePlan {
  if (otherFiles > maxFiles) {
    throw new Error(
      `the file budget of ${maxFiles} files is too small: this data needs at least ${otherFiles} (index, packed records, lists, downloads and docs)`,
    );
  }
  const sizes = new Map<string, number[]>(resources.map((r) => [r.resource, []]));
  let used = otherFiles;
  const candidates = resources
    .flatMap((r) =>
      ALL_PAGE_SIZES.map((size) => ({
        resource: r.resource,
        size,
        files: pageFilesFor(r.viewSizes, size),
      })),
    )
    .sort(
      (a, b) =>
        Number(b.size === CANONICAL_PAGE_SIZE) - Number(a.size === CANONICAL_PAGE_SIZE) ||
        a.files - b.files ||
        b.size - a.size ||
        (a.resource < b.resource ? -1 : 1),
    );
  for (const candidate of candidates) {
    if (used + candidate.files > maxFiles) continue;
    used += candidate.files;
    sizes.get(candidate.resource)?.push(candidate.size);
  }
  for (const list of sizes.values()) list.sort((a, b) => a - b);
  return { sizes, pageFiles: used - otherFiles, minimumFiles: otherFiles };
}
