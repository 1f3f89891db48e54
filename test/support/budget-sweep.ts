import { MAX_PAGE_SIZE } from "../../generator/contract/paging.ts";

/**
 * The pages the budget-equivalence suites ask for: a stratified sweep instead of every page size
 * of every locality. A page of a view with `total` records is answered in one of five ways
 * (generator/edge/paged.ts): the empty page past the last one, the view's inlined records, its own
 * page file (a materialised size smaller than the total), the canonical page file (size 50) for a
 * page size that holds the whole view, or records cut from the packed stream. Which one depends on
 * the page against the page count, the page size against the total (smaller, equal, larger) and
 * whether the build materialised that size; the bytes cut depend on the page size and page.
 *
 * So every view is asked at every page size up to its total plus one (every distinct way to split
 * it: all 50 for a view of 49 records or more, so Berlin's 600 streets at every size), at 50, at
 * the first larger size of each materialisation class (`classOf`: which of the builds have the
 * size) and at one more size that rotates with the view's index, so that over the localities
 * every size 1–50 is asked of views it holds whole. Page sizes above the total plus one split
 * nothing: they differ from each other only in the headers and in the class, both covered.
 */
export interface SweepTarget {
  readonly size: number;
  readonly page: number;
}

export function sweepSizes(
  total: number,
  index: number,
  classOf: (size: number) => string,
): number[] {
  const sizes = new Set<number>();
  for (let size = 1; size <= Math.min(total + 1, MAX_PAGE_SIZE); size++) sizes.add(size);
  const classes = new Set<string>();
  for (let size = total + 2; size <= MAX_PAGE_SIZE; size++) {
    const kind = classOf(size);
    if (classes.has(kind)) continue;
    classes.add(kind);
    sizes.add(size);
  }
  sizes.add(MAX_PAGE_SIZE);
  sizes.add(1 + (index % MAX_PAGE_SIZE));
  return [...sizes].sort((a, b) => a - b);
}

/**
 * The pages of one page size: every page 1…n+1 (`every`), or the first, the second, the middle,
 * the last two and the one past the last (the positions where a cut starts, ends short or finds
 * nothing), for a sweep over HTTP where every request costs a round trip through the runtime.
 */
export function sweepPages(total: number, size: number, every: boolean): number[] {
  const count = Math.ceil(total / size);
  if (every) return Array.from({ length: count + 1 }, (_, i) => i + 1);
  const pages = [1, 2, Math.ceil(count / 2), count - 1, count, count + 1];
  return [...new Set(pages.filter((p) => p >= 1 && p <= count + 1))].sort((a, b) => a - b);
}

/** The sweep of the views (`totals` in a fixed order): each view's targets, sizes ascending. */
export function sweepTargets(
  totals: readonly number[],
  classOf: (size: number) => string,
  everyPage: boolean,
): SweepTarget[][] {
  return totals.map((total, index) =>
    sweepSizes(total, index, classOf).flatMap((size) =>
      sweepPages(total, size, everyPage).map((page) => ({ size, page })),
    ),
  );
}
