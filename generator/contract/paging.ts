/** Paging rules of the contract: page 1..2^31-1, pageSize 1..50, pages rounded up. */

export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 50;
export const MAX_PAGE = 2147483647;

/** The page size whose pages are always materialised; every other size is served from these. */
export const CANONICAL_PAGE_SIZE = MAX_PAGE_SIZE;

export const ALL_PAGE_SIZES: readonly number[] = Array.from(
  { length: MAX_PAGE_SIZE },
  (_, i) => i + 1,
);

export function pageCount(total: number, pageSize: number): number {
  return Math.ceil(total / pageSize);
}

/** Record indices [start, end) of a page; empty (start === end) past the last page. */
export function pageBounds(
  page: number,
  pageSize: number,
  total: number,
): { start: number; end: number } {
  const start = Math.min((page - 1) * pageSize, total);
  return { start, end: Math.min(start + pageSize, total) };
}
