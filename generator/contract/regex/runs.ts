/**
 * What every value a pattern matches must contain, as runs of character classes: Cox's trigram
 * analysis (literals.ts) with classes instead of strings, for the patterns that require no literal
 * (`\w+\W+\w+` requires `\w\W` and `\W\w`; `(a|e|i|o|u){3}` requires `[aeiou][aeiou][aeiou]`).
 * Each node gives the classes its matches start and end with, all of them when every match has one
 * length; concatenation requires the run across each junction; alternation unites position by
 * position. Sound, not exact: a value the query rejects never matches.
 *
 * The classes are the pattern's own (case variants already added by the parser), so the query is
 * evaluated over the plain values: a case-folded value (search/filter.ts caseFoldKey joins more
 * variants than `~*` does, `ſ` with `s`) could lose a character a negated class accepts.
 */
import { onForgetIsolateState } from "../isolate-state.ts";
import { cutToAlphabet } from "./alphabet.ts";
import { complement, mergeRanges, type Node, type Range } from "./ast.ts";

export type Run = readonly (readonly Range[])[];

export type RunQuery =
  | { readonly op: "all" }
  | { readonly op: "run"; readonly classes: Run }
  | { readonly op: "and" | "or"; readonly of: readonly RunQuery[] };

export const ANY_RUN: RunQuery = { op: "all" };

/** Longest run kept: each position costs a lookup only where the earlier ones matched. */
const MAX_RUN = 6;
/** Longest fixed-length sequence carried before it is cut into its start and end. */
const MAX_FIXED = 24;
/** Most runs an `and` keeps (each is one pass over the values); an `or` with more is dropped. */
const MAX_RUNS = 4;

const ANY_CHAR = complement([]);

interface Info {
  /** When every match has the same length: the class of each position. */
  readonly fixed: Run | undefined;
  /** The classes every match starts and ends with (at most MAX_RUN). */
  readonly prefix: Run;
  readonly suffix: Run;
  /** Runs required inside. */
  readonly query: RunQuery;
}

/**
 * The runs of classes every match of the pattern contains. With the alphabet of the values it
 * will test, runs that nearly every position of a value would hold (`[^a][^b]`) are dropped: a
 * pass that sorts nothing out only costs.
 */
export function runQuery(node: Node, alphabet?: readonly Range[]): RunQuery {
  const query = whole(infoOf(node));
  return limited(alphabet === undefined ? query : selective(query, alphabet));
}

/** Most share of the alphabet's characters a run may hold at one position, as the product over its classes. */
const MAX_SHARE = 0.25;

function selective(query: RunQuery, alphabet: readonly Range[]): RunQuery {
  switch (query.op) {
    case "all":
      return query;
    case "run":
      // Kept runs are cut to the alphabet (the same members in the values): few ranges to search.
      return query.classes.reduce((p, c) => p * share(c, alphabet), 1) <= MAX_SHARE
        ? { op: "run", classes: query.classes.map((c) => cutToAlphabet(c, alphabet)) }
        : ANY_RUN;
    case "and":
      return and(query.of.map((q) => selective(q, alphabet)));
    case "or":
      return or(query.of.map((q) => selective(q, alphabet)));
  }
}

/** The share of the alphabet's characters in the class (both sorted and merged). */
function share(ranges: readonly Range[], alphabet: readonly Range[]): number {
  let size = 0;
  let common = 0;
  let i = 0;
  for (const [from, to] of alphabet) {
    size += to - from + 1;
    while (i < ranges.length && (ranges[i]?.[1] ?? 0) < from) i++;
    for (let j = i; j < ranges.length && (ranges[j]?.[0] ?? 0) <= to; j++) {
      const [a, b] = ranges[j] as Range;
      common += Math.max(0, Math.min(b, to) - Math.max(a, from) + 1);
    }
  }
  return size === 0 ? 0 : common / size;
}

const EMPTY: Info = { fixed: [], prefix: [], suffix: [], query: ANY_RUN };

function single(ranges: readonly Range[]): Info {
  return { fixed: [ranges], prefix: [ranges], suffix: [ranges], query: ANY_RUN };
}

/** The ranges sorted and merged: the same array when they are (`\w`'s), a case pair reordered (`ı` gives `[ı, I]`). */
function sorted(ranges: readonly Range[]): readonly Range[] {
  for (let i = 1; i < ranges.length; i++)
    if ((ranges[i]?.[0] ?? 0) <= (ranges[i - 1]?.[1] ?? 0) + 1) return mergeRanges(ranges);
  return ranges;
}

function infoOf(node: Node): Info {
  switch (node.kind) {
    case "empty":
    case "start":
    case "end":
      return EMPTY;
    case "char":
      return single([[node.code, node.code]]);
    case "class":
      return single(node.negated ? complement(node.ranges) : sorted(node.ranges));
    case "any":
      return single(ANY_CHAR);
    case "concat":
      return node.parts.map(infoOf).reduce(concat, EMPTY);
    case "alternate":
      return node.branches.length === 0 ? EMPTY : alternate(node.branches.map(infoOf));
    case "repeat": {
      if (node.max === 0) return EMPTY;
      const inner = infoOf(node.node);
      if (node.min === 0) return { fixed: undefined, prefix: [], suffix: [], query: ANY_RUN };
      // A match of `x{m,n}` starts and ends with m copies of x; four carry all a run can use.
      const copies = Math.min(node.min, 4);
      const least = Array.from({ length: copies }, () => inner).reduce(concat, EMPTY);
      if (node.max === node.min && copies === node.min) return least;
      return {
        fixed: undefined,
        prefix: least.prefix,
        suffix: least.suffix,
        query: and([least.query, ...fixedRuns(least.fixed)]),
      };
    }
  }
}

function concat(a: Info, b: Info): Info {
  const fixed =
    a.fixed !== undefined && b.fixed !== undefined && a.fixed.length + b.fixed.length <= MAX_FIXED
      ? [...a.fixed, ...b.fixed]
      : undefined;
  const prefix = (a.fixed !== undefined ? [...a.fixed, ...b.prefix] : a.prefix).slice(0, MAX_RUN);
  const suffix = (b.fixed !== undefined ? [...a.suffix, ...b.fixed] : b.suffix).slice(-MAX_RUN);
  const parts = [a.query, b.query];
  if (fixed === undefined) {
    // What is no longer carried as one sequence is required as runs: a's, b's, their junction.
    parts.push(...fixedRuns(a.fixed), ...fixedRuns(b.fixed));
    const left = a.suffix.slice(-Math.max(MAX_RUN - b.prefix.length, MAX_RUN / 2));
    parts.push(run([...left, ...b.prefix].slice(0, MAX_RUN)));
  }
  return { fixed, prefix, suffix, query: and(parts) };
}

function alternate(branches: readonly Info[]): Info {
  const first = branches[0] as Info;
  const sameLength = branches.every(
    (b) => b.fixed !== undefined && b.fixed.length === first.fixed?.length,
  );
  const union = (runs: readonly Run[], fromEnd: boolean): Run => {
    const length = Math.min(...runs.map((r) => r.length));
    return Array.from({ length }, (_, i) =>
      mergeRanges(runs.flatMap((r) => [...(r[fromEnd ? r.length - length + i : i] ?? [])])),
    );
  };
  if (sameLength) {
    const fixed = union(
      branches.map((b) => b.fixed ?? []),
      false,
    );
    return {
      fixed,
      prefix: fixed.slice(0, MAX_RUN),
      suffix: fixed.slice(-MAX_RUN),
      query: ANY_RUN,
    };
  }
  return {
    fixed: undefined,
    prefix: union(
      branches.map((b) => b.prefix),
      false,
    ),
    suffix: union(
      branches.map((b) => b.suffix),
      true,
    ),
    query: or(branches.map(whole)),
  };
}

/** All a node requires: its runs inside, and its fixed sequence or its start and end. */
function whole(info: Info): RunQuery {
  if (info.fixed !== undefined) return and([info.query, ...fixedRuns(info.fixed)]);
  return and([info.query, run(info.prefix), run(info.suffix)]);
}

/** A fixed sequence as runs: its first MAX_RUN classes, and its last when longer. */
function fixedRuns(fixed: Run | undefined): RunQuery[] {
  if (fixed === undefined) return [];
  if (fixed.length <= MAX_RUN) return [run(fixed)];
  return [run(fixed.slice(0, MAX_RUN)), run(fixed.slice(-MAX_RUN))];
}

function run(classes: Run): RunQuery {
  // A class of every character requires only a length: not worth a pass.
  const kept = classes.length > 0 && classes.every((c) => c === ANY_CHAR) ? [] : classes;
  return kept.length === 0 ? ANY_RUN : { op: "run", classes: kept };
}

/** Most operands an `and` carries while the pattern is analysed (a long chain of classes adds one run per junction). */
const MAX_CARRIED = 16;

/**
 * The conjunction, each distinct operand once and without a run inside another of its runs. Past
 * MAX_CARRIED operands only the longest runs are kept (dropping a requirement is sound): the pairs
 * compared below would otherwise grow with the square of a long chain of classes' junctions.
 */
function and(queries: readonly RunQuery[]): RunQuery {
  let flat = distinct(queries.flatMap((q) => (q.op === "all" ? [] : q.op === "and" ? q.of : [q])));
  if (flat.length > MAX_CARRIED)
    flat = [...flat].sort((x, y) => weight(x) - weight(y)).slice(0, MAX_CARRIED);
  const keys = flat.map((q) => (q.op === "run" ? q.classes.map(classKey) : []));
  const inside = (a: readonly string[], b: readonly string[]) =>
    a.length < b.length &&
    b.some((_, at) => at + a.length <= b.length && a.every((key, k) => key === b[at + k]));
  const of = flat.filter(
    (q, i) => q.op !== "run" || !keys.some((other) => inside(keys[i] ?? [], other)),
  );
  return of.length === 0 ? ANY_RUN : of.length === 1 ? (of[0] as RunQuery) : { op: "and", of };
}

export function or(queries: readonly RunQuery[]): RunQuery {
  if (queries.length === 0 || queries.some((q) => q.op === "all")) return ANY_RUN;
  const of = distinct(queries.flatMap((q) => (q.op === "or" ? q.of : [q])));
  return of.length === 1 ? (of[0] as RunQuery) : { op: "or", of };
}

/**
 * A class's key: short classes by their ranges, long ones (`\w` has some 700 ranges, met at every
 * junction) by their array, so two equal long classes built apart count as two (a pass more, no
 * wrong verdict). Kept per array: a class is met at every junction it takes part in.
 */
let classKeys = new WeakMap<readonly Range[], string>();
onForgetIsolateState(() => {
  classKeys = new WeakMap();
});
function classKey(ranges: readonly Range[]): string {
  let key = classKeys.get(ranges);
  if (key === undefined)
    classKeys.set(ranges, (key = ranges.length <= 8 ? ranges.join(";") : `#${nextKey++}`));
  return key;
}
let nextKey = 0;

function queryKey(query: RunQuery): string {
  if (query.op === "all") return "*";
  if (query.op === "run") return query.classes.map(classKey).join("|");
  return `${query.op}(${query.of.map(queryKey).join(",")})`;
}

function distinct(queries: readonly RunQuery[]): RunQuery[] {
  const seen = new Set<string>();
  return queries.filter((q) => {
    const key = queryKey(q);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** How many passes over the values a query takes. */
const passes = (q: RunQuery): number =>
  q.op === "all" ? 0 : q.op === "run" ? 1 : q.of.reduce((n, p) => n + passes(p), 0);

/** Longer runs first, then the queries of fewer passes. */
const weight = (q: RunQuery): number => (q.op === "run" ? -q.classes.length : passes(q));

/** At most MAX_RUNS passes: an `and` keeps its longest runs, an `or` of more is dropped (sound both ways). */
function limited(query: RunQuery): RunQuery {
  switch (query.op) {
    case "all":
    case "run":
      return query;
    case "or":
      return passes(query) <= MAX_RUNS ? query : ANY_RUN;
    case "and": {
      const kept: RunQuery[] = [];
      let used = 0;
      for (const part of [...query.of].sort((x, y) => weight(x) - weight(y))) {
        const cost = passes(part);
        if (used + cost <= MAX_RUNS) {
          kept.push(part);
          used += cost;
        }
      }
      return and(kept);
    }
  }
}
