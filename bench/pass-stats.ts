/**
 * Statistics of requests timed in several passes, shared by bench/postgres.ts and bench/search.ts
 * so that both sides of the PostgreSQL comparison state the same statistic: per request its first
 * pass and the least of its passes, then per query class the p50 / p99 / max over requests.
 */

/** The nearest-rank percentile (p in 0..100) of values in any order; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** One request's times over its passes: the first, and the least so far. */
export interface PassTimes {
  readonly first: number;
  readonly least: number;
}

/** A request's times after one more pass took `ms`. */
export const addPass = (seen: PassTimes | undefined, ms: number): PassTimes =>
  seen === undefined
    ? { first: ms, least: ms }
    : { first: seen.first, least: Math.min(seen.least, ms) };

export interface Spread {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}
export const spread = (values: readonly number[]): Spread => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: values.length === 0 ? NaN : Math.max(...values),
});

/** Per query class: requests, passes, and the spread of first and of least times. */
export interface ClassTimes {
  readonly class: string;
  readonly requests: number;
  readonly passes: number;
  readonly first: Spread;
  readonly least: Spread;
}

/** Per class, in the order classes first appear. */
export function classTimes(
  timed: readonly { readonly class: string; readonly times: PassTimes }[],
  passes: number,
): ClassTimes[] {
  const byClass = new Map<string, PassTimes[]>();
  for (const { class: name, times } of timed)
    (byClass.get(name) ?? byClass.set(name, []).get(name))?.push(times);
  return [...byClass].map(([name, list]) => ({
    class: name,
    requests: list.length,
    passes,
    first: spread(list.map((t) => t.first)),
    least: spread(list.map((t) => t.least)),
  }));
}

/** One class side by side: both sides' statistics, and per statistic whether ours is lower. */
export interface Comparison {
  readonly class: string;
  readonly ours: ClassTimes;
  readonly theirs: ClassTimes | undefined;
  /** Per statistic: ours below theirs at p50 and at p99; undefined without their figures. */
  readonly aheadFirst: boolean | undefined;
  readonly aheadLeast: boolean | undefined;
}

export function compare(
  ours: readonly ClassTimes[],
  theirs: ReadonlyMap<string, ClassTimes>,
): Comparison[] {
  const ahead = (a: Spread, b: Spread) => a.p50 < b.p50 && a.p99 < b.p99;
  return ours.map((o) => {
    const t = theirs.get(o.class);
    return {
      class: o.class,
      ours: o,
      theirs: t,
      aheadFirst: t === undefined ? undefined : ahead(o.first, t.first),
      aheadLeast: t === undefined ? undefined : ahead(o.least, t.least),
    };
  });
}

/**
 * A class as a JSON file of bench/postgres.ts holds it: since `--passes`, `ClassTimes` itself;
 * files written before hold one pass's p50 / p99 / max, which are then both first and least.
 */
export function readClassTimes(entry: {
  readonly class: string;
  readonly requests: number;
  readonly passes?: number;
  readonly first?: Spread;
  readonly least?: Spread;
  readonly p50?: number;
  readonly p99?: number;
  readonly max?: number;
}): ClassTimes {
  const onePass: Spread = { p50: entry.p50 ?? NaN, p99: entry.p99 ?? NaN, max: entry.max ?? NaN };
  const first = entry.first ?? onePass;
  return {
    class: entry.class,
    requests: entry.requests,
    passes: entry.passes ?? 1,
    first,
    least: entry.least ?? first,
  };
}

/**
 * Items in order, at most `limit(class)` of each class: the first requests of each class in mix
 * order, as `bench:postgres --limit` times them and as bench:search then compares them.
 */
export function firstOfEachClass<T extends { readonly class: string }>(
  items: readonly T[],
  limit: (name: string) => number,
): T[] {
  const taken = new Map<string, number>();
  return items.filter((item) => {
    const n = taken.get(item.class) ?? 0;
    taken.set(item.class, n + 1);
    return n < limit(item.class);
  });
}
